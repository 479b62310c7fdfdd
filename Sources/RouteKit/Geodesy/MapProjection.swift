internal import CPROJ

/// Why a map projection could not be set up.
public enum ProjectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// PROJ refused the projection; the message is PROJ's own.
    case unavailable(String)

    public var description: String {
        switch self {
        case .unavailable(let message): "the map projection is not available: \(message)"
        }
    }
}

/// A transverse Mercator projection of the WGS84 ellipsoid centred on a position, through PROJ
/// (`+proj=tmerc`, Poder/Engsager's algorithm: sub-millimetre within thousands of kilometres of the centre).
/// Easting and northing in metres from the centre; north is up and the scale is true along the central
/// meridian, so a map drawn with it has its true aspect.
///
/// Each projection owns its PROJ context (contexts are not shared between threads) and frees it.
public final class MapProjection {
    private let context: OpaquePointer
    private let projection: OpaquePointer
    private let proj: PROJLibrary

    /// The projections a map can be drawn in.
    public enum Kind: String, CaseIterable, Sendable {
        /// Transverse Mercator centred on the data: true shapes and scale near the centre.
        case transverseMercator = "tmerc"
        /// Web Mercator (EPSG:3857), as web maps use: north up, conformal, scale growing with latitude.
        case webMercator = "webmercator"
    }

    /// A projection of `kind` centred on `center` (Web Mercator centres on the central meridian only).
    ///
    /// - Throws: ``ProjectionError/unavailable(_:)`` when PROJ cannot build the projection.
    public convenience init(center: Coordinate, kind: Kind) throws {
        switch kind {
        case .transverseMercator: try self.init(center: center)
        case .webMercator:
            try self.init(
                definition:
                    "+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=\(center.longitude) +x_0=0 +y_0=0 +k=1 +units=m")
        }
    }

    /// A transverse Mercator centred on `center`.
    ///
    /// - Throws: ``ProjectionError/unavailable(_:)`` when PROJ cannot build the projection.
    public convenience init(center: Coordinate) throws {
        try self.init(
            definition:
                "+proj=tmerc +lat_0=\(center.latitude) +lon_0=\(center.longitude) +k=1 +x_0=0 +y_0=0 +ellps=WGS84 "
                + "+units=m"
        )
    }

    private init(definition: String) throws {
        guard let proj = PROJLibrary.available else { throw ProjectionError.unavailable("PROJ cannot be loaded") }
        guard let context = proj.contextCreate() else {  // NULL on allocation failure
            throw ProjectionError.unavailable("no PROJ context")
        }
        guard let projection = proj.create(context, definition) else {  // NULL on error, reason in the context
            let message = proj.contextErrnoString(context, proj.contextErrno(context)).map { String(cString: $0) }
            _ = proj.contextDestroy(context)
            throw ProjectionError.unavailable(message ?? "PROJ refused '\(definition)'")
        }
        self.context = context
        self.projection = projection
        self.proj = proj
    }

    deinit {
        _ = proj.destroy(projection)
        _ = proj.contextDestroy(context)
    }

    /// Easting and northing in metres of `c` (nil where PROJ cannot project it: far from the centre).
    package func project(_ c: Coordinate) -> (x: Double, y: Double)? {
        // A projection's forward step takes radians; HUGE_VAL marks a failure.
        var input = PJ_COORD()
        input.lp.lam = c.longitude * .pi / 180
        input.lp.phi = c.latitude * .pi / 180
        let output = proj.transform(projection, PJ_FWD, input)
        let x = output.xy.x
        let y = output.xy.y
        guard x.isFinite, y.isFinite, abs(x) < 1e15, abs(y) < 1e15 else { return nil }
        return (x, y)
    }

    /// The position at easting `x` and northing `y` in metres (nil where PROJ cannot take it back).
    package func unproject(x: Double, y: Double) -> Coordinate? {
        var input = PJ_COORD()
        input.xy.x = x
        input.xy.y = y
        let output = proj.transform(projection, PJ_INV, input)
        let c = Coordinate(latitude: output.lp.phi * 180 / .pi, longitude: output.lp.lam * 180 / .pi)
        return c.isValid ? c : nil
    }
}
