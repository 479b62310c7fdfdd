/// One row of a clubroom table: how a ``Clubroom`` is written to it (a line of `COPY` text) and read back
/// from it (the text values of a query), so that what comes back equals what went in.
///
/// Units and meetings are JSONB: `units` is `[{"id", "name", "registration_number", "water",
/// "advertising_note"}]`, `meetings` is `[{"id", "unit": {…as units…}, "weekday" (ISO 1–7), "weekday_name",
/// "time_from", "time_to", "periodicity", "categories": [{"id", "age_from", "age_to", "sex" (`male`,
/// `female`, `mixed`), "sex_name", "note"}]}]`; a member that the catalog does not give is left out.
/// A row is outside data: whatever it holds, reading it gives a clubroom or a ``DatabaseError/badRow``.
public enum ClubroomRow {
    /// The columns a query reads, in order (the position as latitude and longitude).
    static let selectList =
        "id, seq, name, type, street, city, postcode, description, note, occupation_note, units::text, "
        + "meetings::text, ST_Y(location::geometry), ST_X(location::geometry)"

    /// The columns `COPY` writes, in order.
    static let copyList =
        "id, seq, name, type, street, city, postcode, description, note, occupation_note, units, meetings, location"

    /// Appends the clubroom as one line of `COPY` text (tab-separated, `\N` for NULL, ending in a newline).
    static func appendCopyLine(_ room: Clubroom, seq: Int, to buffer: inout ByteBuffer) {
        CopyText.appendField(room.id, to: &buffer)
        buffer.append(0x09)
        DecimalText.appendInteger(Int64(seq), to: &buffer)
        for text in [
            room.name, room.type, room.street, room.city, room.postcode, room.description, room.note,
            room.occupationNote,
        ] {
            buffer.append(0x09)
            CopyText.appendField(text, to: &buffer)
        }
        var json = ByteBuffer(capacity: 512)
        appendUnits(room.units, to: &json)
        buffer.append(0x09)
        CopyText.appendBytes(json, to: &buffer)
        json.removeAll()
        appendMeetings(room.meetings, to: &json)
        buffer.append(0x09)
        CopyText.appendBytes(json, to: &buffer)
        buffer.append("\tSRID=4326;POINT(")
        DecimalText.append(room.coordinate.longitude, to: &buffer)
        buffer.append(0x20)
        DecimalText.append(room.coordinate.latitude, to: &buffer)
        buffer.append(")\n")
    }

    /// Reads one row of a query over ``selectList``: its position in the catalog and the clubroom.
    ///
    /// - Parameter fields: the row's 14 values as text, nil for NULL.
    /// - Throws: ``DatabaseError/badRow(table:key:reason:)`` for a row that is not a clubroom: a missing
    ///   key, name or position, a position out of range, units or meetings that are not the JSON above.
    public static func decode(_ fields: [String?], table: String) throws -> (seq: Int64, clubroom: Clubroom) {
        let key = fields.first.flatMap { $0 }.map { String($0.prefix(80)) } ?? "?"
        func bad(_ reason: String) -> DatabaseError { .badRow(table: table, key: key, reason: reason) }
        guard fields.count == 14 else { throw bad("\(fields.count) columns, not 14") }
        guard let id = fields[0], let seqText = fields[1], let seq = Int64(seqText), let name = fields[2] else {
            throw bad("no id, seq or name")
        }
        guard let latText = fields[12], let lonText = fields[13], let lat = DecimalText.parse(latText),
            let lon = DecimalText.parse(lonText), Coordinate(latitude: lat, longitude: lon).isValid
        else {
            throw bad("no usable position")
        }
        var room = Clubroom(id: id, name: name, coordinate: Coordinate(latitude: lat, longitude: lon))
        room.type = fields[3]
        room.street = fields[4]
        room.city = fields[5]
        room.postcode = fields[6]
        room.description = fields[7]
        room.note = fields[8]
        room.occupationNote = fields[9]
        do {
            room.units = try array(fields[10], "units").map(unit)
            room.meetings = try array(fields[11], "meetings").map(meeting)
        } catch let reason as RowProblem {
            throw bad(reason.text)
        }
        return (seq, room)
    }

