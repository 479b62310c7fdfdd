import RouteKit

/// Positions as users type or paste them: `49.1951,16.6068`, `49.1951, 16.6068`, `49.1951 16.6068`, and
/// degrees, minutes and seconds with hemispheres, `49°11'42"N 16°36'24"E` (also `N 49° 11.7' E 16° 36.4'`).
enum PositionText {
    static func parse(_ text: String) -> Coordinate? {
        if let (lat, lon) = decimalPair(text) {
            let c = Coordinate(latitude: lat, longitude: lon)
            return c.isValid ? c : nil
        }
        return parseSexagesimal(text.trimmingSpaces())
    }

    /// Two decimal numbers separated by a comma, a semicolon or white space, whatever their range.
    private static func decimalPair(_ text: String) -> (Double, Double)? {
        let parts = text.trimmingSpaces().split(whereSeparator: { $0 == "," || $0 == " " || $0 == ";" || $0 == "\t" })
        guard parts.count == 2, let lat = DecimalText.parse(parts[0]), let lon = DecimalText.parse(parts[1]) else {
            return nil
        }
        return (lat, lon)
    }

    /// Why `text` is not a position, for a message: a latitude or longitude out of range, or the forms accepted.
    static func problem(_ text: String) -> String {
        if let (lat, lon) = decimalPair(text) {
            if !(-90...90).contains(lat) {
                return
                    "latitude \(DecimalText.string(lat)) is outside -90…90 (latitude comes first), in '\(shown(text))'"
            }
            if !(-180...180).contains(lon) {
                return "longitude \(DecimalText.string(lon)) is outside -180…180, in '\(shown(text))'"
            }
        }
        return "a position like 49.1951,16.6068 or 49°11'42\"N 16°36'24\"E is needed, not '\(shown(text))'"
    }

    /// At most 60 characters of what the user gave, for a message.
    static func shown(_ text: String) -> String {
        text.count > 60 ? String(text.prefix(60)) + "…" : text
    }

    /// Degrees with optional minutes and seconds, each angle marked N/S or E/W (before or after it).
    static func parseSexagesimal(_ text: String) -> Coordinate? {
        var reader = SexagesimalReader()
        for ch in text.uppercased() {
            guard reader.read(ch) else { return nil }
        }
        return reader.finish()
    }
}

/// The state of reading `49°11'42"N 16°36'24"E` (or `N 49° 11.707' E 16° 36.408'`) character by character.
private struct SexagesimalReader {
    private var numbers: [Double] = []
    private var latitude: Double?
    private var longitude: Double?
    private var pendingHemisphere: Character?
    private var token = ""

    /// Takes one character (upper case); false when the text cannot be a position.
    mutating func read(_ ch: Character) -> Bool {
        if ch.isNumber || ch == "." {
            token.append(ch)
            return true
        }
        guard flushNumber() else { return false }
        if "NSEW".contains(ch) {
            if let h = pendingHemisphere, !numbers.isEmpty {
                // Letters written before their angles: this one starts the next angle.
                guard close(h) else { return false }
                pendingHemisphere = ch
            } else if numbers.isEmpty {
                pendingHemisphere = ch
            } else {
                return close(ch)  // written after the angle
            }
        } else if "°'′\"″ ,;".contains(ch) || ch == "\u{2019}" || ch == "\u{201D}" {
            if let h = pendingHemisphere, !numbers.isEmpty, ch == "," || ch == ";" {
                guard close(h) else { return false }
                pendingHemisphere = nil
            }
        } else {
            return false
        }
        return true
    }

    /// The position read, when both angles were read and it is a valid one.
    mutating func finish() -> Coordinate? {
        guard flushNumber() else { return nil }
        if let h = pendingHemisphere, !numbers.isEmpty { guard close(h) else { return nil } }
        guard let lat = latitude, let lon = longitude, numbers.isEmpty else { return nil }
        let c = Coordinate(latitude: lat, longitude: lon)
        return c.isValid ? c : nil
    }

    private mutating func flushNumber() -> Bool {
        guard !token.isEmpty else { return true }
        defer { token = "" }
        guard let v = DecimalText.parse(token), numbers.count < 3 else { return false }
        numbers.append(v)
        return true
    }

    /// Ends an angle: its degrees, minutes and seconds with its hemisphere.
    private mutating func close(_ hemisphere: Character) -> Bool {
        guard let degrees = numbers.first else { return false }
        let minutes = numbers.count > 1 ? numbers[1] : 0
        let seconds = numbers.count > 2 ? numbers[2] : 0
        guard minutes >= 0, minutes < 60, seconds >= 0, seconds < 60, degrees >= 0 else { return false }
        let value = degrees + minutes / 60 + seconds / 3600
        numbers = []
        switch hemisphere {
        case "N", "S":
            guard latitude == nil else { return false }
            latitude = hemisphere == "S" ? -value : value
        default:
            guard longitude == nil else { return false }
            longitude = hemisphere == "W" ? -value : value
        }
        return true
    }
}
