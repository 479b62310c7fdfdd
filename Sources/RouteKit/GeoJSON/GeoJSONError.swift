/// Why a GeoJSON file could not be read.
public enum GeoJSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not valid JSON; line and column are 1-based.
    case malformed(line: Int, column: Int, reason: String)
    /// The JSON is not GeoJSON (no FeatureCollection, Feature or geometry at the top).
    case notGeoJSON(line: Int, column: Int, reason: String)
    /// A value is unusable and the reader was asked to be strict.
    case invalidValue(line: Int, column: Int, reason: String)

    public var description: String {
        switch self {
        case let .malformed(line, column, reason): return "\(line):\(column): not valid JSON: \(reason)"
        case let .notGeoJSON(line, column, reason): return "\(line):\(column): not GeoJSON: \(reason)"
        case let .invalidValue(line, column, reason): return "\(line):\(column): \(reason)"
        }
    }
}
