/// A PostgreSQL connection URI (`postgresql://[user[:password]@][host][:port][/dbname][?param=value&…]`), as
/// libpq reads it. The password, when the URI carries one, is never shown: ``shown`` is the URI without it.
/// Credentials may equally come from `PGPASSWORD`, `~/.pgpass` or the other variables libpq reads.
public struct DatabaseURI: Hashable, Sendable, CustomStringConvertible {
    /// The URI as given, password included: only for libpq.
    let text: String

    /// The URI, or nil when `text` does not start with `postgresql://` or `postgres://`.
    public init?(_ text: String) {
        guard Self.looksLikeURI(text) else { return nil }
        self.text = text
    }

    /// True when `text` starts with `postgresql://` or `postgres://` (any case): a database, not a file.
    public static func looksLikeURI(_ text: String) -> Bool {
        let lower = text.prefix(13).lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
    }

    /// The URI without its password (in the user part or a `password=` parameter), for messages.
    public var shown: String {
        let parts = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return text }
        var rest = String(parts[1])
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        if let at = rest[..<authorityEnd].lastIndex(of: "@") {
            let user = rest[..<at]
            if let colon = user.firstIndex(of: ":") {
                rest = String(rest[..<colon]) + String(rest[at...])
            }
        }
        if let question = rest.firstIndex(of: "?") {
            let parameters = rest[rest.index(after: question)...].split(
                separator: "&", omittingEmptySubsequences: false
            )
            .filter { !$0.lowercased().hasPrefix("password=") }
            rest = String(rest[..<question]) + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
        }
        return parts[0] + "://" + rest
    }

    public var description: String { shown }
}

/// A table's name, checked as an SQL identifier (optionally schema-qualified) and quoted for SQL text:
/// letters, digits and `_`, not starting with a digit, at most 63 bytes a part. Names are never built from
/// anything else, and values never go into SQL text (they are parameters).
public struct TableName: Hashable, Sendable, CustomStringConvertible {
    /// The parts: `["clubrooms"]` or `["scouts", "clubrooms"]`.
    public let parts: [String]

    /// The name, or nil when `text` is not `name` or `schema.name` of identifier characters.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count), parts.allSatisfy(Self.isIdentifier) else { return nil }
        self.parts = parts
    }

    private static func isIdentifier(_ part: String) -> Bool {
        guard let first = part.utf8.first, part.utf8.count <= 63, !(0x30...0x39).contains(first) else { return false }
        return part.utf8.allSatisfy {
            (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x5F
        }
    }

    /// `"schema"."name"`: quoted, so the name is taken exactly as written.
    var quoted: String { parts.map { "\"\($0)\"" }.joined(separator: ".") }

    /// The name with a suffix on its last part (an index's name), quoted; at most 63 bytes.
    func quoted(suffix: String) -> String {
        let last = String(parts[parts.count - 1].utf8.prefix(63 - suffix.utf8.count)) ?? "t"
        return "\"\(last + suffix)\""
    }

    /// `schema.name` as written.
    public var description: String { parts.joined(separator: ".") }
}
