/// A time of day to the minute, 00:00 to 24:00 (24:00 is the end of a meeting that lasts until midnight).
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Minutes since midnight, 0…1440.
    public let minutesSinceMidnight: Int

    /// A time from minutes since midnight; nil outside 0…1440.
    public init?(minutesSinceMidnight: Int) {
        guard (0...1440).contains(minutesSinceMidnight) else { return nil }
        self.minutesSinceMidnight = minutesSinceMidnight
    }

    /// A time from hours (0…24) and minutes (0…59); nil when out of range or past 24:00.
    public init?(hours: Int, minutes: Int) {
        guard (0...24).contains(hours), (0...59).contains(minutes) else { return nil }
        self.init(minutesSinceMidnight: hours * 60 + minutes)
    }

    /// Reads a time as catalogs write it, seconds dropped:
    /// - an XML duration, as the SkautIS service sends times: `PT16H30M`, `PT18H`, `PT9H5M`, `PT16H30M0S`,
    ///   `PT990M` (a leading `P0D` is allowed);
    /// - a clock time: `16:30`, `9:05`, `16:30:00`, `16:30:00.000`, with an optional zone (`Z`, `+01:00`),
    ///   which is ignored: meetings are in local time;
    /// - a date and time, as some SkautIS outputs carry a time: `0001-01-01T16:30:00`.
    ///
    /// - Returns: nil for anything else (negative durations, more than 24 hours, numbers of any size,
    ///   garbage): the caller keeps the text as written.
    public init?(parsing text: String) {
        var scanner = TimeScanner(Array(text.utf8))
        scanner.skipSpaces()
        guard let minutes = scanner.duration() ?? scanner.dateTime() ?? scanner.clock() else { return nil }
        scanner.skipSpaces()
        guard scanner.atEnd else { return nil }
        self.init(minutesSinceMidnight: minutes)
    }

    /// `16:30`, `09:05`, `24:00`.
    public var description: String {
        let h = minutesSinceMidnight / 60
        let m = minutesSinceMidnight % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }

    /// Earlier first.
    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.minutesSinceMidnight < b.minutesSinceMidnight }
}

/// A meeting's start or end as the catalog gave it: a time of day when it could be read, else the text
/// as written (never lost, never a crash).
public enum MeetingTime: Hashable, Sendable, CustomStringConvertible {
    /// A time that could be read.
    case time(TimeOfDay)
    /// The text as written, when it could not be read as a time.
    case unreadable(String)

    /// Reads `text` with ``TimeOfDay/init(parsing:)``; what cannot be read is kept as written.
    public init(_ text: String) {
        if let time = TimeOfDay(parsing: text) { self = .time(time) } else { self = .unreadable(text) }
    }

    /// The time of day, when the text could be read.
    public var timeOfDay: TimeOfDay? {
        if case .time(let t) = self { return t }
        return nil
    }

    /// `16:30`, or the text as written.
    public var description: String {
        switch self {
        case .time(let t): t.description
        case .unreadable(let text): text
        }
    }
}

/// Reads the parts of a time over UTF-8 bytes; every number is bounded, so no input can overflow.
private struct TimeScanner {
    let bytes: [UInt8]
    var i = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { i == bytes.count }

    mutating func skipSpaces() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard i < bytes.count, bytes[i] == byte || bytes[i] == byte | 0x20 && byte >= 0x41 && byte <= 0x5A else {
            return false
        }
        i += 1
        return true
    }

    /// A whole number of at most `maxDigits` digits (at least `minDigits`); nil (position kept) otherwise.
    mutating func number(minDigits: Int = 1, maxDigits: Int = 4) -> Int? {
        var j = i
        var value = 0
        while j < bytes.count, bytes[j] >= 0x30, bytes[j] <= 0x39 {
            if j - i == maxDigits { return nil }
            value = value * 10 + Int(bytes[j] - 0x30)
            j += 1
        }
        guard j - i >= minDigits else { return nil }
        i = j
        return value
    }

    /// Fractional digits after a point or comma (any number of them), skipped.
    mutating func skipFraction() {
        guard i < bytes.count, bytes[i] == 0x2E || bytes[i] == 0x2C else { return }
        var j = i + 1
        while j < bytes.count, bytes[j] >= 0x30, bytes[j] <= 0x39 { j += 1 }
        if j > i + 1 { i = j }
    }

    /// `P[0D]T[nH][nM][n[.n]S]`: the minutes, or nil. At least one of H, M or S must be there.
    mutating func duration() -> Int? {
        let start = i
        guard take(0x50) else { return nil }
        if let days = number(), !(days == 0 && take(0x44)) { return reset(start) }
        guard take(0x54) else { return reset(start) }
        var minutes = 0
        var parts = 0
        if let h = numberFollowed(by: 0x48) {
            minutes += h * 60
            parts += 1
        }
        if let m = numberFollowed(by: 0x4D) {
            minutes += m
            parts += 1
        }
        let mark = i
        if number() != nil {
            skipFraction()
            guard take(0x53) else { return reset(start) }
            parts += 1
        } else {
            i = mark
        }
        guard parts > 0, minutes <= 1440 else { return reset(start) }
        return minutes
    }

    /// A number followed by the letter `unit`; nil (position kept) when not both are there.
    private mutating func numberFollowed(by unit: UInt8) -> Int? {
        let mark = i
        guard let n = number(maxDigits: 5), take(unit) else {
            i = mark
            return nil
        }
        return n
    }

    private mutating func reset(_ position: Int) -> Int? {
        i = position
        return nil
    }

    /// `H:MM`, `HH:MM`, `HH:MM:SS[.fff]`, the last with an optional zone; the minutes, or nil. An offset only
    /// after seconds, so that `16:30-18:00` is no time with a zone of -18 (it is kept as written).
    mutating func clock() -> Int? {
        let start = i
        guard let h = number(maxDigits: 2), take(0x3A), let m = number(minDigits: 2, maxDigits: 2) else {
            return reset(start)
        }
        if take(0x3A) {
            guard let s = number(minDigits: 2, maxDigits: 2), s <= 60 else { return reset(start) }
            skipFraction()
            skipZone()
        } else {
            _ = take(0x5A)  // `16:30Z`
        }
        guard (0...24).contains(h), (0...59).contains(m), h < 24 || m == 0 else { return reset(start) }
        return h * 60 + m
    }

    /// `YYYY-MM-DDT` followed by a clock time (the date is not checked: SkautIS writes `0001-01-01`).
    mutating func dateTime() -> Int? {
        let start = i
        guard number(minDigits: 4, maxDigits: 4) != nil, take(0x2D), number(minDigits: 2, maxDigits: 2) != nil,
            take(0x2D),
            number(minDigits: 2, maxDigits: 2) != nil, take(0x54) || take(0x20)
        else { return reset(start) }
        guard let minutes = clock() else { return reset(start) }
        return minutes
    }

    /// `Z`, `+01:00`, `-0500`: skipped.
    private mutating func skipZone() {
        if take(0x5A) { return }
        guard i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D else { return }
        let mark = i
        i += 1
        guard number(minDigits: 2, maxDigits: 2) != nil else {
            i = mark
            return
        }
        if take(0x3A) { _ = number(minDigits: 2, maxDigits: 2) } else { _ = number(minDigits: 2, maxDigits: 2) }
    }
}
