import RouteKit

/// The outputs of `routekit near`.
enum NearFormatter {
    /// The meetings in one line, `; ` between them: `Vlci: úterý 16:30–18:00 (každý týden), ages 7–11 chlapci /
    /// 12–15 dívky, water scouts` (the unit named when several meet there).
    static func meetings(_ room: Clubroom) -> String {
        room.meetings.map { meeting($0, namingUnit: room.units.count > 1) }.joined(separator: "; ")
    }

    static func meeting(_ m: Meeting, namingUnit: Bool) -> String {
        var parts: [String] = []
        if namingUnit, let unit = m.unit?.name { parts.append(unit + ":") }
        if let day = m.dayName { parts.append(day) }
        if let times = m.times { parts.append(times) }
        if let p = m.periodicity { parts.append("(\(p))") }
        var text = parts.joined(separator: " ")
        let categories = m.categories.map(category).filter { !$0.isEmpty }
        if !categories.isEmpty {
            let aged = m.categories.contains { $0.ageFrom != nil || $0.ageTo != nil }
            text += (text.isEmpty ? "" : ", ") + (aged ? "ages " : "") + categories.joined(separator: " / ")
        }
        if m.isWater { text += (text.isEmpty ? "" : ", ") + "water scouts" }
        return text
    }

    /// `7–11 chlapci`, `7+`, `up to 11 girls`, `mixed`.
    static func category(_ c: AdvertisingCategory) -> String {
        var parts: [String] = []
        switch (c.ageFrom, c.ageTo) {
        case let (from?, to?): parts.append("\(from)–\(to)")
        case let (from?, nil): parts.append("\(from)+")
        case let (nil, to?): parts.append("up to \(to)")
        case (nil, nil): break
        }
        if let sex = c.sexName ?? c.sex?.rawValue { parts.append(sex) }
        return parts.joined(separator: " ")
    }

    /// A clubroom's label on a map: its name and its first meeting's day and times.
    static func label(_ room: Clubroom) -> String {
        guard let first = room.meetings.first, first.dayName != nil || first.times != nil else { return room.name }
        let when = [first.dayName, first.times].compactMap { $0 }.joined(separator: " ")
        return "\(room.name) (\(when)\(room.meetings.count > 1 ? " …" : ""))"
    }

    /// Five columns: two numbers right-aligned, name and address cut to fit, the meetings as they are.
    static func alignedTable(_ lines: [[String]], into b: inout ByteBuffer) {
        var widths = [0, 0, 0, 0, 0]
        for line in lines { for (i, c) in line.enumerated() { widths[i] = max(widths[i], c.count) } }
        widths[2] = min(widths[2], 36)
        widths[3] = min(widths[3], 40)
        for (k, line) in lines.enumerated() {
            var text = ""
            for (i, cell) in line.enumerated() {
                let shown = i < 4 && cell.count > widths[i] ? String(cell.prefix(widths[i] - 1)) + "…" : cell
                let pad = String(repeating: " ", count: max(0, widths[i] - shown.count))
                text += i < 2 ? pad + shown + "  " : i == 4 ? shown : shown + pad + "  "
            }
            b.append(string: text + "\n")
            if k == 0 { b.append(string: String(repeating: "─", count: min(widths.reduce(0, +) + 8, 140)) + "\n") }
        }
    }

    static func table(_ answers: [NearCommand.Answer], radius: Double, many: Bool, into b: inout ByteBuffer) {
        for (n, answer) in answers.enumerated() {
            if many || n > 0 { b.append(string: (n > 0 ? "\n" : "") + "\(answer.query.label)\n") }
            if answer.clubrooms.isEmpty {
                b.append(string: "No clubroom within \(DecimalText.fixed(radius / 1000, decimals: 1)) km.\n")
                continue
            }
            var lines: [[String]] = [["Distance", "Bearing", "Name", "Address", "Meetings"]]
            for m in answer.clubrooms {
                let room = m.clubroom
                lines.append([
                    DecimalText.fixed(m.distanceMeters / 1000, decimals: 2) + " km",
                    "\(Int(m.bearingDegrees.rounded()) % 360)° \(GeodesicIndex.compassPoint(m.bearingDegrees))",
                    room.name, room.address, meetings(room),
                ])
            }
            alignedTable(lines, into: &b)
            let count = answer.clubrooms.count
            b.append(
                string:
                    "\(count) clubroom\(count == 1 ? "" : "s") within "
                    + "\(DecimalText.fixed(radius / 1000, decimals: 1)) km.\n"
            )
        }
    }

