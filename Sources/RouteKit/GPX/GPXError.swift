/// Why a GPX file could not be read.
public enum GPXError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is not well-formed XML (or not XML at all); line and column are 1-based.
    case malformed(line: Int, column: Int, reason: String)
    /// The file is XML but its root element is not `gpx`.
    case notGPX(line: Int, column: Int, root: String)
    /// A tag, value or comment is larger than the XML parser accepts (10,000,000 bytes): no GPX writer makes
    /// one, and accepting it would let a hostile file take any amount of memory.
    case tooLarge(line: Int, column: Int, reason: String)
    /// A value is unusable and the reader was asked to be strict (`--strict`).
    case invalidValue(line: Int, column: Int, reason: String)

    public var description: String {
        switch self {
        case let .malformed(line, column, reason): return "\(line):\(column): not well-formed XML: \(reason)"
        case let .notGPX(line, column, root):
            return "\(line):\(column): not a GPX file: the root element is <\(root)>, expected <gpx>"
        case let .tooLarge(line, column, reason):
            return "\(line):\(column): \(XMLStreamParser.refusal(reason))"
        case let .invalidValue(line, column, reason): return "\(line):\(column): \(reason)"
        }
    }

    /// The 1-based line of the problem.
    public var line: Int {
        switch self {
        case let .malformed(line, _, _), let .notGPX(line, _, _), let .tooLarge(line, _, _),
            let .invalidValue(line, _, _):
            return line
        }
    }
}
