import RouteKit

/// The three forms of `routekit stats` output.
enum StatsFormatter {
    typealias Row = (file: String, stats: TrackStatistics)

    // MARK: JSON

    static func json(
        files: [String], _ rows: [Row], total: TrackStatistics, dem: DEMUse? = nil, into b: inout ByteBuffer
    ) {
        b.append("{\"files\":[")
        for (i, f) in files.enumerated() {
            if i > 0 { b.append(0x2C) }
            JSONText.appendString(f, to: &b)
        }
        b.append("],\n")
        if let dem {
            b.append("\"elevations\":{\"source\":\"dem\",\"dem\":")
            JSONText.appendString(dem.model.path, to: &b)
            b.append(
                string: ",\"mode\":\"\(dem.mode.rawValue)\",\"points_from_dem\":\(dem.tally.fromModel),"
                    + "\"points_not_covered\":\(dem.tally.notCovered)},\n")
        }
        b.append("\"tracks\":[")
        for (i, row) in rows.enumerated() {
            b.append(i > 0 ? ",\n" : "\n")
            b.append("{\"file\":")
            JSONText.appendString(row.file, to: &b)
            b.append(",\"name\":")
            if let name = row.stats.name { JSONText.appendString(name, to: &b) } else { b.append("null") }
            summary(row.stats, &b)
            b.append(",\"climbs\":[")
            for (k, climb) in row.stats.climbs.enumerated() {
                if k > 0 { b.append(0x2C) }
                ClimbsFormatter.properties(climb, into: &b)
            }
            b.append("]}")
        }
        b.append("],\n\"total\":{")
        summary(total, &b, leadingComma: false)
        b.append("}}\n")
    }

    private static func summary(_ s: TrackStatistics, _ b: inout ByteBuffer, leadingComma: Bool = true) {
        var first = !leadingComma
        for (key, value) in fields(s) {
            if first { first = false } else { b.append(0x2C) }
            b.append(0x22)
            b.append(string: key)
            b.append("\":")
            value.json(&b)
        }
    }

    /// A value of a summary field.
    enum Value {
        case number(Double?)
        case integer(Int)
        case time(Timestamp?)
        case bounds(Bounds?)

        func json(_ b: inout ByteBuffer) {
            switch self {
            case .number(let v): if let v { DecimalText.append(v, precision: 3, to: &b) } else { b.append("null") }
            case .integer(let v): DecimalText.appendInteger(Int64(v), to: &b)
            case .time(let t):
                if let t {
                    b.append(0x22)
                    t.append(to: &b)
                    b.append(0x22)
                } else {
                    b.append("null")
                }
            case .bounds(let box):
                guard let box else { return b.append("null") }
                b.append(0x5B)
                for (i, v) in [box.west, box.south, box.east, box.north].enumerated() {
                    if i > 0 { b.append(0x2C) }
                    DecimalText.append(v, precision: 7, to: &b)
                }
                b.append(0x5D)
            }
        }