    static func geojson(_ answers: [NearCommand.Answer], many: Bool, into b: inout ByteBuffer) {
        b.append("{\"type\":\"FeatureCollection\",\"features\":[")
        var first = true
        for answer in answers {
            for found in answer.clubrooms {
                let query = many ? answer.query.label : nil
                appendFeature(
                    found.clubroom, distanceMeters: found.distanceMeters, query: query, first: &first, into: &b
                ) { b in
                    b.append(",\"bearing_deg\":")
                    DecimalText.append(found.bearingDegrees, precision: 2, to: &b)
                    b.append(",\"compass\":")
                    JSONText.appendString(GeodesicIndex.compassPoint(found.bearingDegrees), to: &b)
                }
            }
        }
        b.append("\n]}\n")
    }

    /// One clubroom as a GeoJSON Feature: its id, the Point, and the properties id, name, distance_m, the
    /// caller's own `measures`, the clubroom's details, units and meetings, and the query when there is one.
    private static func appendFeature(
        _ room: Clubroom, distanceMeters: Double, query: String?, first: inout Bool,
        into b: inout ByteBuffer, measures: (inout ByteBuffer) -> Void
    ) {
        b.append(first ? "\n" : ",\n")
        first = false
        b.append("{\"type\":\"Feature\",\"id\":")
        JSONText.appendString(room.id, to: &b)
        b.append(",\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
        DecimalText.append(room.coordinate.longitude, to: &b)
        b.append(0x2C)
        DecimalText.append(room.coordinate.latitude, to: &b)
        b.append("]},\"properties\":{\"id\":")
        JSONText.appendString(room.id, to: &b)
        b.append(",\"name\":")
        JSONText.appendString(room.name, to: &b)
        b.append(",\"distance_m\":")
        DecimalText.append(distanceMeters, precision: 3, to: &b)
        measures(&b)
        appendDetails(room, into: &b)
        if let query {
            b.append(",\"query\":")
            JSONText.appendString(query, to: &b)
        }
        b.append("}}")
    }

    /// The clubroom's properties after the measures: type, address, notes, water scouts, units, meetings.
    private static func appendDetails(_ room: Clubroom, into b: inout ByteBuffer) {
        let details = [
            ("type", room.type), ("street", room.street), ("city", room.city), ("postcode", room.postcode),
            ("description", room.description), ("note", room.note), ("occupation_note", room.occupationNote),
        ]
        for (key, value) in details {
            guard let value else { continue }
            b.append(string: ",\"\(key)\":")
            JSONText.appendString(value, to: &b)
        }
        b.append(string: ",\"water_scouts\":\(room.isWater)")
        b.append(",\"units\":[")
        for (i, u) in room.units.enumerated() {
            if i > 0 { b.append(0x2C) }
            unitJSON(u, &b)
        }
        b.append("],\"meetings\":[")
        for (i, meeting) in room.meetings.enumerated() {
            if i > 0 { b.append(0x2C) }
            meetingJSON(meeting, &b)
        }
        b.append(0x5D)
    }

    static func unitJSON(_ u: ScoutUnit, _ b: inout ByteBuffer) {
        b.append("{\"name\":")
        JSONText.appendString(u.name, to: &b)
        if let n = u.registrationNumber {
            b.append(",\"registration_number\":")
            JSONText.appendString(n, to: &b)
        }
        if let id = u.id {
            b.append(",\"id\":")
            JSONText.appendString(id, to: &b)
        }
        if let water = u.isWater { b.append(string: ",\"water_scouts\":\(water)") }
        if let note = u.advertisingNote {
            b.append(",\"note\":")
            JSONText.appendString(note, to: &b)
        }
        b.append(0x7D)
    }

    /// `{"id", "unit", "weekday" (as shown), "weekday_iso" (1–7), "time_from", "time_to" (`16:30`, or as
    /// written), "periodicity", "water_scouts", "categories": [{"id", "age_from", "age_to", "sex" (boys, girls,
    /// mixed), "sex_name", "note"}]}`, members without a value left out.
    static func meetingJSON(_ meeting: Meeting, _ b: inout ByteBuffer) {
        func member(_ key: String, _ value: String?) {
            guard let value else { return }
            b.append(string: ",\"\(key)\":")
            JSONText.appendString(value, to: &b)
        }
        b.append("{\"unit\":")
        if let name = meeting.unit?.name { JSONText.appendString(name, to: &b) } else { b.append("null") }
        member("id", meeting.id)
        member("weekday", meeting.dayName)
        if let day = meeting.weekday { b.append(string: ",\"weekday_iso\":\(day.rawValue)") }
        member("time_from", meeting.timeFrom?.description)
        member("time_to", meeting.timeTo?.description)
        member("periodicity", meeting.periodicity)
        b.append(string: ",\"water_scouts\":\(meeting.isWater),\"categories\":[")
        for (k, c) in meeting.categories.enumerated() {
            b.append(k > 0 ? ",{" : "{")
            var first = true
            func open(_ key: String) {
                b.append(string: (first ? "" : ",") + "\"\(key)\":")
                first = false
            }
            if let id = c.id {
                open("id")
                JSONText.appendString(id, to: &b)
            }
            if let a = c.ageFrom {
                open("age_from")
                b.append(string: "\(a)")
            }
            if let a = c.ageTo {
                open("age_to")
                b.append(string: "\(a)")
            }
            if let sex = c.sex {
                open("sex")
                JSONText.appendString(sex.rawValue, to: &b)
            }
            if let name = c.sexName {
                open("sex_name")
                JSONText.appendString(name, to: &b)
            }
            if let note = c.note {
                open("note")
                JSONText.appendString(note, to: &b)
            }
            b.append(0x7D)
        }
        b.append("]}")
    }

    static func alongTable(
        _ found: [ClubroomIndex.AlongTrack], label: String, radius: Double,
        into b: inout ByteBuffer
    ) {
        b.append(
            string: "\(label): clubrooms within \(DecimalText.fixed(radius / 1000, decimals: 1)) km of the track\n")
        guard !found.isEmpty else { return b.append("None.\n") }
        var lines: [[String]] = [["At km", "Off track", "Name", "Address", "Meetings"]]
        for m in found {
            let room = m.clubroom
            lines.append([
                DecimalText.fixed(m.alongMeters / 1000, decimals: 1),
                DecimalText.fixed(m.distanceMeters / 1000, decimals: 2) + " km",
                room.name, room.address, meetings(room),
            ])
        }
        alignedTable(lines, into: &b)
    }

    /// The clubrooms along a track as GeoJSON Features: their distance from the track and along it (no bearing:
    /// there is no one position to take it from), and the track's label as the query.
    static func alongGeoJSON(_ found: [ClubroomIndex.AlongTrack], label: String, into b: inout ByteBuffer) {
        b.append("{\"type\":\"FeatureCollection\",\"features\":[")
        var first = true
        for m in found {
            appendFeature(m.clubroom, distanceMeters: m.distanceMeters, query: label, first: &first, into: &b) { b in
                b.append(",\"along_m\":")
                DecimalText.append(m.alongMeters, precision: 3, to: &b)
            }
        }
        b.append("\n]}\n")
    }

    /// The header of the CSV of `near` (its rows: ``csvRows(_:_:into:)``).
    static let csvHeader: StaticString = """
        query,id,name,latitude,longitude,distance_m,bearing_deg,compass,street,city,postcode,units,meetings,\
        water_scouts

        """

    /// The CSV rows of the clubrooms found for one query.
    static func csvRows(_ query: String, _ found: [ClubroomIndex.Found], into b: inout ByteBuffer) {
        // Through a pointer: each clubroom is read where it is, not copied.
        found.withUnsafeBufferPointer { found in
            for f in found.indices {
                csvRow(
                    query, found[f].clubroom, distance: found[f].distanceMeters, bearing: found[f].bearingDegrees,
                    into: &b)
            }
        }
    }

    /// The CSV row of one clubroom found at `distance` and `bearing` from the query.
    @inline(__always)
    static func csvRow(
        _ query: String, _ room: borrowing Clubroom, distance: Double, bearing: Double, into b: inout ByteBuffer
    ) {
        csvRow(query, room, distance: distance, into: &b) { appendBearing(bearing, to: &$0) }
    }

    /// The bearing and compass point columns.
    @inline(__always)
    private static func appendBearing(_ bearing: Double, to b: inout ByteBuffer) {
        DecimalText.append(bearing, precision: 2, to: &b)
        b.append(0x2C)
        GeodesicIndex.appendCompassPoint(bearing, to: &b)
    }

    /// The columns from the position on to the caller's own: latitude, longitude, distance, then `middle`'s.
    @inline(__always)
    private static func appendPosition(
        _ coordinate: Coordinate, distance: Double, into b: inout ByteBuffer, middle: (inout ByteBuffer) -> Void
    ) {
        DecimalText.append(coordinate.latitude, to: &b)
        b.append(0x2C)
        DecimalText.append(coordinate.longitude, to: &b)
        b.append(0x2C)
        DecimalText.append(distance, precision: 3, to: &b)
        b.append(0x2C)
        middle(&b)
        b.append(0x2C)
    }

    /// The same row for a clubroom of a catalog of places, from its row's fields: it has no units, no meetings,
    /// and is no water scouts' clubroom.
    static func csvRow(
        _ query: String, place: CSVCatalogTable.PlaceRow, distance: Double, bearing: Double, into b: inout ByteBuffer
    ) {
        StatsFormatter.appendQuoted(query, to: &b)
        b.append(0x2C)
        StatsFormatter.appendQuoted(bytes: place.id, to: &b)
        b.append(0x2C)
        StatsFormatter.appendQuoted(bytes: place.name, to: &b)
        b.append(0x2C)
        appendPosition(place.coordinate, distance: distance, into: &b) { appendBearing(bearing, to: &$0) }
        StatsFormatter.appendQuoted(bytes: place.street, to: &b)
        b.append(0x2C)
        StatsFormatter.appendQuoted(bytes: place.city, to: &b)
        b.append(0x2C)
        StatsFormatter.appendQuoted(bytes: place.postcode, to: &b)
        b.append(",,,false\n")
    }

    static func alongCSV(_ found: [ClubroomIndex.AlongTrack], label: String, into b: inout ByteBuffer) {
        b.append(
            "query,id,name,latitude,longitude,distance_m,along_m,street,city,postcode,units,meetings,water_scouts\n")
        for m in found {
            csvRow(label, m.clubroom, distance: m.distanceMeters, into: &b) { b in
                DecimalText.append(m.alongMeters, precision: 3, to: &b)
            }
        }
    }

    /// One CSV row: query, id, name, position, distance, the caller's own columns, address, units, meetings, water.
    @inline(__always)
    static func csvRow(
        _ query: String, _ room: borrowing Clubroom, distance: Double, into b: inout ByteBuffer,
        middle: (inout ByteBuffer) -> Void
    ) {
        StatsFormatter.appendQuoted(query, to: &b)
        b.append(0x2C)
        StatsFormatter.appendQuoted(room.id, to: &b)
        b.append(0x2C)
        StatsFormatter.appendQuoted(room.name, to: &b)
        b.append(0x2C)
        appendPosition(room.coordinate, distance: distance, into: &b, middle: middle)
        if let street = room.street { StatsFormatter.appendQuoted(street, to: &b) }
        b.append(0x2C)
        if let city = room.city { StatsFormatter.appendQuoted(city, to: &b) }
        b.append(0x2C)
        if let postcode = room.postcode { StatsFormatter.appendQuoted(postcode, to: &b) }
        b.append(0x2C)
        if !room.units.isEmpty {
            StatsFormatter.appendQuoted(
                room.units.map { u in u.name + (u.registrationNumber.map { " (\($0))" } ?? "") }.joined(
                    separator: "; "),
                to: &b)
        }
        b.append(0x2C)
        if !room.meetings.isEmpty { StatsFormatter.appendQuoted(meetings(room), to: &b) }
        b.append(string: room.isWater ? ",true\n" : ",false\n")
    }
}
