/// A JSON parser that reads its input in chunks and hands out one value at a time, so that a reader can
/// walk a FeatureCollection feature by feature without holding the whole file.
///
/// Follows RFC 8259 strictly (no comments, no trailing commas, no NaN), and knows its line and column for
/// messages. Nesting deeper than ``maximumDepth`` is refused rather than risking the stack.
final class JSONStreamParser {
    private let input: InputFile
    private var chunk = [UInt8](repeating: 0, count: 1 << 18)
    private var position = 0
    private var end = 0
    private var atEnd = false
    private(set) var line = 1
    private var lineStart = 0
    private var scratch: [UInt8] = []
    /// The deepest nesting of arrays and objects accepted.
    let maximumDepth = 512
    /// The longest string accepted, in bytes (as libxml2 limits XML values): memory stays bounded.
    let maximumStringLength = 10_000_000
    /// The longest number accepted, in characters: no real coordinate needs more than a few dozen.
    let maximumNumberLength = 1000

    init(input: InputFile) {
        self.input = input
    }

    /// The column (1-based, in bytes) of the next byte.
    var column: Int { position - lineStart + 1 }

    func error(_ reason: String) -> GeoJSONError {
        // Whatever was expected, a file that stops in the middle of a value is most likely cut short.
        if isAtEnd {
            let tail = ", found the end of the file"
            let what = reason.hasSuffix(tail) ? String(reason.dropLast(tail.count)) : reason
            return GeoJSONError.malformed(
                line: line, column: column, reason: "the file ends early (\(what)): is it truncated?")
        }
        return GeoJSONError.malformed(line: line, column: column, reason: reason)
    }

    // MARK: Bytes

    private func fill() throws -> Bool {
        if position < end { return true }
        if atEnd { return false }
        lineStart -= end
        let n = try chunk.withUnsafeMutableBytes { try input.read(into: $0) }
        position = 0
        end = n
        if n == 0 { atEnd = true }
        return n > 0
    }

    /// The next byte without consuming it; nil at the end.
    @inline(__always)
    func peek() throws -> UInt8? {
        if position < end { return chunk[position] }
        return try fill() ? chunk[position] : nil
    }

    @inline(__always)
    private func advance() {
        if chunk[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        position += 1
    }

    /// Skips white space and, between values of a text sequence, record separators (U+001E).
    func skipSpace(separators: Bool = false) throws {
        while let c = try peek() {
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 || (separators && c == 0x1E) else { return }
            if c == 0x1E { sawRecordSeparator = true }
            advance()
        }
    }

    /// True once a record separator was skipped: the input is a text sequence (RFC 7464, RFC 8142).
    private(set) var sawRecordSeparator = false

    /// True when every byte has been read.
    var isAtEnd: Bool { atEnd && position >= end }

    /// Consumes `byte` after optional white space, or fails with `what` expected.
    func expect(_ byte: UInt8, _ what: String) throws {
        try skipSpace()
        guard try peek() == byte else { throw error("expected \(what)\(try describeNext())") }
        advance()
    }

    /// Consumes `byte` after white space if it is next.
    func consume(_ byte: UInt8) throws -> Bool {
        try skipSpace()
        guard try peek() == byte else { return false }
        advance()
        return true
    }

    func describeNext() throws -> String {
        guard let c = try peek() else { return ", found the end of the file" }
        if c >= 0x20 && c < 0x7F { return ", found '\(String(UnicodeScalar(c)))'" }
        if c == 0 { return ", found a NUL byte (UTF-16 or UTF-32? GeoJSON must be UTF-8)" }
        return ", found byte 0x\(String(c, radix: 16))"
    }

    // MARK: Values

    /// Reads one whole value.
    func value(depth: Int = 0) throws -> JSONValue {
        try skipSpace()
        guard let c = try peek() else { throw error("expected a value, found the end of the file") }
        switch c {
        case 0x7B: return try object(depth: depth)
        case 0x5B: return try array(depth: depth)
        case 0x22:
            return .string(try string())
        case 0x74:
            try literal("true")
            return .bool(true)
        case 0x66:
            try literal("false")
            return .bool(false)
        case 0x6E:
            try literal("null")
            return .null
        case 0x2D, 0x30...0x39:
            return .number(try number())
        default:
            throw error("expected a value\(try describeNext())")
        }
    }

    /// An object, its opening brace next; members keep their order.
    private func object(depth: Int) throws -> JSONValue {
        guard depth < maximumDepth else { throw error("nested deeper than \(maximumDepth) levels") }
        advance()
        var members: [(String, JSONValue)] = []
        if try consume(0x7D) { return .object(members) }
        repeat {
            let key = try string()
            try expect(0x3A, "':' after a key")
            members.append((key, try value(depth: depth + 1)))
        } while try consume(0x2C)
        try expect(0x7D, "',' or '}' in an object")
        return .object(members)
    }

    /// An array, its opening bracket next: held compactly while its elements are all numbers (coordinates).
    private func array(depth: Int) throws -> JSONValue {
        guard depth < maximumDepth else { throw error("nested deeper than \(maximumDepth) levels") }
        advance()
        if try consume(0x5D) { return .numbers([]) }
        var numbers: [Double] = []
        var values: [JSONValue] = []
        var allNumbers = true
        repeat {
            try skipSpace()
            if allNumbers, let c = try peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) {
                numbers.append(try number())
                continue
            }
            if allNumbers {
                allNumbers = false
                values = numbers.map(JSONValue.number)
            }
            values.append(try value(depth: depth + 1))
        } while try consume(0x2C)
        try expect(0x5D, "',' or ']' in an array")
        return allNumbers ? .numbers(numbers) : .array(values)
    }

