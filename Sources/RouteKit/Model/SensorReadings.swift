/// What a device's sensors recorded at a point (Garmin TrackPointExtension v1/v2, power extensions,
/// GPX 1.0's `speed` and `course`). Each value is optional: a missing reading is never a zero.
public struct SensorReadings: Hashable, Sendable {
    /// Heart rate in beats per minute.
    public var heartRate: Double?
    /// Cadence in revolutions (or steps) per minute.
    public var cadence: Double?
    /// Air temperature in degrees Celsius.
    public var airTemperature: Double?
    /// Water temperature in degrees Celsius.
    public var waterTemperature: Double?
    /// Depth in metres.
    public var depth: Double?
    /// Speed in metres per second, as the device measured it.
    public var speed: Double?
    /// Course over ground in degrees clockwise from true north.
    public var course: Double?
    /// Power in watts.
    public var power: Double?

    public init(
        heartRate: Double? = nil, cadence: Double? = nil, airTemperature: Double? = nil,
        waterTemperature: Double? = nil, depth: Double? = nil, speed: Double? = nil, course: Double? = nil,
        power: Double? = nil
    ) {
        self.heartRate = heartRate
        self.cadence = cadence
        self.airTemperature = airTemperature
        self.waterTemperature = waterTemperature
        self.depth = depth
        self.speed = speed
        self.course = course
        self.power = power
    }

    /// True when no sensor value is present.
    public var isEmpty: Bool { self == SensorReadings() }

    /// The kinds of reading, in the order they are written.
    public enum Kind: CaseIterable, Sendable {
        case heartRate, cadence, airTemperature, waterTemperature, depth, speed, course, power
    }

    /// The value of one kind of reading.
    public subscript(kind: Kind) -> Double? {
        get {
            switch kind {
            case .heartRate: heartRate
            case .cadence: cadence
            case .airTemperature: airTemperature
            case .waterTemperature: waterTemperature
            case .depth: depth
            case .speed: speed
            case .course: course
            case .power: power
            }
        }
        set {
            switch kind {
            case .heartRate: heartRate = newValue
            case .cadence: cadence = newValue
            case .airTemperature: airTemperature = newValue
            case .waterTemperature: waterTemperature = newValue
            case .depth: depth = newValue
            case .speed: speed = newValue
            case .course: course = newValue
            case .power: power = newValue
            }
        }
    }
}
