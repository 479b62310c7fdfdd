/// Why a KML or TCX file could not be read (GPX has its own ``GPXError``).
public enum XMLFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is not well-formed XML (or not XML at all, or cut off); line and column are 1-based.
    case malformed(line: Int, column: Int, reason: String)
    /// The file is XML but its root element is not the format's (`format` is "KML" or "TCX", `expected` its
    /// root element).
    case wrongRoot(line: Int, column: Int, format: String, expected: String, root: String)
    /// A tag, value or comment is larger than the XML parser accepts (10,000,000 bytes).
    case tooLarge(line: Int, column: Int, reason: String)
    /// A value is unusable and the reader was asked to be strict (`--strict`).
    case invalidValue(line: Int, column: Int, reason: String)
    /// One feature is larger than a reader holds (`what` says how): no real file has one, and holding it would
    /// let a hostile file take any amount of memory.
    case featureTooLarge(line: Int, column: Int, what: String)

    public var description: String {
        switch self {
        case let .malformed(line, column, reason): return "\(line):\(column): not well-formed XML: \(reason)"
        case let .wrongRoot(line, column, format, expected, root):
            return "\(line):\(column): not a \(format) file: the root element is <\(root)>, expected <\(expected)>"
        case let .tooLarge(line, column, reason):
            return "\(line):\(column): \(XMLStreamParser.refusal(reason))"
        case let .invalidValue(line, column, reason): return "\(line):\(column): \(reason)"
        case let .featureTooLarge(line, column, what): return "\(line):\(column): refused: \(what)"
        }
    }

    /// The parser's first error as one of these, nil when there was none; `openElement` is the element open
    /// where reading stopped, `root` the format's root element.
    static func from(_ parser: XMLStreamParser, openElement: String?, root: String) -> XMLFormatError? {
        guard let failure = parser.failure(openElement: openElement, root: root) else { return nil }
        switch failure.kind {
        case .truncated, .malformed:
            return .malformed(line: failure.line, column: failure.column, reason: failure.reason)
        case .tooLarge: return .tooLarge(line: failure.line, column: failure.column, reason: failure.reason)
        }
    }
}

/// The state machine of a reader of one XML format (KML, TCX): it runs over an input with ``read(_:)``, and
/// its own ``finish()`` says what went wrong.
class XMLFormatMachine: XMLStreamHandler {
    unowned(unsafe) var parser: XMLStreamParser! = nil
    /// The first error of the machine's own (a handler's, a wrong root), which stopped the parser.
    private(set) var failure: Error?

    /// When true, what is left out stops the reading (``XMLFormatError/invalidValue(line:column:reason:)``).
    private var strict = false
    /// Hears what is left out, when not strict.
    private var onWarning: (ReadWarning) -> Void = { _ in }

    /// Reports something left out at the parser's place: a warning, or with a strict reading an error that
    /// stops it there.
    func warn(_ message: String) {
        guard strict else { return onWarning(ReadWarning(line: parser.line, column: parser.column, message: message)) }
        fail(XMLFormatError.invalidValue(line: parser.line, column: parser.column, reason: message))
    }

    /// Stops the parser for `error`; the first error is the one reported.
    func fail(_ error: Error) {
        if failure == nil { failure = error }
        parser.stop()
    }

    /// Called once the input is through: throws what went wrong (``failure`` first, then the parser's error),
    /// and finishes the work.
    func finish() throws {}

    /// Feeds `input` through the parser into this machine, then finishes; what the machine leaves out goes to
    /// `onWarning`, or with `strict` stops the reading (``warn(_:)``).
    ///
    /// - Throws: ``XMLFormatError`` for an empty or broken file, ``IOError`` when reading fails, and what
    ///   ``finish()`` throws.
    func read(_ input: InputFile, strict: Bool = false, onWarning: @escaping (ReadWarning) -> Void = { _ in }) throws {
        self.strict = strict
        self.onWarning = onWarning
        let parser = XMLStreamParser(handler: self, name: input.path)
        self.parser = parser
        guard try parser.feed(input) else {
            throw XMLFormatError.malformed(line: 1, column: 1, reason: "the file is empty")
        }
        try withExtendedLifetime(parser) { try finish() }
    }
}

/// Numbers read the way JavaScript reads them, for readers that follow togeojson to the letter.
enum JavaScriptNumber {
    /// `parseFloat`: the longest decimal number at the start of `text` (after white space), `Infinity` with
    /// its sign, or NaN when there is none ("12abc" is 12, "abc" NaN).
    static func parseFloat(_ text: some Collection<UInt8>) -> Double {
        let bytes = Array(text)
        var i = 0
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
        let start = i
        if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
        if bytes[i...].starts(with: Array("Infinity".utf8)) {
            return bytes[start] == 0x2D ? -.infinity : .infinity
        }
        var digits = 0
        while i < bytes.count, isDigit(bytes[i]) {
            i += 1
            digits += 1
        }
        if i < bytes.count, bytes[i] == 0x2E {
            i += 1
            while i < bytes.count, isDigit(bytes[i]) {
                i += 1
                digits += 1
            }
        }
        guard digits > 0 else { return .nan }
        var end = i
        if i < bytes.count, bytes[i] == 0x65 || bytes[i] == 0x45 {
            var j = i + 1
            if j < bytes.count, bytes[j] == 0x2B || bytes[j] == 0x2D { j += 1 }
            if j < bytes.count, isDigit(bytes[j]) {
                while j < bytes.count, isDigit(bytes[j]) { j += 1 }
                end = j
            }
        }
        let literal = String(decoding: bytes[start..<end], as: UTF8.self)
        if let value = DecimalText.parse(literal) { return value }
        // Beyond a double's range: JavaScript's answer is an infinity or zero.
        let exponent = literal.lowercased().split(separator: "e").last.flatMap { Int($0) } ?? 0
        return exponent < 0 ? 0 : (bytes[start] == 0x2D ? -.infinity : .infinity)
    }

    /// `Number(text)`: the whole text (white space around it aside) as a number; 0 for empty text, NaN for
    /// anything that is not entirely a number (hexadecimal `0x1F` is read too).
    static func number(_ text: String) -> Double {
        let trimmed = text.trimmingSpaces()
        if trimmed.isEmpty { return 0 }
        let lower = trimmed.lowercased()
        if lower.hasPrefix("0x"), let n = UInt64(lower.dropFirst(2), radix: 16) { return Double(n) }
        if lower.hasPrefix("0o"), let n = UInt64(lower.dropFirst(2), radix: 8) { return Double(n) }
        if lower.hasPrefix("0b"), let n = UInt64(lower.dropFirst(2), radix: 2) { return Double(n) }
        switch trimmed {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        if let value = DecimalText.parse(trimmed) { return value }
        // "5." and numbers beyond a double's range are numbers to JavaScript too; anything else is not.
        let value = parseFloat(Array(trimmed.utf8))
        return trimmed.allSatisfy({ "0123456789+-.eE".contains($0) }) ? value : .nan
    }

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
}
