internal import CPROJ
import Glibc

/// PROJ's functions that RouteKit calls, looked up in the library the first time ``Geodesic`` is set up or a
/// map is projected.
///
/// RouteKit does not link PROJ: the library and the forty others it needs (a network stack, TIFF, SQLite)
/// made every run of `routekit` spend 4–5 ms of CPU of its start-up loading them and resolving their
/// symbols, whether it used them or not. `convert` and `near` within 100 km (``GeodesicCenter``'s own
/// formulas) never do; `stats`, `profile`, `map` and `stages` load it when they measure their first step.
/// The library is opened by the name its development package installs (`libproj.so`), else by the soname of
/// PROJ 9 (`libproj.so.25`).
struct PROJLibrary: @unchecked Sendable {
    let geodesicInit: @convention(c) (UnsafeMutablePointer<geod_geodesic>?, Double, Double) -> Void
    let geodesicInverse:
        @convention(c) (
            UnsafePointer<geod_geodesic>?, Double, Double, Double, Double, UnsafeMutablePointer<Double>?,
            UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?
        ) -> Void
    let geodesicDirect:
        @convention(c) (
            UnsafePointer<geod_geodesic>?, Double, Double, Double, Double, UnsafeMutablePointer<Double>?,
            UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?
        ) -> Void
    let contextCreate: @convention(c) () -> OpaquePointer?
    let contextDestroy: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let contextErrno: @convention(c) (OpaquePointer?) -> Int32
    let contextErrnoString: @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<CChar>?
    let create: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
    let destroy: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let transform: @convention(c) (OpaquePointer?, PJ_DIRECTION, PJ_COORD) -> PJ_COORD

    /// PROJ, loaded on first use (nil with the reason when it cannot be).
    private static let shared = Result { () throws(SharedLibrary.Unavailable) in try PROJLibrary() }

    /// PROJ, loaded on first use; nil when it cannot be loaded.
    static var available: PROJLibrary? { try? shared.get() }

    /// PROJ, for the geodesics: it is a dependency of RouteKit (`scripts/setup` installs it), so a system
    /// without it cannot run RouteKit at all, and stops here saying why.
    static var loaded: PROJLibrary {
        switch shared {
        case .success(let proj): return proj
        case .failure(let failure): fatalError("routekit: \(failure.reason)")
        }
    }

    private init() throws(SharedLibrary.Unavailable) {
        let library = try SharedLibrary("PROJ", names: ["libproj.so", "libproj.so.25"])
        geodesicInit = try library.function("geod_init")
        geodesicInverse = try library.function("geod_inverse")
        geodesicDirect = try library.function("geod_direct")
        contextCreate = try library.function("proj_context_create")
        contextDestroy = try library.function("proj_context_destroy")
        contextErrno = try library.function("proj_context_errno")
        contextErrnoString = try library.function("proj_context_errno_string")
        create = try library.function("proj_create")
        destroy = try library.function("proj_destroy")
        transform = try library.function("proj_trans")
    }
}
