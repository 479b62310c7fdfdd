/// The rest of the family of number formatters, beside ``DecimalText/append(_:precision:to:)`` (data: every
/// digit, or rounded to a precision, in the shortest form): numbers rounded for drawings and summaries, and
/// numbers for people, with thousands grouped. Every output of RouteKit and `routekit` writes its numbers
/// with these.
extension DecimalText {
    /// `value` rounded to at most `decimals` decimals, without trailing zeros and never `-0` (`12.5`, `3`,
    /// `-0.25`): SVG coordinates, and the measured values of CSV and JSON outputs. Not for NaN or infinities.
    package static func compact(_ value: Double, decimals: Int) -> String {
        let scale = exactPowerOfTen(min(max(decimals, 0), 22))
        let rounded = (value * scale).rounded() / scale
        var buffer = ByteBuffer(capacity: 24)
        append(rounded == 0 ? 0 : rounded, precision: decimals, to: &buffer)
        return buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// `value` with exactly `decimals` decimals, rounded half away from zero, thousands grouped with commas
    /// (`1,234.50`): for people (tables, labels, page text). Values beyond ±10^15 and non-finite ones are
    /// written as ``string(_:precision:)`` writes them.
    package static func fixed(_ value: Double, decimals: Int) -> String {
        let decimals = min(max(decimals, 0), 15)
        let scale = exactPowerOfTen(decimals)
        let scaled = (abs(value) * scale).rounded()
        // Below 2^53 every scaled value is an exact integer, so the whole part and the decimals never disagree.
        guard value.isFinite, abs(value) < 1e15, scaled < 9_007_199_254_740_992 else {
            return string(value, precision: decimals)
        }
        let whole = Int(scaled / scale)
        var text = (value < 0 && scaled > 0 ? "-" : "") + grouped(whole)
        if decimals > 0 {
            let digits = String(Int(scaled) - whole * Int(scale))
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text
    }

    /// A whole number with thousands grouped by commas: `12,345`, `-1,200`.
    package static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = value < 0 ? "-" : ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return out
    }

    /// `value` rounded to a whole number and grouped as ``grouped(_:)-(Int)`` does it (non-finite values and
    /// values beyond ±10^18 as ``string(_:precision:)`` writes them).
    package static func grouped(_ value: Double) -> String {
        let rounded = value.rounded()
        guard rounded.isFinite, abs(rounded) < 1e18 else { return string(value, precision: 0) }
        return grouped(Int(rounded))
    }
}
