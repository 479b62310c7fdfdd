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
    private let handle: GEOSContextHandle_t

    /// - Throws: ``SimplificationError/geos(_:)`` when GEOS cannot start.
    package init() throws {
        guard let handle = GEOS_init_r() else { throw SimplificationError.geos("GEOS_init_r failed") }  // NULL on error
        self.handle = handle
    }

    deinit {
        GEOS_finish_r(handle)
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
        guard let sequence = GEOSCoordSeq_copyFromBuffer_r(handle, buffer, UInt32(points.count), 0, 0) else {
            throw SimplificationError.geos("cannot make a coordinate sequence")
        }
        // Takes ownership of the sequence; NULL on error (the sequence is then still ours to free).
        guard let line = GEOSGeom_createLineString_r(handle, sequence) else {
            GEOSCoordSeq_destroy_r(handle, sequence)
            throw SimplificationError.geos("cannot make a line")
        }
        defer { GEOSGeom_destroy_r(handle, line) }
        guard let simple = GEOSSimplify_r(handle, line, tolerance) else {  // NULL on exception
            throw SimplificationError.geos("simplification failed")
        }
        defer { GEOSGeom_destroy_r(handle, simple) }
        let count = GEOSGeomGetNumPoints_r(handle, simple)  // -1 on exception
        guard count >= 0, let result = GEOSGeom_getCoordSeq_r(handle, simple) else {  // NULL on exception
            throw SimplificationError.geos("cannot read the simplified line")
        }
        var out = [Double](repeating: 0, count: Int(count) * 2)
        guard GEOSCoordSeq_copyToBuffer_r(handle, result, &out, 0, 0) != 0 else {  // 0 on exception
            throw SimplificationError.geos("cannot read the simplified line")
        }
        return (0..<Int(count)).map { (out[2 * $0], out[2 * $0 + 1]) }
    }
}
