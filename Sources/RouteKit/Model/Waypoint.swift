/// A named point: a waypoint (GPX `wpt`) or a point of a planned route (GPX `rtept`).
public struct Waypoint: Hashable, Sendable {
    /// Where the point is.
    public var coordinate: Coordinate
    /// Elevation in metres above the geoid; nil when unknown.
    public var elevation: Double?
    /// The time of the point; nil when unknown.
    public var time: Timestamp?
    /// Name, comment, description, links, symbol and type.
    public var details: Details
    /// Sensor readings, where a device recorded them at a route point.
    public var sensors: SensorReadings

    public init(
        coordinate: Coordinate, elevation: Double? = nil, time: Timestamp? = nil, details: Details = Details(),
        sensors: SensorReadings = SensorReadings()
    ) {
        self.coordinate = coordinate
        self.elevation = elevation
        self.time = time
        self.details = details
        self.sensors = sensors
    }

    /// The point's name, if it has one.
    public var name: String? { details.name }
}
