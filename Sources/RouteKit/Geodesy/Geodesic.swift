internal import CPROJ
import Glibc

/// The solution of the inverse geodesic problem between two points.
public struct GeodesicInverse: Hashable, Sendable {
    /// Length of the geodesic in metres.
    public var distanceMeters: Double
    /// Azimuth of the geodesic at the first point, in degrees clockwise from north, −180…180.
    public var initialAzimuthDegrees: Double
    /// Azimuth of the geodesic at the second point (the direction of travel there), −180…180.
    public var finalAzimuthDegrees: Double
}

/// Geodesics on an ellipsoid of revolution with Karney's algorithms, through PROJ's `geodesic.h`
/// (`geod_inverse`, `geod_direct`): accurate to about 15 nanometres for any pair of points on the WGS84
/// ellipsoid, and about half a microsecond a call.
///
/// The C state (`struct geod_geodesic`) is computed once by `geod_init` and only read afterwards, so a
/// `Geodesic` can be shared between threads.
public final class Geodesic: @unchecked Sendable {
    private let state: UnsafeMutablePointer<geod_geodesic>
    private let proj: PROJLibrary

    /// The WGS84 ellipsoid: equatorial radius 6,378,137 m, flattening 1/298.257223563.
    public static let wgs84 = Geodesic(equatorialRadiusMeters: wgs84Radius, flattening: wgs84Flattening)

    /// WGS84's equatorial radius (metres) and flattening.
    package static let wgs84Radius = 6_378_137.0
    package static let wgs84Flattening = 1 / 298.257223563

    /// An ellipsoid with the equatorial radius `equatorialRadiusMeters` (> 0) and `flattening`
    /// (< 1; 0 for a sphere).
    ///
    /// PROJ is loaded here the first time (see ``PROJLibrary``); a system without it stops with its reason.
    public init(equatorialRadiusMeters: Double, flattening: Double) {
        proj = PROJLibrary.loaded
        state = .allocate(capacity: 1)
        state.initialize(to: geod_geodesic())
        proj.geodesicInit(state, equatorialRadiusMeters, flattening)  // no failure mode: it only computes constants
    }

    deinit {
        state.deallocate()
    }

    /// Distance and azimuths from `a` to `b` (the inverse problem), with `geod_inverse`.
    public func inverse(from a: Coordinate, to b: Coordinate) -> GeodesicInverse {
        var distance = 0.0
        var azimuth1 = 0.0
        var azimuth2 = 0.0
        // Never fails; latitudes must be within −90…90, which Coordinate.isValid guarantees for read data.
        proj.geodesicInverse(state, a.latitude, a.longitude, b.latitude, b.longitude, &distance, &azimuth1, &azimuth2)
        return GeodesicInverse(distanceMeters: distance, initialAzimuthDegrees: azimuth1, finalAzimuthDegrees: azimuth2)
    }

    /// The length in metres of the geodesic from `a` to `b`.
    public func distance(from a: Coordinate, to b: Coordinate) -> Double {
        var distance = 0.0
        proj.geodesicInverse(state, a.latitude, a.longitude, b.latitude, b.longitude, &distance, nil, nil)
        return distance
    }

    /// The point `distanceMeters` from `start` along the geodesic leaving it at `azimuthDegrees`
    /// (clockwise from north), with `geod_direct`.
    public func destination(from start: Coordinate, azimuthDegrees: Double, distanceMeters: Double) -> Coordinate {
        var latitude = 0.0
        var longitude = 0.0
        proj.geodesicDirect(
            state, start.latitude, start.longitude, azimuthDegrees, distanceMeters, &latitude, &longitude, nil)
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}

extension Coordinate {
    /// The geodesic distance in metres to `other` on the WGS84 ellipsoid.
    public func distance(to other: Coordinate) -> Double {
        Geodesic.wgs84.distance(from: self, to: other)
    }

    /// The initial bearing to `other` in degrees clockwise from true north, 0…360.
    public func bearing(to other: Coordinate) -> Double {
        let azimuth = Geodesic.wgs84.inverse(from: self, to: other).initialAzimuthDegrees
        return azimuth < 0 ? azimuth + 360 : azimuth
    }
}

extension Geodesic {
    /// The largest step, in degrees of latitude and of longitude, for which ``stepDistance(from:to:)`` uses
    /// the local formula (0.005°: at most about 550 m; less in longitude away from the equator).
    public static let localFormulaCutoffDegrees = 0.005

    /// The length in metres of a short step between consecutive fixes of a track: for steps under
    /// ``localFormulaCutoffDegrees`` the local ellipsoidal formula — the meridional radius M and the
    /// prime-vertical radius N at the mid-latitude, d = √((M·Δφ)² + (N·cos φ·Δλ)²) — and `geod_inverse`
    /// beyond. Within the cut-off the formula agrees with `geod_inverse` to better than 0.1 mm at every
    /// latitude (GeodesicTests proves it on random steps up to the cut-off, poles included); it costs a
    /// twentieth of a `geod_inverse` call, which matters for tracks of millions of fixes.
    public func stepDistance(from a: Coordinate, to b: Coordinate) -> Double {
        let dLat = b.latitude - a.latitude
        var dLon = b.longitude - a.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let midLatitude = (a.latitude + b.latitude) / 2 * .pi / 180
        let cosine = Glibc.cos(midLatitude)
        // Bounding Δλ itself (not Δλ·cos φ) keeps the parallel's curvature negligible near the poles.
        guard abs(dLat) < Self.localFormulaCutoffDegrees, abs(dLon) < Self.localFormulaCutoffDegrees
        else { return distance(from: a, to: b) }
        let radius = state.pointee.a
        let e2 = state.pointee.f * (2 - state.pointee.f)
        let sine = Glibc.sin(midLatitude)
        let w2 = 1 - e2 * sine * sine
        let w = w2.squareRoot()
        let primeVertical = radius / w
        let meridional = radius * (1 - e2) / (w2 * w)
        let north = meridional * dLat * .pi / 180
        let east = primeVertical * cosine * dLon * .pi / 180
        return (north * north + east * east).squareRoot()
    }
}
