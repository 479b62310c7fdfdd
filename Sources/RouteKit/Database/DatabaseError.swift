/// Why a PostGIS table could not be read or written. Messages never carry a password: a database is named
/// by its URI without one (``DatabaseURI/shown``).
public enum DatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not a `postgresql://` (or `postgres://`) URI.
    case notADatabaseURI(String)
    /// A table name that is not an identifier (`clubrooms`, `scouts.clubrooms`).
    case badTableName(String)
    /// The server could not be reached or refused the connection (libpq's reason).
    case cannotConnect(database: String, reason: String)
    /// The database has no PostGIS extension (and it could not be created, with the server's reason).
    case noPostGIS(database: String, reason: String)
    /// The table does not exist.
    case missingTable(table: String, database: String)
    /// The table exists but is not what RouteKit reads or writes (a column missing, another geometry type).
    case unexpectedTable(table: String, reason: String)
    /// The table exists and a load would replace it: ask for `replace`.
    case tableExists(table: String)
    /// A row that cannot be read as a clubroom (its key, and what is wrong).
    case badRow(table: String, key: String, reason: String)
    /// The server refused a statement: its SQLSTATE code and message.
    case server(code: String, message: String)

    public var description: String {
        switch self {
        case .notADatabaseURI(let text): return "'\(text)' is not a postgresql:// URI"
        case .badTableName(let name):
            return "'\(name)' is not a table name: letters, digits and _ (not first), optionally schema.table"
        case let .cannotConnect(database, reason): return "\(database): cannot connect: \(reason)"
        case let .noPostGIS(database, reason):
            return "\(database): the database has no PostGIS extension (CREATE EXTENSION postgis): \(reason)"
        case let .missingTable(table, database): return "\(database): no table \(table)"
        case let .unexpectedTable(table, reason): return "table \(table) is not a RouteKit table: \(reason)"
        case .tableExists(let table):
            return "table \(table) already exists; --replace reloads it in one transaction"
        case let .badRow(table, key, reason): return "table \(table), row \(key): \(reason)"
        case let .server(code, message): return "the database refused it (\(code)): \(message)"
        }
    }

    /// True for a server error about the data itself (SQLSTATE classes 22, data exception, and 23,
    /// integrity constraint violation): a value the table cannot take.
    public var isDataError: Bool {
        if case .server(let code, _) = self { return code.hasPrefix("22") || code.hasPrefix("23") }
        return false
    }
}
