/// A problem a reader (GPX, GeoJSON) got past by leaving a value or a point out; the rest of the file is still read.
public struct ReadWarning: Hashable, Sendable, CustomStringConvertible {
    /// 1-based line of the element concerned.
    public var line: Int
    /// 1-based column.
    public var column: Int
    /// What was wrong and what was left out, as a sentence fragment.
    public var message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(line):\(column): \(message)" }
}
