/// One fix of a recorded track (GPX `trkpt`).
public struct TrackPoint: Hashable, Sendable {
    /// The elevations the readers accept, in metres: ±100 km, the edge of space. A value beyond (1e300 m
    /// turned up in fuzzing) is corrupt, and is left out with a warning like one that is not a number.
    public static let elevationRange: ClosedRange<Double> = -100_000...100_000

    /// Where the fix is.
    public var coordinate: Coordinate
    /// Elevation in metres above the geoid (GPX `ele`); nil when the file gives none. Never read as zero.
    public var elevation: Double?
    /// When the fix was taken; nil when the file gives no time.
    public var time: Timestamp?
    /// What the device's sensors recorded at the fix.
    public var sensors: SensorReadings

    public init(
        coordinate: Coordinate, elevation: Double? = nil, time: Timestamp? = nil,
        sensors: SensorReadings = SensorReadings()
    ) {
        self.coordinate = coordinate
        self.elevation = elevation
        self.time = time
        self.sensors = sensors
    }
}