    private func literal(_ word: StaticString) throws {
        let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for b in bytes {
            guard try peek() == b else { throw error("expected '\(word)'\(try describeNext())") }
            advance()
        }
    }

    /// Reads a number (JSON's grammar: no leading `+`, no `.5`, no `NaN`).
    func number() throws -> Double {
        scratch.removeAll(keepingCapacity: true)
        while let c = try peek(),
            (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2B || c == 0x2E || c == 0x65 || c == 0x45
        {
            guard scratch.count < maximumNumberLength else {
                throw error(
                    "'\(String(decoding: scratch.prefix(40), as: UTF8.self))…' is not a number (over "
                        + "\(maximumNumberLength) characters)"
                )
            }
            scratch.append(c)
            advance()
        }
        let first = scratch.first == 0x2D ? 1 : 0
        guard scratch.count > first, scratch[first] >= 0x30, scratch[first] <= 0x39,
            let value = scratch.withUnsafeBufferPointer({ DecimalText.parse($0) })
        else {
            throw error("'\(String(decoding: scratch, as: UTF8.self))' is not a number")
        }
        return value
    }

    /// Reads a string, quotes included in the input, escapes resolved.
    func string() throws -> String {
        try skipSpace()
        guard try peek() == 0x22 else { throw error("expected a string\(try describeNext())") }
        advance()
        scratch.removeAll(keepingCapacity: true)
        while true {
            guard let c = try peek() else { throw error("unterminated string") }
            advance()
            if c == 0x22 { break }
            if c < 0x20 { throw error("control character in a string (write it as an escape)") }
            if c != 0x5C {
                scratch.append(c)
                if scratch.count > maximumStringLength {
                    throw error(
                        "a string over \(maximumStringLength / 1_000_000) MB, more than this reader accepts (a "
                            + "limit against hostile files)"
                    )
                }
                continue
            }
            try escape()
            if scratch.count > maximumStringLength {
                throw error(
                    "a string over \(maximumStringLength / 1_000_000) MB, more than this reader accepts (a limit "
                        + "against hostile files)"
                )
            }
        }
        guard let text = String(validating: scratch, as: UTF8.self) else {
            throw error("a string is not valid UTF-8")
        }
        return text
    }

    /// The escape after a backslash, appended to the string being read.
    private func escape() throws {
        guard let e = try peek() else { throw error("unterminated string") }
        advance()
        switch e {
        case 0x22, 0x5C, 0x2F: scratch.append(e)
        case 0x62: scratch.append(0x08)
        case 0x66: scratch.append(0x0C)
        case 0x6E: scratch.append(0x0A)
        case 0x72: scratch.append(0x0D)
        case 0x74: scratch.append(0x09)
        case 0x75: scratch.append(contentsOf: Array(String(Character(try unicodeEscape())).utf8))
        default: throw error("invalid escape '\\\(String(UnicodeScalar(e)))'")
        }
    }

    /// The scalar of `\uXXXX` (its `\u` read), with the low half of a surrogate pair when it is the high half.
    private func unicodeEscape() throws -> Unicode.Scalar {
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
            // A high surrogate must be followed by an escaped low one.
            guard try peek() == 0x5C else { throw error("lone surrogate \\u\(String(scalar, radix: 16))") }
            advance()
            guard try peek() == 0x75 else { throw error("lone surrogate \\u\(String(scalar, radix: 16))") }
            advance()
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("invalid surrogate pair") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
            throw error("lone surrogate \\u\(String(scalar, radix: 16))")
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid escape") }
        return unicode
    }

    private func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = try peek() else { throw error("unterminated escape") }
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default: throw error("invalid \\u escape")
            }
            value = value * 16 + digit
            advance()
        }
        return value
    }

    /// Skips a byte-order mark at the very start.
    func skipByteOrderMark() throws {
        if let c = try peek(), c == 0xFE || c == 0xFF {
            throw error("the file starts with a UTF-16 byte-order mark; GeoJSON must be UTF-8 (RFC 8259)")
        }
        guard try peek() == 0xEF else { return }
        advance()
        guard try peek() == 0xBB else { throw error("invalid byte at the start") }
        advance()
        guard try peek() == 0xBF else { throw error("invalid byte at the start") }
        advance()
    }
}
