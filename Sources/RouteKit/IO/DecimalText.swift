import Glibc

/// Decimal numbers as text: strict reading of the numbers found in GPX, CSV and JSON files, and writing in
/// the shortest form that reads back to the same double.
public enum DecimalText {
    /// Reads a decimal number such as `46.0512`, `-7`, `1.5e3` or `+.5`, ignoring white space around it.
    ///
    /// Returns nil for anything else: empty text, trailing characters (`12m`), `NaN`, `Inf`, hexadecimal,
    /// and numbers that overflow a double (`1e999`). The result is correctly rounded: numbers of up to 15
    /// significant digits with a small exponent are computed exactly in one division (both operands are
    /// exact doubles); all others go through the C library's `strtod`.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
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
        var digits = 0
        var significant = 0
        var fractionDigits = 0
        var sawDigit = false
        while i < end, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            sawDigit = true
            if significant > 0 || bytes[i] != 0x30 { significant += 1 }
            if significant <= 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] - 0x30) }
            digits += 1
            i += 1
        }
        if i < end, bytes[i] == 0x2E {
            i += 1
            while i < end, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                sawDigit = true
                if significant > 0 || bytes[i] != 0x30 { significant += 1 }
                if significant <= 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] - 0x30) }
                fractionDigits += 1
                i += 1
            }
        }
        guard sawDigit else { return nil }
        var exponent = 0
        if i < end, bytes[i] == 0x65 || bytes[i] == 0x45 {
            i += 1
            var expNegative = false
            if i < end, bytes[i] == 0x2D || bytes[i] == 0x2B {
                expNegative = bytes[i] == 0x2D
                i += 1
            }
            var sawExpDigit = false
            while i < end, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                sawExpDigit = true
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[i] - 0x30) }
                i += 1
            }
            guard sawExpDigit else { return nil }
            if expNegative { exponent = -exponent }
        }
        guard i == end else { return nil }

        let scale = exponent - fractionDigits
        let exactMantissa = significant <= 15 || (significant == 16 && mantissa < 1 << 53)
        if exactMantissa && abs(scale) <= 22 {
            var value = Double(mantissa)
            value = scale < 0 ? value / exactPowersOfTen[-scale] : value * exactPowersOfTen[scale]
            return negative ? -value : value
        }
        return slowParse(bytes, start: start, end: end)
    }

    /// Reads a decimal number from a string; see ``parse(_:)-(UnsafeBufferPointer<UInt8>)``.
    public static func parse(_ text: some StringProtocol) -> Double? {
        var copy = String(text)
        return copy.withUTF8 { parse($0) }
    }

    private static func slowParse(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Double? {
        var copy = [CChar](repeating: 0, count: end - start + 1)
        for k in start..<end { copy[k - start] = CChar(bitPattern: bytes[k]) }
        return copy.withUnsafeBufferPointer { p -> Double? in
            var stop: UnsafeMutablePointer<CChar>? = nil
            errno = 0
            let value = strtod(p.baseAddress!, &stop)  // sets ERANGE on overflow and underflow
            guard let stop, stop - UnsafeMutablePointer(mutating: p.baseAddress!) == end - start else { return nil }
            if errno == ERANGE && value.isInfinite { return nil }
            return value.isFinite ? value : nil
        }
    }

    private static let exactPowersOfTen: [Double] = (0...22).map { k in
        var p = 1.0
        for _ in 0..<k { p *= 10 }
        return p
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    /// Appends `value` in the shortest form that reads back to the same double (`46.05`, `7`, `1e-07`), or
    /// rounded to `precision` decimals when given. Whole numbers have no `.0`. Not for NaN or infinities.
    public static func append(_ value: Double, precision: Int? = nil, to buffer: inout ByteBuffer) {
        var v = value
        if let precision {
            let scale = exactPowersOfTen[min(max(precision, 0), 22)]
            let rounded = (v * scale).rounded() / scale
            if rounded.isFinite { v = rounded }
        }
        if v == v.rounded(.towardZero), abs(v) < 1e15 {
            appendInteger(Int64(v), negativeZero: v == 0 && v.sign == .minus, to: &buffer)
            return
        }
        // The standard library's description is the shortest round-trip form (Errol/Ryu style).
        var text = v.description
        text.withUTF8 { buffer.append(contentsOf: $0) }
    }

    /// Appends an integer in decimal.
    public static func appendInteger(_ value: Int64, negativeZero: Bool = false, to buffer: inout ByteBuffer) {
        if value == 0 {
            if negativeZero { buffer.append(0x2D) }
            buffer.append(0x30)
            return
        }
        var magnitude = value.magnitude
        if value < 0 { buffer.append(0x2D) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
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