    // MARK: - JSON out

    private static func appendUnits(_ units: [ScoutUnit], to buffer: inout ByteBuffer) {
        buffer.append(0x5B)
        for (i, unit) in units.enumerated() {
            if i > 0 { buffer.append(0x2C) }
            appendUnit(unit, to: &buffer)
        }
        buffer.append(0x5D)
    }

    private static func appendUnit(_ unit: ScoutUnit, to buffer: inout ByteBuffer) {
        var object = JSONObjectWriter(&buffer)
        object.string("id", unit.id, &buffer)
        object.string("name", unit.name, &buffer)
        object.string("registration_number", unit.registrationNumber, &buffer)
        object.bool("water", unit.isWater, &buffer)
        object.string("advertising_note", unit.advertisingNote, &buffer)
        object.finish(&buffer)
    }

    private static func appendMeetings(_ meetings: [Meeting], to buffer: inout ByteBuffer) {
        buffer.append(0x5B)
        for (i, meeting) in meetings.enumerated() {
            if i > 0 { buffer.append(0x2C) }
            var object = JSONObjectWriter(&buffer)
            object.string("id", meeting.id, &buffer)
            if let unit = meeting.unit {
                object.key("unit", &buffer)
                appendUnit(unit, to: &buffer)
            }
            object.integer("weekday", meeting.weekday?.rawValue, &buffer)
            object.string("weekday_name", meeting.weekdayName, &buffer)
            object.string("time_from", meeting.timeFrom?.description, &buffer)
            object.string("time_to", meeting.timeTo?.description, &buffer)
            object.string("periodicity", meeting.periodicity, &buffer)
            if !meeting.categories.isEmpty {
                object.key("categories", &buffer)
                buffer.append(0x5B)
                for (j, category) in meeting.categories.enumerated() {
                    if j > 0 { buffer.append(0x2C) }
                    var c = JSONObjectWriter(&buffer)
                    c.string("id", category.id, &buffer)
                    c.integer("age_from", category.ageFrom, &buffer)
                    c.integer("age_to", category.ageTo, &buffer)
                    c.string("sex", category.sex?.code, &buffer)
                    c.string("sex_name", category.sexName, &buffer)
                    c.string("note", category.note, &buffer)
                    c.finish(&buffer)
                }
                buffer.append(0x5D)
            }
            object.finish(&buffer)
        }
        buffer.append(0x5D)
    }

    // MARK: - JSON in

    private struct RowProblem: Error {
        var text: String
    }

    private static func array(_ text: String?, _ column: String) throws -> [JSONValue] {
        guard let text else { return [] }
        let value: JSONValue
        do {
            value = try JSONValue.read(InputFile(name: column, bytes: Array(text.utf8)))
        } catch {
            throw RowProblem(text: "\(column) is not JSON: \(error)")
        }
        guard let elements = value.elements else { throw RowProblem(text: "\(column) is not a JSON array") }
        return elements
    }

    private static func unit(_ value: JSONValue) throws -> ScoutUnit {
        guard case .object = value, let name = try string(value, "name") else {
            throw RowProblem(text: "a unit without a name")
        }
        return ScoutUnit(
            id: try string(value, "id"), name: name, registrationNumber: try string(value, "registration_number"),
            isWater: try bool(value, "water"), advertisingNote: try string(value, "advertising_note"))
    }

