import Glibc

/// The inverse problem from one centre to many points near it, as a search measures its candidates: the
/// same distances and initial azimuths as `geod_inverse` (``Geodesic/inverse(from:to:)``) to within a
/// micrometre and a millionth of a degree, at a fiftieth of the cost for points within
/// ``shortLineMeters``; `geod_inverse` itself beyond, from within about 0.0006° of a pole, to the centre itself
/// and across a pole (to the opposite meridian). Along the centre's meridian the azimuth is 0 or 180 exactly.
///
/// How: both points are taken to Earth-centred coordinates, which give the chord c between them exactly. A
/// geodesic is a curve whose curvature is the ellipsoid's normal curvature κ in its direction, which barely
/// changes along a short line; for a curve of curvature κ the arc exceeds its chord by c³κ²/24 + 3c⁵κ⁴/640
/// + …, with κ taken where the chord's middle meets the surface, in the chord's direction (there the arc
/// runs parallel to its chord, and the terms odd in the change of κ cancel). At 100 km the terms left out
/// are under a micrometre (0.3 µm; 0.02 µm at 60 km). The azimuth is the chord's direction in the centre's
/// tangent plane (the normal section's), turned back by the angle between the normal section and the
/// geodesic, e²(s/N)² cos²φ sin 2α / 12.
package struct GeodesicCenter: Sendable {
    /// Points up to this far (as a chord) are measured by the short-line formulas.
    package static let shortLineMeters = 100_000.0

    private static let a = Geodesic.wgs84Radius
    private static let f = Geodesic.wgs84Flattening
    private static let e2 = f * (2 - f)
    /// 1/a², 1/b², 1/a⁴ and 1/b⁴ of the ellipsoid x²/a² + y²/a² + z²/b² = 1.
    private static let inverseA2 = 1 / (a * a)
    private static let inverseB2 = 1 / (a * a * (1 - f) * (1 - f))
    private static let inverseA4 = inverseA2 * inverseA2
    private static let inverseB4 = inverseB2 * inverseB2

    /// The centre.
    package let coordinate: Coordinate
    /// Its Earth-centred coordinates, metres.
    private let x, y, z: Double
    /// Its surface normal (cos φ cos λ, cos φ sin λ, sin φ) and cos² φ.
    private let normal: (Double, Double, Double)
    private let cos2: Double
    /// The prime-vertical radius of curvature at the centre, N.
    private let primeVertical: Double
    /// False at the poles (within about 0.0006°), where the azimuth needs `geod_inverse`'s conventions.
    private let usable: Bool

    /// The geodesics from `coordinate` (valid: latitude −90…90).
    package init(_ coordinate: Coordinate) {
        self.coordinate = coordinate
        normal = Self.normal(coordinate)
        cos2 = normal.0 * normal.0 + normal.1 * normal.1
        (x, y, z) = Self.earthCentred(normal)
        primeVertical = Self.a / (1 - Self.e2 * normal.2 * normal.2).squareRoot()
        usable = cos2 > 1e-10
    }

    /// The surface normal at `c`, (cos φ cos λ, cos φ sin λ, sin φ): also the point's unit vector on the
    /// sphere of ``GeodesicIndex``.
    @inline(__always)
    package static func normal(_ c: Coordinate) -> (Double, Double, Double) {
        let lat = c.latitude * .pi / 180
        let lon = c.longitude * .pi / 180
        let cl = cos(lat)
        return (cl * cos(lon), cl * sin(lon), sin(lat))
    }

    /// The Earth-centred coordinates of the point on the ellipsoid whose surface normal is `n`.
    @inline(__always)
    private static func earthCentred(_ n: (Double, Double, Double)) -> (Double, Double, Double) {
        let radius = a / (1 - e2 * n.2 * n.2).squareRoot()
        return (radius * n.0, radius * n.1, radius * (1 - e2) * n.2)
    }

    /// The geodesic from the centre to a point: its length and its azimuth at the centre.
    package struct Line: Sendable {
        /// Metres.
        package var distanceMeters: Double
        /// Degrees clockwise from north, −180…180.
        package var azimuthDegrees: Double
    }

    /// The geodesic from the centre to `c`.
    @inline(__always)
    package func inverse(to c: Coordinate) -> Line {
        inverse(to: c, normal: Self.normal(c))
    }

    /// ``inverse(to:)`` for a point whose surface normal (``normal(_:)``) is known already.
    ///
    /// A point on the centre's meridian is due north or south, 0 or 180 exactly (the formulas would leave a
    /// rounding of 1e-13° either side of north, which a bearing shows as 360), without loading PROJ for it. A
    /// point on the opposite meridian, at a pole (on every meridian), or the centre itself (also written on the
    /// other side of the antimeridian, a chord of rounding alone) goes to `geod_inverse`, whose conventions give
    /// its azimuth.
    @inline(__always)
    package func inverse(to c: Coordinate, normal n: (Double, Double, Double)) -> Line {
        let q = Self.earthCentred(n)
        let dx = q.0 - x
        let dy = q.1 - y
        let dz = q.2 - z
        let chord2 = dx * dx + dy * dy + dz * dz
        let apart = abs(c.longitude - coordinate.longitude)
        guard usable, chord2 <= Self.shortLineMeters * Self.shortLineMeters, chord2 > 0, abs(c.latitude) < 90,
            apart != 180, apart != 360 || c.latitude != coordinate.latitude
        else {
            let exact = Geodesic.wgs84.inverse(from: coordinate, to: c)
            return Line(distanceMeters: exact.distanceMeters, azimuthDegrees: exact.initialAzimuthDegrees)
        }
        let chord = chord2.squareRoot()
        // κ = w / (c² |∇|) at the chord's middle m scaled onto the surface by 1/√F(m); squared, no roots:
        // κ²c² = w² F(m) / (c² |∇(m)|²), with w = dᵀ diag(1/a², 1/a², 1/b²) d.
        let mx = (x + q.0) / 2
        let my = (y + q.1) / 2
        let mz = (z + q.2) / 2
        let w = (dx * dx + dy * dy) * Self.inverseA2 + dz * dz * Self.inverseB2
        let level = (mx * mx + my * my) * Self.inverseA2 + mz * mz * Self.inverseB2
        let gradient2 = (mx * mx + my * my) * Self.inverseA4 + mz * mz * Self.inverseB4
        let t = chord2 > 0 ? w * w * level / (chord2 * gradient2) : 0
        let distance = chord * (1 + t * (1.0 / 24 + t * (3.0 / 640)))
        // Along the centre's meridian, due north or south (as `geod_inverse` has it, exactly).
        if apart == 0 || apart == 360 {
            return Line(distanceMeters: distance, azimuthDegrees: c.latitude > coordinate.latitude ? 0 : 180)
        }
        // East and north in the centre's tangent plane, both times cos φ.
        let east = -normal.1 * dx + normal.0 * dy
        let north = -normal.2 * (normal.0 * dx + normal.1 * dy) + cos2 * dz
        let across = east * east + north * north
        let turn =
            across > 0
            ? Self.e2 * chord2 / (primeVertical * primeVertical) * cos2 * (2 * east * north / across) / 12 : 0
        let azimuth = (atan2(east, north) - turn) * 180 / .pi
        return Line(distanceMeters: distance, azimuthDegrees: azimuth < -180 ? azimuth + 360 : azimuth)
    }
}
