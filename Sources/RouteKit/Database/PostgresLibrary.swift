internal import CPostgres
import Glibc

/// libpq's functions that RouteKit calls, looked up in the library the first time a `postgresql://` URI is
/// connected to.
///
/// RouteKit does not link libpq: with the twenty libraries it needs (Kerberos, LDAP, TLS) it made every run of
/// `routekit` spend about 4 ms of CPU of its start-up loading them, whether it spoke to a database or not.
/// The library is opened by the name its development package installs (`libpq.so`), else by its soname
/// (`libpq.so.5`).
struct PostgresLibrary: @unchecked Sendable {
    typealias Connection = OpaquePointer
    typealias Result = OpaquePointer
    typealias CStrings = UnsafePointer<UnsafePointer<CChar>?>

    let connect: @convention(c) (CStrings?, CStrings?, Int32) -> Connection?
    let status: @convention(c) (Connection?) -> ConnStatusType
    let errorMessage: @convention(c) (Connection?) -> UnsafeMutablePointer<CChar>?
    let finish: @convention(c) (Connection?) -> Void
    let setNoticeProcessor:
        @convention(c) (Connection?, PQnoticeProcessor?, UnsafeMutableRawPointer?) -> PQnoticeProcessor?
    let execParams:
        @convention(c) (
            Connection?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?, CStrings?, UnsafePointer<Int32>?,
            UnsafePointer<Int32>?, Int32
        ) -> Result?
    let prepare:
        @convention(c) (Connection?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?) ->
            Result?
    let execPrepared:
        @convention(c) (
            Connection?, UnsafePointer<CChar>?, Int32, CStrings?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
        ) -> Result?
    let exec: @convention(c) (Connection?, UnsafePointer<CChar>?) -> Result?
    let putCopyData: @convention(c) (Connection?, UnsafePointer<CChar>?, Int32) -> Int32
    let putCopyEnd: @convention(c) (Connection?, UnsafePointer<CChar>?) -> Int32
    let getResult: @convention(c) (Connection?) -> Result?
    let clear: @convention(c) (Result?) -> Void
    let resultStatus: @convention(c) (Result?) -> ExecStatusType
    let resultErrorField: @convention(c) (Result?, Int32) -> UnsafeMutablePointer<CChar>?
    let rowCount: @convention(c) (Result?) -> Int32
    let columnCount: @convention(c) (Result?) -> Int32
    let isNull: @convention(c) (Result?, Int32, Int32) -> Int32
    let value: @convention(c) (Result?, Int32, Int32) -> UnsafeMutablePointer<CChar>?

    /// libpq, loaded on first use, or why it cannot be.
    static let shared = Swift.Result { () throws(SharedLibrary.Unavailable) in try PostgresLibrary() }

    private init() throws(SharedLibrary.Unavailable) {
        let library = try SharedLibrary("libpq", names: ["libpq.so", "libpq.so.5"])
        connect = try library.function("PQconnectdbParams")
        status = try library.function("PQstatus")
        errorMessage = try library.function("PQerrorMessage")
        finish = try library.function("PQfinish")
        setNoticeProcessor = try library.function("PQsetNoticeProcessor")
        execParams = try library.function("PQexecParams")
        prepare = try library.function("PQprepare")
        execPrepared = try library.function("PQexecPrepared")
        exec = try library.function("PQexec")
        putCopyData = try library.function("PQputCopyData")
        putCopyEnd = try library.function("PQputCopyEnd")
        getResult = try library.function("PQgetResult")
        clear = try library.function("PQclear")
        resultStatus = try library.function("PQresultStatus")
        resultErrorField = try library.function("PQresultErrorField")
        rowCount = try library.function("PQntuples")
        columnCount = try library.function("PQnfields")
        isNull = try library.function("PQgetisnull")
        value = try library.function("PQgetvalue")
    }
}
