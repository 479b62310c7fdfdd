/// An instant read from an ISO 8601 date-time (`2012-10-24T23:29:40.000Z`, `2007-11-25T17:58:00+01:00`),
/// keeping how it was written so that it is written back the same way.
///
/// The fraction keeps up to nine digits (nanoseconds) and exactly as many digits as the text had; the UTC
/// offset keeps its form (`Z`, `+01:00`, `+0100`, `+01`, or none). A time without an offset is a local time
/// of an unknown zone: it is kept as such (``utcOffsetMinutes`` is nil) and its instant is computed as if it
/// were UTC. Accepted: `YYYY-MM-DD` (or `YYYY/MM/DD`, as GDAL writes dates: written back with dashes), `T`
/// (or `t` or a space), `hh:mm:ss`, an optional fraction (`.` or `,`), an optional offset; the date must exist
/// (no 31 April), hours 0–23, minutes 0–59, seconds 0–60 (a leap second).
public struct Timestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z, not counting leap seconds.
    public let secondsSinceEpoch: Int64
    /// The fraction of the second in nanoseconds, 0…999,999,999.
    public let nanoseconds: Int32
    /// The UTC offset written with the time, in minutes east of Greenwich; nil when the text had none.
    public let utcOffsetMinutes: Int16?
    /// How many digits of fraction the text had (0…9).
    let fractionDigits: UInt8
    let zoneStyle: ZoneStyle
    let isLeapSecond: Bool

    enum ZoneStyle: UInt8, Sendable {
        case none, z, extended, basic, hoursOnly
    }

    /// Seconds since 1970-01-01T00:00:00Z, with the fraction.
    public var timeIntervalSince1970: Double {
        Double(secondsSinceEpoch) + Double(nanoseconds) / 1e9
    }

    /// A UTC instant from seconds since 1970-01-01T00:00:00Z, written with `fractionDigits` digits of
    /// fraction (0…9) and a `Z`.
    public init(secondsSinceEpoch: Int64, nanoseconds: Int32 = 0, fractionDigits: Int = 0) {
        self.secondsSinceEpoch = secondsSinceEpoch
        self.nanoseconds = nanoseconds
        self.utcOffsetMinutes = 0
        self.fractionDigits = UInt8(max(0, min(9, fractionDigits)))
        self.zoneStyle = .z
        self.isLeapSecond = false
    }

    private init(
        seconds: Int64, nanoseconds: Int32, offset: Int16?, fractionDigits: UInt8, zoneStyle: ZoneStyle,
        isLeapSecond: Bool
    ) {
        self.secondsSinceEpoch = seconds
        self.nanoseconds = nanoseconds
        self.utcOffsetMinutes = offset
        self.fractionDigits = fractionDigits
        self.zoneStyle = zoneStyle
        self.isLeapSecond = isLeapSecond
    }

    /// Reads an ISO 8601 date-time; nil when the text is not one or names a date or time that does not
    /// exist (`2021-13-45T25:61:00Z`). Leading and trailing white space is ignored.
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Timestamp.parse($0) }) else { return nil }
        self = parsed
    }

    /// Reads an ISO 8601 date-time from UTF-8 bytes; nil when they are not one.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        var text = TimestampText(bytes)
        guard let date = text.date(), text.dateTimeSeparator(), let clock = text.clock(),
            let fraction = text.fraction(),
            let zone = text.zone(), text.isAtEnd
        else { return nil }
        var style = zone.style
        // GDAL's form is written back as ISO 8601, with an offset XML Schema (and so GPX) accepts.
        if date.separator == 0x2F && (style == .hoursOnly || style == .basic) {
            style = zone.offset == 0 ? .z : .extended
        }
        let days = daysFromCivil(year: date.year, month: date.month, day: date.day)
        let local = Int64(days) * 86_400 + Int64(clock.hour * 3600 + clock.minute * 60 + clock.second)
        return Timestamp(
            seconds: local - Int64((zone.offset ?? 0) * 60), nanoseconds: Int32(fraction.nanoseconds),
            offset: zone.offset.map { Int16($0) }, fractionDigits: UInt8(fraction.digits), zoneStyle: style,
            isLeapSecond: clock.second == 60)
    }

    /// The time as ISO 8601 text, in the form it was read in.
    public var description: String {
        var buffer = ByteBuffer(capacity: 32)
        append(to: &buffer)
        return buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends the ISO 8601 text of the time to `buffer`, without allocating.
    package func append(to buffer: inout ByteBuffer) {
        let offset = Int64(utcOffsetMinutes ?? 0) * 60
        var local = secondsSinceEpoch + offset
        if isLeapSecond { local -= 1 }
        var days = local / 86_400
        var secondOfDay = Int(local % 86_400)
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = Timestamp.civil(fromDays: Int(days))
        let second = isLeapSecond ? 60 : secondOfDay % 60
        buffer.append(maximum: 40) { out in
            @inline(__always) func two(_ v: Int, at i: Int) {
                out[i] = UInt8(truncatingIfNeeded: 48 + v / 10)
                out[i + 1] = UInt8(truncatingIfNeeded: 48 + v % 10)
            }
            two(year / 100, at: 0)
            two(year % 100, at: 2)
            out[4] = 0x2D
            two(month, at: 5)
            out[7] = 0x2D
            two(day, at: 8)
            out[10] = 0x54
            two(secondOfDay / 3600, at: 11)
            out[13] = 0x3A
            two(secondOfDay / 60 % 60, at: 14)
            out[16] = 0x3A
            two(second, at: 17)
            return appendFractionAndZone(to: out, at: 19)
        }
    }

    /// Writes the fraction (as many digits as were read) and the zone (in the form read) at `out[n...]`;
    /// returns the end.
    @inline(__always) private func appendFractionAndZone(to out: UnsafeMutablePointer<UInt8>, at start: Int) -> Int {
        var n = start
        @inline(__always) func two(_ v: Int, at i: Int) {
            out[i] = UInt8(truncatingIfNeeded: 48 + v / 10)
            out[i + 1] = UInt8(truncatingIfNeeded: 48 + v % 10)
        }
        if fractionDigits > 0 {
            out[n] = 0x2E
            n += 1
            var scale = 100_000_000
            var rest = Int(nanoseconds)
            for _ in 0..<fractionDigits {
                out[n] = UInt8(truncatingIfNeeded: 48 + rest / scale)
                rest %= scale
                scale /= 10
                n += 1
            }
        }
        let minutes = abs(Int(utcOffsetMinutes ?? 0))
        switch zoneStyle {
        case .none: break
        case .z:
            out[n] = 0x5A
            n += 1
        case .extended, .basic, .hoursOnly:
            out[n] = (utcOffsetMinutes ?? 0) < 0 ? 0x2D : 0x2B
            two(minutes / 60, at: n + 1)
            n += 3
            if zoneStyle == .extended {
                out[n] = 0x3A
                n += 1
            }
            if zoneStyle != .hoursOnly {
                two(minutes % 60, at: n)
                n += 2
            }
        }
        return n
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool {
        (a.secondsSinceEpoch, a.nanoseconds) < (b.secondsSinceEpoch, b.nanoseconds)
    }

    /// Seconds from `self` to `other` (positive when `other` is later).
    public func seconds(to other: Timestamp) -> Double {
        Double(other.secondsSinceEpoch - secondsSinceEpoch) + Double(other.nanoseconds - nanoseconds) / 1e9
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, days counted from 1970-01-01)

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a Gregorian date, counting years from March so that the leap day is last.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The Gregorian date of a day counted from 1970-01-01; the inverse of ``daysFromCivil(year:month:day:)``.
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// The parts of an ISO 8601 date-time, read one after the other from UTF-8 bytes (white space at either end
/// ignored). Each method reads its part and returns nil when the text is not one.
private struct TimestampText {
    let bytes: UnsafeBufferPointer<UInt8>
    var i: Int
    let end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        self.bytes = bytes
        i = start
        self.end = end
    }

    var isAtEnd: Bool { i == end }

    private mutating func digits(_ n: Int) -> Int? {
        guard end - i >= n else { return nil }
        var value = 0
        for _ in 0..<n {
            let d = Int(bytes[i]) - 48
            guard d >= 0 && d <= 9 else { return nil }
            value = value * 10 + d
            i += 1
        }
        return value
    }

    private mutating func expect(_ c: UInt8) -> Bool {
        guard i < end, bytes[i] == c else { return false }
        i += 1
        return true
    }

    /// `YYYY-MM-DD`, or `YYYY/MM/DD` as GDAL (ogr2ogr) writes it, a date that exists.
    mutating func date() -> (year: Int, month: Int, day: Int, separator: UInt8)? {
        guard let year = digits(4), i < end, bytes[i] == 0x2D || bytes[i] == 0x2F else { return nil }
        let separator = bytes[i]
        i += 1
        guard let month = digits(2), expect(separator), let day = digits(2), (1...12).contains(month), day >= 1,
            day <= Timestamp.daysIn(month: month, year: year)
        else { return nil }
        return (year, month, day, separator)
    }

    /// `T`, `t` or a space.
    mutating func dateTimeSeparator() -> Bool { expect(0x54) || expect(0x74) || expect(0x20) }

    /// `hh:mm:ss`: hours 0–23, minutes 0–59, seconds 0–60 (a leap second).
    mutating func clock() -> (hour: Int, minute: Int, second: Int)? {
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A), let second = digits(2),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        return (hour, minute, second)
    }

    /// An optional fraction (`.` or `,` and at least one digit; up to nine kept).
    mutating func fraction() -> (nanoseconds: Int, digits: Int)? {
        guard i < end, bytes[i] == 0x2E || bytes[i] == 0x2C else { return (0, 0) }
        i += 1
        var nanos = 0
        var count = 0
        var scale = 100_000_000
        while i < end, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            if count < 9 {
                nanos += Int(bytes[i] - 0x30) * scale
                scale /= 10
                count += 1
            }
            i += 1
        }
        return count > 0 ? (nanos, count) : nil
    }

    /// An optional UTC offset: `Z`, `+01:00`, `+0100` or `+01`; its minutes east and how it was written.
    mutating func zone() -> (offset: Int?, style: Timestamp.ZoneStyle)? {
        guard i < end else { return (nil, .none) }
        if expect(0x5A) || expect(0x7A) { return (0, .z) }
        guard bytes[i] == 0x2B || bytes[i] == 0x2D else { return nil }
        let sign = bytes[i] == 0x2D ? -1 : 1
        i += 1
        guard let hours = digits(2), hours <= 23 else { return nil }
        if i == end { return (sign * hours * 60, .hoursOnly) }
        let style: Timestamp.ZoneStyle = expect(0x3A) ? .extended : .basic
        guard let minutes = digits(2), minutes <= 59 else { return nil }
        return (sign * (hours * 60 + minutes), style)
    }
}
