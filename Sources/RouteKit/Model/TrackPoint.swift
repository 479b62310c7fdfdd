/// One fix of a recorded track (GPX `trkpt`).
public struct TrackPoint: Hashable, Sendable {
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
