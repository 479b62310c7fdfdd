internal import CGEOS

/// Why a line could not be simplified.
package enum SimplificationError: Error, Equatable, Sendable {
    /// GEOS reported an error (its message).
    case geos(String)
}

/// Simplifies drawn lines with GEOS (`GEOSSimplify_r`, Douglas–Peucker): every point of the result is
/// within the tolerance of the original line, so with a tolerance of a quarter pixel the drawing does not
/// visibly change while the file shrinks by orders of magnitude. Not the topology-preserving variant: a
/// long route that crosses itself hundreds of times keeps most of its points under it (2.5 MB against
/// 180 KB for the 1,800 km benchmark route, and five times slower), while a crossing moved by a quarter
/// pixel cannot be seen. Owns one GEOS context (reentrant API; one per thread) and frees it and every
/// geometry.
package final class LineSimplifier {
    private let geos: GEOSLibrary
    private let handle: OpaquePointer

    /// - Throws: ``SimplificationError/geos(_:)`` when GEOS cannot be loaded or cannot start.
    package init() throws {
        geos = try GEOSLibrary.shared.get()
        // NULL on error.
        guard let handle = geos.initialize() else { throw SimplificationError.geos("GEOS_init_r failed") }
        self.handle = handle
    }

    deinit {
        geos.finish(handle)
    }

    /// The line through `points` (x, y in any planar unit) simplified to within `tolerance` of it.
    package func simplify(_ points: [(Double, Double)], tolerance: Double) throws -> [(Double, Double)] {
        guard points.count > 2, tolerance > 0 else { return points }
        var buffer = [Double]()
        buffer.reserveCapacity(points.count * 2)
        for p in points {
            buffer.append(p.0)
            buffer.append(p.1)
        }
        // NULL on error.
        guard let sequence = geos.sequenceFromBuffer(handle, buffer, UInt32(points.count), 0, 0) else {
            throw SimplificationError.geos("cannot make a coordinate sequence")
        }
        // Takes ownership of the sequence; NULL on error (the sequence is then still ours to free).
        guard let line = geos.createLine(handle, sequence) else {
            geos.destroySequence(handle, sequence)
            throw SimplificationError.geos("cannot make a line")
        }
        defer { geos.destroy(handle, line) }
        guard let simple = geos.simplify(handle, line, tolerance) else {  // NULL on exception
            throw SimplificationError.geos("simplification failed")
        }
        defer { geos.destroy(handle, simple) }
        let count = geos.pointCount(handle, simple)  // -1 on exception
        guard count >= 0, let result = geos.sequence(handle, simple) else {  // NULL on exception
            throw SimplificationError.geos("cannot read the simplified line")
        }
        var out = [Double](repeating: 0, count: Int(count) * 2)
        guard geos.sequenceToBuffer(handle, result, &out, 0, 0) != 0 else {  // 0 on exception
            throw SimplificationError.geos("cannot read the simplified line")
        }
        return (0..<Int(count)).map { (out[2 * $0], out[2 * $0 + 1]) }
    }
}

/// The functions of GEOS's C API that ``LineSimplifier`` calls (reentrant ones), looked up the first time a
/// line is simplified.
///
/// RouteKit does not link GEOS: the C++ library and its runtime made every run of `routekit` bind about 7,000
/// symbols at start-up, while only drawing a map simplifies lines. The library is opened by the name its
/// development package installs (`libgeos_c.so`), else by its soname (`libgeos_c.so.1`).
private struct GEOSLibrary: @unchecked Sendable {
    typealias Context = GEOSContextHandle_t
    let initialize: @convention(c) () -> Context?
    let finish: @convention(c) (Context?) -> Void
    let sequenceFromBuffer: @convention(c) (Context?, UnsafePointer<Double>?, UInt32, Int32, Int32) -> OpaquePointer?
    let createLine: @convention(c) (Context?, OpaquePointer?) -> OpaquePointer?
    let destroySequence: @convention(c) (Context?, OpaquePointer?) -> Void
    let destroy: @convention(c) (Context?, OpaquePointer?) -> Void
    let simplify: @convention(c) (Context?, OpaquePointer?, Double) -> OpaquePointer?
    let pointCount: @convention(c) (Context?, OpaquePointer?) -> Int32
    let sequence: @convention(c) (Context?, OpaquePointer?) -> OpaquePointer?
    let sequenceToBuffer:
        @convention(c) (Context?, OpaquePointer?, UnsafeMutablePointer<Double>?, Int32, Int32) -> Int32

    /// GEOS, loaded on first use, or why it cannot be.
    static let shared = Result { () throws(SimplificationError) in
        do throws(SharedLibrary.Unavailable) {
            return try GEOSLibrary(try SharedLibrary("GEOS", names: ["libgeos_c.so", "libgeos_c.so.1"]))
        } catch {
            throw .geos(error.reason)
        }
    }

    private init(_ library: SharedLibrary) throws(SharedLibrary.Unavailable) {
        initialize = try library.function("GEOS_init_r")
        finish = try library.function("GEOS_finish_r")
        sequenceFromBuffer = try library.function("GEOSCoordSeq_copyFromBuffer_r")
        createLine = try library.function("GEOSGeom_createLineString_r")
        destroySequence = try library.function("GEOSCoordSeq_destroy_r")
        destroy = try library.function("GEOSGeom_destroy_r")
        simplify = try library.function("GEOSSimplify_r")
        pointCount = try library.function("GEOSGeomGetNumPoints_r")
        sequence = try library.function("GEOSGeom_getCoordSeq_r")
        sequenceToBuffer = try library.function("GEOSCoordSeq_copyToBuffer_r")
    }
}
