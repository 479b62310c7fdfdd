import RouteKit

/// `routekit climbs` output: a table for people, JSON, CSV and GeoJSON (each climb a LineString).
enum ClimbsFormatter {
    private static func number(_ value: Double, _ decimals: Int = 1) -> String {
        DecimalText.compact(value, decimals: decimals)
    }

    /// The climbs as a table with a header line, then one line each.
    static func table(_ climbs: [Climb], name: String, into b: inout ByteBuffer) {
        guard !climbs.isEmpty else {
            b.append(string: "\(name): no climb of at least 500 m at 3 % or more.\n")
            return
        }
        b.append(string: "\(name): \(climbs.count) climb\(climbs.count == 1 ? "" : "s")\n")
        lines(climbs, into: &b)
    }

    /// The table's lines, without the name.
    static func lines(_ climbs: [Climb], into b: inout ByteBuffer) {
        let header = ["#", "From km", "To km", "Length", "Gain", "Average", "Steepest", "Top", "Category", "FIETS"]
        var lines = [header]
        for (k, c) in climbs.enumerated() {
            lines.append([
                "\(k + 1)", DecimalText.fixed(c.startMeters / 1000, decimals: 1),
                DecimalText.fixed(c.endMeters / 1000, decimals: 1),
                DecimalText.fixed(c.lengthMeters / 1000, decimals: 2) + " km", DecimalText.grouped(c.gainMeters) + " m",
                DecimalText.fixed(c.averageGradePercent, decimals: 1) + " %",
                DecimalText.fixed(c.maxGradePercent, decimals: 1) + " %",
                DecimalText.grouped(c.topElevationMeters) + " m",
                c.category.map { $0 == .hc ? "HC" : "Cat \($0.rawValue)" } ?? "–",
                DecimalText.fixed(c.fiets, decimals: 2),
            ])
        }
        var widths = [Int](repeating: 0, count: header.count)
        for line in lines { for (i, cell) in line.enumerated() { widths[i] = max(widths[i], cell.count) } }
        for (n, line) in lines.enumerated() {
            let cells = line.enumerated().map { i, cell in String(repeating: " ", count: widths[i] - cell.count) + cell
            }
            b.append(string: cells.joined(separator: "  ") + "\n")
            if n == 0 {
                b.append(string: String(repeating: "─", count: widths.reduce(0, +) + 2 * (widths.count - 1)) + "\n")
            }
        }
    }

    /// `{"name", "climbs": [{start_m, end_m, length_m, gain_m, average_grade_pct, max_grade_pct,
    /// top_elevation_m, start, top, score, category, fiets}]}`; `start` and `top` are `[lon, lat]`.
    static func json(_ climbs: [Climb], name: String?, into b: inout ByteBuffer) {
        b.append("{\"name\":")
        if let name { JSONText.appendString(name, to: &b) } else { b.append("null") }
        b.append(",\"climbs\":[")
        for (k, c) in climbs.enumerated() {
            b.append(k > 0 ? ",\n" : "\n")
            properties(c, into: &b)
        }
        b.append("]}\n")
    }

    /// One climb's numbers as a JSON object.
    static func properties(_ c: Climb, into b: inout ByteBuffer) {
        func position(_ p: Coordinate?) -> String {
            p.map {
                "[\(DecimalText.compact($0.longitude, decimals: 7)),\(DecimalText.compact($0.latitude, decimals: 7))]"
            }
                ?? "null"
        }
        b.append(
            string: "{\"start_m\":\(number(c.startMeters)),\"end_m\":\(number(c.endMeters)),"
                + "\"length_m\":\(number(c.lengthMeters)),\"gain_m\":\(number(c.gainMeters)),"
                + "\"average_grade_pct\":\(number(c.averageGradePercent, 2)),"
                + "\"max_grade_pct\":\(number(c.maxGradePercent, 2)),"
                + "\"top_elevation_m\":\(number(c.topElevationMeters)),\"start\":\(position(c.start)),"
                + "\"top\":\(position(c.top)),\"score\":\(number(c.score, 0)),\"category\":")
        if let category = c.category { JSONText.appendString(category.rawValue, to: &b) } else { b.append("null") }
        b.append(string: ",\"fiets\":\(number(c.fiets, 2))}")
    }

    /// One line a climb.
    static func csv(_ climbs: [Climb], into b: inout ByteBuffer) {
        b.append("start_m,end_m,length_m,gain_m,average_grade_pct,max_grade_pct,top_elevation_m,")
        b.append("start_latitude,start_longitude,top_latitude,top_longitude,score,category,fiets\n")
        for c in climbs {
            let fields = [
                number(c.startMeters), number(c.endMeters), number(c.lengthMeters), number(c.gainMeters),
                number(c.averageGradePercent, 2), number(c.maxGradePercent, 2), number(c.topElevationMeters),
                c.start.map { number($0.latitude, 7) } ?? "", c.start.map { number($0.longitude, 7) } ?? "",
                c.top.map { number($0.latitude, 7) } ?? "", c.top.map { number($0.longitude, 7) } ?? "",
                number(c.score, 0), c.category?.rawValue ?? "", number(c.fiets, 2),
            ]
            b.append(string: fields.joined(separator: ",") + "\n")
        }
    }

    /// A FeatureCollection: each climb a LineString of the track's points from its start to its top, with its
    /// numbers as properties.
    static func geojson(_ climbs: [Climb], profile: ElevationProfile, into b: inout ByteBuffer) {
        b.append("{\"type\":\"FeatureCollection\",\"features\":[")
        for (k, c) in climbs.enumerated() {
            b.append(k > 0 ? ",\n" : "\n")
            b.append("{\"type\":\"Feature\",\"properties\":")
            properties(c, into: &b)
            b.append(",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[")
            let points = profile.positions.filter {
                $0.distanceMeters >= c.startMeters && $0.distanceMeters <= c.endMeters
            }
            for (i, p) in points.enumerated() {
                if i > 0 { b.append(0x2C) }
                b.append(
                    string:
                        "[\(DecimalText.string(p.coordinate.longitude)),\(DecimalText.string(p.coordinate.latitude))]")
            }
            b.append("]}}")
        }
        b.append("]}\n")
    }
}