    private static func meeting(_ value: JSONValue) throws -> Meeting {
        guard case .object = value else { throw RowProblem(text: "a meeting that is not a JSON object") }
        var weekday: Weekday?
        if let number = try integer(value, "weekday") {
            guard let day = Weekday(rawValue: number) else { throw RowProblem(text: "weekday \(number) is not 1–7") }
            weekday = day
        }
        let unit = try value["unit"].flatMap { $0.isNull ? nil : try self.unit($0) }
        var categories: [AdvertisingCategory] = []
        if let list = value["categories"], !list.isNull {
            guard let elements = list.elements else { throw RowProblem(text: "categories is not a JSON array") }
            categories = try elements.map { c in
                guard case .object = c else { throw RowProblem(text: "a category that is not a JSON object") }
                return AdvertisingCategory(
                    id: try string(c, "id"), ageFrom: try integer(c, "age_from"), ageTo: try integer(c, "age_to"),
                    sex: try string(c, "sex").map(Sex.init(code:)), sexName: try string(c, "sex_name"),
                    note: try string(c, "note"))
            }
        }
        return Meeting(
            id: try string(value, "id"), unit: unit, weekday: weekday, weekdayName: try string(value, "weekday_name"),
            timeFrom: try string(value, "time_from").map(MeetingTime.init),
            timeTo: try string(value, "time_to").map(MeetingTime.init), periodicity: try string(value, "periodicity"),
            categories: categories)
    }

    private static func string(_ object: JSONValue, _ key: String) throws -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let text = value.string else { throw RowProblem(text: "\(key) is not a string") }
        return text
    }

    private static func integer(_ object: JSONValue, _ key: String) throws -> Int? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let number = value.number, number == number.rounded(), abs(number) <= 1e9 else {
            throw RowProblem(text: "\(key) is not a whole number")
        }
        return Int(number)
    }

    private static func bool(_ object: JSONValue, _ key: String) throws -> Bool? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .bool(let flag) = value else { throw RowProblem(text: "\(key) is not true or false") }
        return flag
    }
}

/// Writes one JSON object's members into a buffer, leaving out those without a value.
struct JSONObjectWriter {
    private var first = true

    /// Starts the object.
    init(_ buffer: inout ByteBuffer) { buffer.append(0x7B) }

    mutating func key(_ key: String, _ buffer: inout ByteBuffer) {
        if !first { buffer.append(0x2C) }
        first = false
        JSONText.appendString(key, to: &buffer)
        buffer.append(0x3A)
    }

    mutating func string(_ key: String, _ value: String?, _ buffer: inout ByteBuffer) {
        guard let value else { return }
        self.key(key, &buffer)
        JSONText.appendString(value, to: &buffer)
    }

    mutating func integer(_ key: String, _ value: Int?, _ buffer: inout ByteBuffer) {
        guard let value else { return }
        self.key(key, &buffer)
        DecimalText.appendInteger(Int64(value), to: &buffer)
    }

    mutating func bool(_ key: String, _ value: Bool?, _ buffer: inout ByteBuffer) {
        guard let value else { return }
        self.key(key, &buffer)
        buffer.append(value ? "true" : "false")
    }

    /// Ends the object.
    func finish(_ buffer: inout ByteBuffer) { buffer.append(0x7D) }
}

/// PostgreSQL's `COPY` text format: fields separated by tabs, `\N` for NULL, and backslash, tab, newline and
/// carriage return escaped.
enum CopyText {
    static func appendField(_ text: String?, to buffer: inout ByteBuffer) {
        guard var text else {
            buffer.append("\\N")
            return
        }
        text.withUTF8 { appendEscaped($0, to: &buffer) }
    }

    static func appendBytes(_ bytes: borrowing ByteBuffer, to buffer: inout ByteBuffer) {
        bytes.withUnsafeBytes { raw in appendEscaped(raw.assumingMemoryBound(to: UInt8.self), to: &buffer) }
    }

    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout ByteBuffer) {
        var runStart = 0
        for (i, c) in bytes.enumerated() where c == 0x5C || c == 0x09 || c == 0x0A || c == 0x0D {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
            runStart = i + 1
            switch c {
            case 0x5C: buffer.append("\\\\")
            case 0x09: buffer.append("\\t")
            case 0x0A: buffer.append("\\n")
            default: buffer.append("\\r")
            }
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }
}