        var csv: String {
            var b = ByteBuffer(capacity: 64)
            switch self {
            case .number(nil), .time(nil), .bounds(nil): return ""
            case .time(let t?): t.append(to: &b)
            case .bounds:
                json(&b)
                return "\"" + b.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } + "\""
            default: json(&b)
            }
            return b.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        }
    }

    static func fields(_ s: TrackStatistics) -> [(String, Value)] {
        [
            ("points", .integer(s.points)), ("segments", .integer(s.segments)),
            ("length_2d_m", .number(s.length2DMeters)), ("length_3d_m", .number(s.length3DMeters)),
            ("ascent_m", .number(s.ascent?.ascentMeters)), ("descent_m", .number(s.ascent?.descentMeters)),
            ("elevation_noise_m", .number(s.ascent?.noiseMeters)),
            ("min_elevation_m", .number(s.minElevationMeters)), ("max_elevation_m", .number(s.maxElevationMeters)),
            ("start_time", .time(s.startTime)), ("end_time", .time(s.endTime)),
            ("duration_s", .number(s.durationSeconds)), ("moving_time_s", .number(s.movingTimeSeconds)),
            ("average_speed_mps", .number(s.averageSpeedMetersPerSecond)),
            ("max_speed_mps", .number(s.maxSpeedMetersPerSecond)),
            ("steepest_climb_pct", .number(s.steepestClimbPercent)),
            ("steepest_descent_pct", .number(s.steepestDescentPercent)),
            ("bounds", .bounds(s.bounds)),
            ("elevation_jumps", .integer(s.ascent?.elevationJumps.count ?? 0)),
            ("elevation_settlings", .integer(s.ascent?.elevationSettlings.count ?? 0)),
        ]
    }

    /// The CSV's columns for the climbs: how many, and the hardest category.
    private static func climbCells(_ climbs: [Climb]) -> [String] {
        [String(climbs.count), climbs.compactMap(\.category).min()?.rawValue ?? ""]
    }

    // MARK: CSV

    static func csv(_ rows: [Row], total: TrackStatistics, into b: inout ByteBuffer) {
        let names = ["file", "name"] + fields(total).map(\.0) + ["climbs", "hardest_climb"]
        b.append(string: names.joined(separator: ",") + "\n")
        for row in rows + [(file: "", stats: total)] {
            var cells = [quote(row.file), quote(row.file.isEmpty ? "total" : row.stats.name ?? "")]
            cells += fields(row.stats).map { $0.1.csv }
            cells += climbCells(row.file.isEmpty ? rows.flatMap(\.stats.climbs) : row.stats.climbs)
            b.append(string: cells.joined(separator: ",") + "\n")
        }
    }

    static func quote(_ text: String) -> String {
        guard needsQuotes(text) else { return text }
        return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
    }

    /// A CSV field as ``quote(_:)`` writes it, appended without a string in between.
    static func appendQuoted(_ text: String, to b: inout ByteBuffer) {
        var text = text
        text.withUTF8 { appendQuoted(bytes: $0, to: &b) }
    }

    /// The same for a value's UTF-8 bytes.
    static func appendQuoted(bytes: UnsafeBufferPointer<UInt8>, to b: inout ByteBuffer) {
        guard needsQuotes(bytes) else { return b.append(contentsOf: bytes) }
        b.append(0x22)
        for c in bytes {
            if c == 0x22 { b.append(0x22) }
            b.append(c)
        }
        b.append(0x22)
    }

    /// True when a CSV field must be quoted: it holds a comma, a quote or a line break. (By bytes: "\r\n" is
    /// one Character, equal to neither "\r" nor "\n".)
    private static func needsQuotes(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(needsQuotes)
    }

    private static func needsQuotes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
    }

    // MARK: Table

    /// The table, with a footer on how the numbers were made; `exact` when the ascent was counted with the settings
    /// for exact elevations (a DEM, `--smoothing 0 --threshold 0` or `--noise 0`), `noiseGiven` when the noise was
    /// given (`--noise`) rather than estimated.
    static func table(
        _ rows: [Row], total: TrackStatistics, dem: DEMUse? = nil, exact: Bool = false, noiseGiven: Bool = false,
        into b: inout ByteBuffer
    ) {
        let header = [
            "Track", "Points", "Length", "Ascent", "Descent", "Elevation", "Duration", "Moving",
            "Avg km/h", "Max km/h", "Climb", "Descent",
        ]
        var lines: [[String]] = [header]
        for row in rows {
            lines.append(cells(row.stats.name ?? "(unnamed, \(row.file))", row.stats))
        }
        if rows.count > 1 { lines.append(cells("Total", total)) }
        var widths = [Int](repeating: 0, count: header.count)
        for line in lines { for (i, cell) in line.enumerated() { widths[i] = max(widths[i], cell.count) } }
        widths[0] = min(widths[0], 40)
        for (n, line) in lines.enumerated() {
            var text = ""
            for (i, cell) in line.enumerated() {
                let shown = cell.count > widths[i] ? String(cell.prefix(widths[i] - 1)) + "…" : cell
                let pad = String(repeating: " ", count: widths[i] - shown.count)
                text += i == 0 ? shown + pad : "  " + pad + shown
            }
            b.append(string: text + "\n")
            if n == 0 || (n == lines.count - 2 && rows.count > 1) {
                b.append(string: String(repeating: "─", count: widths.reduce(0, +) + 2 * (widths.count - 1)) + "\n")
            }
        }
        for row in rows where !row.stats.climbs.isEmpty {
            b.append(string: "\nClimbs of \(row.stats.name ?? row.file):\n")
            ClimbsFormatter.lines(row.stats.climbs, into: &b)
        }
        if let a = rows.max(by: { $0.stats.points < $1.stats.points })?.stats.ascent {
            let noise =
                "elevation noise \(noiseGiven ? "given as" : "estimated at") ±"
                + "\(DecimalText.fixed(a.noiseMeters, decimals: 2)) m"
            // Exact elevations (a DEM, --smoothing 0 --threshold 0 or --noise 0): nothing smoothed or ignored.
            let counting =
                exact && a.smoothingMeters == 0 && a.thresholdMeters == 0
                ? "every rise counted, as for exact elevations; \(noise)"
                : "\(noise); smoothed over \(DecimalText.fixed(a.smoothingMeters, decimals: 0)) m, rises under "
                    + "\(DecimalText.fixed(a.thresholdMeters, decimals: 2)) m ignored"
            b.append(
                string: "\nAscent: \(counting) (the longest track's values).\nMoving: between fixes at 0.5 m/s or "
                    + "more. Max speed: over 10 s or more. Grades: over 100 m or more.\n")
        }
        if let dem {
            let kept =
                dem.tally.notCovered == 0 ? "" : "; \(DecimalText.grouped(dem.tally.notCovered)) off it kept their own"
            b.append(
                string: "Elevations: from the DEM \(dem.model.path) (\(dem.mode.rawValue): "
                    + "\(DecimalText.grouped(dem.tally.fromModel)) points\(kept)).\n")
        }
    }

    static func cells(_ name: String, _ s: TrackStatistics) -> [String] {
        func metres(_ v: Double?) -> String { v.map { DecimalText.grouped($0) + " m" } ?? "–" }
        let elevation =
            s.minElevationMeters.flatMap { lo in
                s.maxElevationMeters.map { hi in "\(DecimalText.grouped(lo))–\(DecimalText.grouped(hi)) m" }
            } ?? "–"
        return [
            name, DecimalText.grouped(s.points), DecimalText.fixed(s.length2DMeters / 1000, decimals: 2) + " km",
            metres(s.ascent?.ascentMeters),
            metres(s.ascent?.descentMeters), elevation, clock(s.durationSeconds), clock(s.movingTimeSeconds),
            s.averageSpeedMetersPerSecond.map { DecimalText.fixed($0 * 3.6, decimals: 1) } ?? "–",
            s.maxSpeedMetersPerSecond.map { DecimalText.fixed($0 * 3.6, decimals: 1) } ?? "–",
            s.steepestClimbPercent.map { DecimalText.fixed($0, decimals: 1) + " %" } ?? "–",
            s.steepestDescentPercent.map { DecimalText.fixed($0, decimals: 1) + " %" } ?? "–",
        ]
    }

    /// h:mm:ss.
    static func clock(_ seconds: Double?) -> String {
        guard let seconds else { return "–" }
        let s = Int(seconds.rounded())
        let m = (s / 60) % 60
        let sec = s % 60
        return "\(s / 3600):\(m < 10 ? "0" : "")\(m):\(sec < 10 ? "0" : "")\(sec)"
    }
}

extension String {
    /// The string with every `target` replaced by `replacement`.
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
