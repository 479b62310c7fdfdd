internal import CPostgres
import Glibc

/// One connection to a PostgreSQL server through libpq: parameterised statements, prepared statements and
/// `COPY … FROM STDIN`. Values always travel as parameters (text format), never inside SQL text.
///
/// Not for use from several threads at once (a libpq connection is not).
final class PostgresConnection {
    private let handle: OpaquePointer
    private let pq: PostgresLibrary
    /// The database, as messages show it (no password).
    let database: String

    /// Connects to `uri`, with libpq's own ways to find credentials (the URI, `PGPASSWORD`, `~/.pgpass`,
    /// `PGSERVICE`…), a 10 s connection timeout unless the URI says otherwise, and UTF-8 text.
    ///
    /// - Throws: ``DatabaseError/cannotConnect(database:reason:)`` with libpq's reason (or why libpq cannot be
    ///   loaded).
    init(_ uri: DatabaseURI) throws {
        database = uri.shown
        let pq: PostgresLibrary
        switch PostgresLibrary.shared {
        case .success(let library): pq = library
        case .failure(let failure): throw DatabaseError.cannotConnect(database: database, reason: failure.reason)
        }
        self.pq = pq
        // Later keywords override earlier ones: the URI (expanded from dbname) overrides the timeout, and
        // the client encoding is always UTF-8.
        let keywords = ["connect_timeout", "application_name", "dbname", "client_encoding"]
        let values = ["10", "routekit", uri.text, "UTF8"]
        let connection = withCStrings(keywords.map { Optional($0) } + [nil]) { k in
            withCStrings(values.map { Optional($0) } + [nil]) { v in pq.connect(k, v, 1) }
        }
        // NULL only when libpq cannot allocate its state; otherwise PQstatus tells.
        guard let connection else { throw DatabaseError.cannotConnect(database: database, reason: "out of memory") }
        guard pq.status(connection) == CONNECTION_OK else {
            let reason = Self.message(pq.errorMessage(connection))
            pq.finish(connection)
            throw DatabaseError.cannotConnect(database: database, reason: reason)
        }
        handle = connection
        // Notices (DROP TABLE IF EXISTS on a missing table, identifiers truncated) are not the user's concern.
        _ = pq.setNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { pq.finish(handle) }

    /// Runs one statement with its parameters (text; nil is NULL) and returns its rows.
    ///
    /// - Throws: ``DatabaseError/server(code:message:)`` with the SQLSTATE and message when it fails.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws -> PostgresResult {
        let result = withCStrings(parameters) { values in
            pq.execParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        return try checked(result)
    }

    /// Prepares `sql` under `name` for ``executePrepared(_:_:)`` (planned once, run many times).
    func prepare(_ name: String, _ sql: String, parameterCount: Int) throws {
        try checked(pq.prepare(handle, name, sql, Int32(parameterCount), nil))
    }

    /// Runs the statement prepared as `name` with its parameters.
    func executePrepared(_ name: String, _ parameters: [String?]) throws -> PostgresResult {
        let result = withCStrings(parameters) { values in
            pq.execPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
        }
        return try checked(result)
    }

    /// Runs `COPY … FROM STDIN` (text format): `produce` appends rows to the buffer it is given and returns
    /// false when there are no more; each filled buffer is sent as it comes. A thrown error ends the copy
    /// (the server discards it) and is rethrown.
    func copy(_ sql: String, produce: (inout ByteBuffer) throws -> Bool) throws {
        try checked(pq.exec(handle, sql), expecting: PGRES_COPY_IN)
        var buffer = ByteBuffer(capacity: 1 << 20)
        do {
            var more = true
            while more {
                more = try produce(&buffer)
                if buffer.count >= 1 << 20 || !more {
                    try send(buffer)
                    buffer.removeAll()
                }
            }
        } catch {
            // -1 when the connection is gone: nothing more to do.
            _ = pq.putCopyEnd(handle, "routekit stopped the load")
            while let result = pq.getResult(handle) { pq.clear(result) }
            throw error
        }
        // 1 when queued, -1 on error.
        guard pq.putCopyEnd(handle, nil) == 1 else { throw failure(nil) }
        var firstError: Error?
        while let result = pq.getResult(handle) {
            do { try checked(result) } catch { firstError = firstError ?? error }
        }
        if let firstError { throw firstError }
    }

    private func send(_ buffer: borrowing ByteBuffer) throws {
        guard buffer.count > 0 else { return }
        let sent = buffer.withUnsafeBytes { bytes in
            // 1 when queued, -1 on error (0 only for non-blocking connections).
            pq.putCopyData(handle, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        }
        guard sent == 1 else { throw failure(nil) }
    }

    /// The result when it has the status wanted; otherwise it is freed and becomes an error.
    @discardableResult
    private func checked(_ result: OpaquePointer?, expecting wanted: ExecStatusType? = nil) throws -> PostgresResult {
        // NULL only when out of memory or the connection is gone: PQerrorMessage says which.
        guard let result else { throw failure(nil) }
        let status = pq.resultStatus(result)
        let ok = wanted.map { status == $0 } ?? (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
        guard ok else {
            let error = failure(result)
            pq.clear(result)
            throw error
        }
        return PostgresResult(result, library: pq)
    }

    /// The error of a failed result (its SQLSTATE and primary message), or of the connection.
    private func failure(_ result: OpaquePointer?) -> DatabaseError {
        if let result, let code = pq.resultErrorField(result, Int32(UInt8(ascii: "C"))) {
            let primary = pq.resultErrorField(result, Int32(UInt8(ascii: "M")))
            return .server(code: String(cString: code), message: primary.map { String(cString: $0) } ?? "")
        }
        if pq.status(handle) != CONNECTION_OK {
            return .cannotConnect(database: database, reason: Self.message(pq.errorMessage(handle)))
        }
        return .server(code: "", message: Self.message(pq.errorMessage(handle)))
    }

    /// libpq's message, one line, without its final newline.
    private static func message(_ text: UnsafeMutablePointer<CChar>?) -> String {
        guard let text else { return "unknown error" }
        let lines = String(cString: text).split(whereSeparator: \.isNewline).map { String($0).trimmingSpaces() }
        return lines.filter { !$0.isEmpty }.joined(separator: "; ")
    }
}

/// The rows of one statement, as text (PostgreSQL's output format); freed with the object.
final class PostgresResult {
    private let handle: OpaquePointer
    private let pq: PostgresLibrary

    init(_ handle: OpaquePointer, library: PostgresLibrary) {
        self.handle = handle
        pq = library
    }
    deinit { pq.clear(handle) }

    /// How many rows.
    var rowCount: Int { Int(pq.rowCount(handle)) }
    /// How many columns.
    var columnCount: Int { Int(pq.columnCount(handle)) }

    /// The value at `row`, `column` as text; nil for NULL.
    func value(_ row: Int, _ column: Int) -> String? {
        guard pq.isNull(handle, Int32(row), Int32(column)) == 0 else { return nil }
        // Never NULL for a row and column within range.
        guard let text = pq.value(handle, Int32(row), Int32(column)) else { return nil }
        return String(cString: text)
    }

    /// The row's values, NULL as nil.
    func row(_ row: Int) -> [String?] { (0..<columnCount).map { value(row, $0) } }
}

/// Calls `body` with the strings as a C array of C strings (nil stays NULL), valid only during the call.
private func withCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } ?? nil }
    defer { for copy in copies { free(copy) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
}
