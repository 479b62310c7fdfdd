import RouteKit

/// Readers of option values for the option tables: each takes the text and the option's name (for its
/// message) and returns the value or throws a usage error the user can act on.
enum OptionValues {
    /// Metres from 0 to 10,000, with or without `m`: `5`, `5m`.
    static func metres(_ text: String, _ option: String) throws -> Double {
        var t = text.lowercased()
        if t.hasSuffix("m") { t.removeLast() }
        guard let value = DecimalText.parse(t), value >= 0, value <= 10_000 else {
            throw CLIError.usage("\(option) takes metres from 0 to 10000, for example 5 or 5m, not '\(text)'")
        }
        return value
    }

    /// Elevation noise known beforehand, in metres: `SIGMA` (white noise), `SIGMA,CORR` (noise correlated over CORR
    /// metres) or `SIGMA,CORR,WHITE` (with white noise beside it), each from 0 to 10,000, with or without `m`. A
    /// correlation length of 0 is white noise; a correlated SIGMA of 0 is refused (`0,3` is a decimal comma, not
    /// noise).
    static func noise(_ text: String, _ option: String) throws -> ElevationNoise {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            try? metres(String($0).trimmingSpaces(), option)
        }
        let v = parts.compactMap { $0 }
        guard (1...3).contains(parts.count), v.count == parts.count else {
            throw CLIError.usage(
                "\(option) takes SIGMA (white noise), SIGMA,CORR (noise correlated over CORR metres) or "
                    + "SIGMA,CORR,WHITE, metres from 0 to 10000, for example 0.3 or 4,30, not '\(text)'")
        }
        guard v.count == 1 || v[0] > 0 else {
            throw CLIError.usage(
                "\(option) \(text): a correlated noise of 0 m is no noise; for a decimal, use a point: 0.3, not 0,3")
        }
        guard v.count > 1 else { return ElevationNoise(whiteMeters: v[0]) }
        return ElevationNoise(
            whiteMeters: v.count == 3 ? v[2] : 0, correlatedMeters: v[0], correlationLengthMeters: v[1])
    }

    /// Whole pixels within `range`.
    static func pixels(_ range: ClosedRange<Double>) -> (String, String) throws -> Double {
        { text, option in
            guard let v = Double(text), range.contains(v), v == v.rounded() else {
                throw CLIError.usage(
                    "\(option) takes whole pixels from \(Int(range.lowerBound)) to \(Int(range.upperBound)), not "
                        + "'\(text)'"
                )
            }
            return v
        }
    }

    /// The format the extension of an output file names (`-o climbs.geojson`: geojson), among `T`'s raw values, in
    /// any case; nil for standard output, a file without an extension, or an extension that names no format (`.txt`).
    /// An extension that names a format `T` does not have (`-o profile.geojson`) is a usage error: RouteKit never
    /// writes one format under another's name unless --format says so.
    static func format<T: RawRepresentable<String>>(_: T.Type, ofOutput path: String?, command: String) throws -> T? {
        guard let path, path != "-", let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let named = path[path.index(after: dot)...].lowercased()
        if let format = T(rawValue: named) { return format }
        guard formatExtensions.contains(named) else { return nil }
        throw CLIError.usage(
            "\(command) does not write .\(named) (-o \(path)); give another name, or --format to say what to write")
    }

    /// Extensions that name a file format, which an output of another format must not carry.
    static let formatExtensions: Set<String> = [
        "csv", "geojson", "geojsonseq", "gpx", "html", "jpeg", "jpg", "json", "kml", "kmz", "ndjson", "pdf", "png",
        "svg", "tcx", "xml", "zip",
    ]

    /// One of an enumeration's raw values, in any case; `message` says which ones.
    static func choice<T: RawRepresentable<String>>(_: T.Type, message: String) -> (String, String) throws -> T {
        { text, option in
            guard let value = T(rawValue: text.lowercased()) else {
                throw CLIError.usage("\(option) \(message), not '\(text)'")
            }
            return value
        }
    }
}

/// Lengths on the command line always carry a unit: a bare number is ambiguous (metres? miles?).
enum Units {
    /// Metres from text like `200m`, `1.5km`, `60 km`.
    static func length(_ text: String, option: String) throws -> Double {
        let t = text.lowercased().trimmingSpaces()
        var number = t
        var factor = 1.0
        if t.hasSuffix("km") {
            number = String(t.dropLast(2))
            factor = 1000
        } else if t.hasSuffix("m") {
            number = String(t.dropLast(1))
        } else {
            throw CLIError.usage(
                "\(option) needs a unit, for example 200m or 1.5km (a bare number could be read as miles)")
        }
        guard let value = DecimalText.parse(number), value > 0 else {
            throw CLIError.usage("\(option) must be a positive length, for example 200m or 1.5km, not '\(text)'")
        }
        // No two places on the Earth are farther apart than about 20,004 km.
        guard value * factor <= 20_000_000 else {
            throw CLIError.usage(
                "\(option) can be at most 20000km (the distance to the other side of the Earth), not '\(text)'")
        }
        return value * factor
    }
}
