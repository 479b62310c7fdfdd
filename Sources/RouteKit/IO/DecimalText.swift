import Glibc

/// Decimal numbers as text: strict reading of the numbers found in GPX, CSV and JSON files, and writing in
/// the shortest form that reads back to the same double.
package enum DecimalText {
    /// Reads a decimal number such as `46.0512`, `-7`, `1.5e3` or `+.5`, ignoring white space around it.
    ///
    /// Returns nil for anything else: empty text, trailing characters (`12m`), `NaN`, `Inf`, hexadecimal,
    /// and numbers that overflow a double (`1e999`). The result is correctly rounded: numbers of up to 15
    /// significant digits with a small exponent are computed exactly in one division (both operands are
    /// exact doubles); all others go through the C library's `strtod`.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        guard start < end else { return nil }

        var i = start
        var negative = false
        if bytes[i] == 0x2D || bytes[i] == 0x2B {
            negative = bytes[i] == 0x2D
            i += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        let digits = readDigits(bytes, &i, end, &mantissa, &significant)
        var fractionDigits = 0
        if i < end, bytes[i] == 0x2E {
            i += 1
            fractionDigits = readDigits(bytes, &i, end, &mantissa, &significant)
        }
        guard digits + fractionDigits > 0, let exponent = readExponent(bytes, &i, end) else { return nil }
        guard i == end else { return nil }

        let scale = exponent - fractionDigits
        let exactMantissa = significant <= 15 || (significant == 16 && mantissa < 1 << 53)
        if exactMantissa && abs(scale) <= 22 {
            var value = Double(mantissa)
            value = scale < 0 ? value / exactPowerOfTen(-scale) : value * exactPowerOfTen(scale)
            return negative ? -value : value
        }
        return slowParse(bytes, start: start, end: end)
    }

    /// Reads a run of digits into the mantissa (its first 19 significant digits; leading zeros are not
    /// significant); returns how many digits there were.
    @inline(__always) private static func readDigits(
        _ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ end: Int, _ mantissa: inout UInt64,
        _ significant: inout Int
    ) -> Int {
        let first = i
        while i < end, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            if significant > 0 || bytes[i] != 0x30 { significant += 1 }
            if significant <= 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] - 0x30) }
            i += 1
        }
        return i - first
    }

    /// Reads an optional exponent (`e5`, `E-3`; at least one digit); 0 when there is none, nil when malformed.
    @inline(__always) private static func readExponent(
        _ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ end: Int
    ) -> Int? {
        guard i < end, bytes[i] == 0x65 || bytes[i] == 0x45 else { return 0 }
        i += 1
        var negative = false
        if i < end, bytes[i] == 0x2D || bytes[i] == 0x2B {
            negative = bytes[i] == 0x2D
            i += 1
        }
        var exponent = 0
        var sawDigit = false
        while i < end, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            sawDigit = true
            if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[i] - 0x30) }
            i += 1
        }
        guard sawDigit else { return nil }
        return negative ? -exponent : exponent
    }

    /// Reads a decimal number from a string; see ``parse(_:)-(UnsafeBufferPointer<UInt8>)``.
    package static func parse(_ text: some StringProtocol) -> Double? {
        var copy = String(text)
        return copy.withUTF8 { parse($0) }
    }

    private static func slowParse(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Double? {
        var copy = [CChar](repeating: 0, count: end - start + 1)
        for k in start..<end { copy[k - start] = CChar(bitPattern: bytes[k]) }
        return copy.withUnsafeBufferPointer { p -> Double? in
            var stop: UnsafeMutablePointer<CChar>? = nil
            errno = 0
            guard let text = p.baseAddress else { return nil }  // never empty: the copy ends with a NUL
            let value = strtod(text, &stop)  // sets ERANGE on overflow and underflow
            guard let stop, stop - UnsafeMutablePointer(mutating: text) == end - start else { return nil }
            if errno == ERANGE && value.isInfinite { return nil }
            return value.isFinite ? value : nil
        }
    }

    /// 10^k for k in 0...22, the powers of ten that are exact doubles.
    @inline(__always)
    static func exactPowerOfTen(_ k: Int) -> Double {
        let powers:
            (
                Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double,
                Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double
            ) =
                (
                    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
                    1e18,
                    1e19, 1e20, 1e21, 1e22
                )
        return withUnsafeBytes(of: powers) { $0.load(fromByteOffset: k * 8, as: Double.self) }
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    /// Appends `value` in the shortest form that reads back to the same double (`46.05`, `7`, `1e-07`), or
    /// rounded to `precision` decimals when given. Whole numbers have no `.0`. Not for NaN or infinities.
    package static func append(_ value: Double, precision: Int? = nil, to buffer: inout ByteBuffer) {
        var v = value
        if let precision {
            let decimals = min(max(precision, 0), 22)
            let scale = exactPowerOfTen(decimals)
            let product = roundedHalfAway(v * scale)
            // m = v rounded to whole 10^-decimals, of at most 15 digits: what the shortest form of m / 10^decimals
            // is found to be below (m's digits, trailing zeros dropped), without looking for it.
            if decimals <= 15, product != 0, abs(product) < 1e15 {
                appendDigits(Int64(product), decimals: decimals, to: &buffer)
                return
            }
            let rounded = product / scale
            if rounded.isFinite { v = rounded }
        }
        // Most positions have at most six decimals: then their digits are the shortest form (as below), found
        // with one product and one check.
        if precision == nil, abs(v) < 1e9 {
            let product = roundedHalfAway(v * 1e6)
            if product != 0, product / 1e6 == v {
                appendDigits(Int64(product), decimals: 6, to: &buffer)
                return
            }
        }
        if v == v.rounded(.towardZero), abs(v) < 1e15 {
            appendInteger(Int64(v), negativeZero: v == 0 && v.sign == .minus, to: &buffer)
            return
        }
        // Fast path for every number with a representation of 15 significant digits or fewer (all that
        // GPS files hold): d = 15 minus the digits before the point, m = round(v * 10^d). m is under 10^15
        // and 10^d is exact, so m / 10^d is correctly rounded and equals what a reader makes of the text
        // "m e-d"; the check proves the text reads back to v. Within 15 digits that text is unique (10^-d
        // is over four units in the last place of v), so dropping m's trailing zeros gives the shortest.
        let magnitude = abs(v)
        if magnitude < 1e15 {
            var integerDigits = 0
            var bound = 1.0
            while magnitude >= bound {
                bound *= 10
                integerDigits += 1
            }
            let d = 15 - integerDigits
            let scale = exactPowerOfTen(d)
            let product = v * scale
            // Round half away from zero by truncation (no libm call); a wrong m only fails the check.
            let m = Int64(product + (product < 0 ? -0.5 : 0.5))
            if m != 0 && Double(m) / scale == v {
                appendDigits(m, decimals: d, to: &buffer)
                return
            }
        }
        // Otherwise the standard library's description, the shortest round-trip form.
        var text = v.description
        text.withUTF8 { buffer.append(contentsOf: $0) }
    }

    /// `x` rounded to a whole number, halves away from zero, as `x.rounded()` rounds it (without a call to the
    /// C library): under 2^52 the part after the point, `x` less its whole part, is exact.
    @inline(__always)
    private static func roundedHalfAway(_ x: Double) -> Double {
        guard abs(x) < 0x1p52 else { return x.rounded() }
        let whole = Double(Int64(x))
        let fraction = x - whole
        // A value between -0.5 and 0 rounds to -0, as `rounded()` rounds it.
        return fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : Double(signOf: x, magnitudeOf: whole)
    }

    /// Appends `m / 10^decimals` (m not 0) without the trailing zeros of its decimals, as a whole number when
    /// they all are.
    private static func appendDigits(_ m: Int64, decimals: Int, to buffer: inout ByteBuffer) {
        var m = m
        var d = decimals
        while d > 0 && m % 10 == 0 {
            m /= 10
            d -= 1
        }
        if d == 0 { appendInteger(m, to: &buffer) } else { appendFixed(m, decimals: d, to: &buffer) }
    }

    /// Appends `m / 10^decimals` in plain decimal notation (`-0.0012` for m = -12, decimals = 4), two digits at a
    /// time.
    static func appendFixed(_ m: Int64, decimals: Int, to buffer: inout ByteBuffer) {
        let magnitude = m.magnitude
        // Number of digits to write: all of m's, and at least one before the point. A number of `bits` binary
        // digits has t = ⌊bits·log10 2⌋ decimal ones (1233 / 4096 is log10 2 to within 2·10^-5), or t + 1 from
        // 10^t on.
        let bits = 64 - magnitude.leadingZeroBitCount
        let t = (bits &* 1233) >> 12
        var digitCount = t + (magnitude >= powerOfTen(t) ? 1 : 0)
        digitCount = max(digitCount, 1, decimals + 1)
        let length = digitCount + 1 + (m < 0 ? 1 : 0)
        buffer.append(maximum: length) { out in
            writeFixed(magnitude, decimals: decimals, negative: m < 0, endingAt: out + length)
            return length
        }
    }

    /// 10^k as an integer, k in 0...19.
    @inline(__always)
    private static func powerOfTen(_ k: Int) -> UInt64 {
        let powers:
            (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
            ) = (
                1, 10, 100, 1000, 10000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
                10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
                1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000,
                1_000_000_000_000_000_000, 10_000_000_000_000_000_000
            )
        return withUnsafeBytes(of: powers) { $0.load(fromByteOffset: k * 8, as: UInt64.self) }
    }

    /// Writes the digits of `magnitude / 10^decimals` (and the sign) backwards from just before `end`, as
    /// many as ``appendFixed(_:decimals:to:)`` counted.
    @inline(__always)
    private static func writeFixed(
        _ magnitude: UInt64, decimals: Int, negative: Bool, endingAt end: UnsafeMutablePointer<UInt8>
    ) {
        var rest = magnitude
        var p = end
        var fraction = decimals
        while fraction >= 2 {
            writePair(of: &rest, before: &p)
            fraction -= 2
        }
        if fraction == 1 {
            p -= 1
            p[0] = UInt8(truncatingIfNeeded: 48 &+ rest % 10)
            rest /= 10
        }
        p -= 1
        p[0] = 0x2E
        let point = p
        while rest >= 10 { writePair(of: &rest, before: &p) }
        if rest > 0 || p == point {  // at least one digit before the point
            p -= 1
            p[0] = UInt8(truncatingIfNeeded: 48 &+ rest)
        }
        if negative { p[-1] = 0x2D }
    }

    /// Writes the last two digits of `rest` just before `p` (moving it back) and drops them from `rest`.
    @inline(__always)
    private static func writePair(of rest: inout UInt64, before p: inout UnsafeMutablePointer<UInt8>) {
        let r = 2 &* Int(truncatingIfNeeded: rest % 100)
        rest /= 100
        p -= 2
        p[0] = digitPairs.utf8Start[r]
        p[1] = digitPairs.utf8Start[r &+ 1]
    }

    /// "00", "01", … "99": the digits of 0…99 in pairs.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// `value` as text, in the form ``append(_:precision:to:)`` writes.
    package static func string(_ value: Double, precision: Int? = nil) -> String {
        var buffer = ByteBuffer(capacity: 32)
        append(value, precision: precision, to: &buffer)
        return buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends an integer in decimal.
    package static func appendInteger(_ value: Int64, negativeZero: Bool = false, to buffer: inout ByteBuffer) {
        if value == 0 {
            if negativeZero { buffer.append(0x2D) }
            buffer.append(0x30)
            return
        }
        var magnitude = value.magnitude
        if value < 0 { buffer.append(0x2D) }
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            while magnitude > 0 {
                raw[n] = UInt8(48 + magnitude % 10)
                magnitude /= 10
                n += 1
            }
            for k in stride(from: n - 1, through: 0, by: -1) { buffer.append(raw[k]) }
        }
    }
}
