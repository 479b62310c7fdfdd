/// A position on the WGS84 ellipsoid.
public struct Coordinate: Hashable, Sendable {
    /// Latitude in degrees, −90…90, positive north.
    public var latitude: Double
    /// Longitude in degrees, −180…180, positive east.
    public var longitude: Double

    /// A position from latitude and longitude in degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// True when both values are finite and in range (latitude −90…90, longitude −180…180).
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}
