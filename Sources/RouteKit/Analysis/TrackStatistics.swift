/// The numbers of one track (or of several together): length, climbing, elevation, time and speed.
/// Every value that the data cannot give is nil, never zero.
public struct TrackStatistics: Hashable, Sendable {
    /// The track's name, if it has one.
    public var name: String?
    /// Points with a usable position.
    public var points = 0
    /// Segments with at least one point.
    public var segments = 0
    /// Length on the WGS84 ellipsoid in metres, summed within segments (never across a break).
    public var length2DMeters = 0.0
    /// Length counting the elevation difference where both points of a step have one, metres.
    public var length3DMeters = 0.0
    /// Metres climbed and descended, with the noise estimate and the parameters used; nil without elevations.
    public var ascent: AscentDescent?
    /// Lowest elevation of a point, metres.
    public var minElevationMeters: Double?
    /// Highest elevation of a point, metres.
    public var maxElevationMeters: Double?
    /// The earliest time of a fix (the first, unless times go back).
    public var startTime: Timestamp?
    /// The latest time of a fix (the last, unless times go back).
    public var endTime: Timestamp?
    /// Seconds from the first to the last time within each segment, summed over segments: the sum of the
    /// steps forward in time (a step back adds nothing). Nil when the times cannot be a recording's
    /// (``timeProblem``).
    public var durationSeconds: Double?
    /// Seconds spent moving: the intervals between consecutive fixes whose average speed is at least
    /// ``TrackStatistics/movingSpeedMetersPerSecond``.
    public var movingTimeSeconds: Double?
    /// The length covered between timed fixes (``timedLengthMeters``) divided by moving time, metres per second: on a
    /// track with fixes or segments without times, their length does not count.
    public var averageSpeedMetersPerSecond: Double?
    /// The highest average speed over any stretch of at least ``TrackStatistics/maximumSpeedWindowSeconds``,
    /// metres per second (shorter stretches are dominated by GPS jitter).
    public var maxSpeedMetersPerSecond: Double?
    /// The steepest climb, in percent, over any stretch of at least ``TrackStatistics/gradeWindowMeters``
    /// of the smoothed elevations.
    public var steepestClimbPercent: Double?
    /// The steepest descent, in percent (negative), over any stretch of at least the same length.
    public var steepestDescentPercent: Double?
    /// West, south, east, north in degrees.
    public var bounds: Bounds?
    /// The climbs, in order along the track (``Climb/find(distances:elevations:coordinate:)``); none for a
    /// total of several tracks.
    public var climbs: [Climb] = []
    /// Steps from one timed fix to the next timed fix of its segment.
    public var timeSteps = 0
    /// Of those, the steps whose time goes back (tracks joined from recordings of different days).
    public var backwardTimeSteps = 0
    /// The largest step back in time, seconds (0 when none).
    public var largestBackwardStepSeconds = 0.0
    /// Metres covered by the steps forward in time (for the speed the times imply).
    public var timedLengthMeters = 0.0

    /// Why the times cannot be a recording's, if they cannot; then duration, moving time and speeds are nil.
    public var timeProblem: TimeProblem?

    /// Looks at the times as measured (``timeSteps``, steps back, the duration over the length timed) and,
    /// when they cannot be a recording's, sets ``timeProblem`` and leaves out the time-based values.
    mutating func checkTimes() {
        timeProblem = diagnosedTimeProblem
        if timeProblem != nil { leaveOutTimeBasedValues() }
    }

    private var diagnosedTimeProblem: TimeProblem? {
        if Double(backwardTimeSteps) > Self.maximumBackwardTimeStepShare * Double(timeSteps) {
            return .goBack(steps: backwardTimeSteps, of: timeSteps)
        }
        if largestBackwardStepSeconds > Self.largestBackwardStepSeconds {
            return .jumpBack(seconds: largestBackwardStepSeconds)
        }
        // A second more than measured: devices write whole seconds, so two fixes a few metres apart may share one.
        if let duration = durationSeconds,
            timedLengthMeters > Self.fastestPlausibleSpeedMetersPerSecond * (max(duration, 0) + 1)
        {
            return .tooFast(meters: timedLengthMeters, seconds: max(duration, 0))
        }
        return nil
    }

    /// The share of steps whose time may go back (a device's glitches) before time-based values are left
    /// out: 1 %.
    public static let maximumBackwardTimeStepShare = 0.01
    /// A step back in time longer than this (an hour) joins recordings out of order: time-based values are
    /// left out.
    public static let largestBackwardStepSeconds = 3_600.0
    /// Times that put the track's length into less time than sound would take (343 m/s, with a second to
    /// spare for times written in whole seconds) are not a recording's (a mapping program writes the moment a
    /// point was drawn): time-based values are left out.
    public static let fastestPlausibleSpeedMetersPerSecond = 343.0

    /// Sets duration, moving time and speeds to nil.
    mutating func leaveOutTimeBasedValues() {
        durationSeconds = nil
        movingTimeSeconds = nil
        averageSpeedMetersPerSecond = nil
        maxSpeedMetersPerSecond = nil
    }

    /// Slower than this (0.5 m/s, 1.8 km/h) between two fixes counts as standing still.
    public static let movingSpeedMetersPerSecond = 0.5
    /// The shortest stretch over which the maximum speed is taken, seconds.
    public static let maximumSpeedWindowSeconds = 10.0
    /// The shortest stretch over which grades are taken, metres.
    public static let gradeWindowMeters = 100.0

    public init(name: String? = nil) {
        self.name = name
    }

    /// The sum of several tracks: counts, lengths, climbing and times add up; extremes are the extremes of
    /// all; the elevation jumps are all the parts' (each at its distance along its own line); the average speed is
    /// the total length timed over the total moving time. Time-based values are nil when they are nil for a part whose
    /// times go back.
    public static func total(of parts: [TrackStatistics]) -> TrackStatistics {
        var total = TrackStatistics()
        for part in parts {
            total.timeSteps += part.timeSteps
            total.backwardTimeSteps += part.backwardTimeSteps
            total.largestBackwardStepSeconds = max(total.largestBackwardStepSeconds, part.largestBackwardStepSeconds)
            total.timedLengthMeters += part.timedLengthMeters
            total.points += part.points
            total.segments += part.segments
            total.length2DMeters += part.length2DMeters
            total.length3DMeters += part.length3DMeters
            if let a = part.ascent {
                var sum = total.ascent ?? AscentDescent()
                sum.ascentMeters += a.ascentMeters
                sum.descentMeters += a.descentMeters
                sum.noiseMeters = max(sum.noiseMeters, a.noiseMeters)
                sum.elevationJumps += a.elevationJumps
                sum.elevationSettlings += a.elevationSettlings
                total.ascent = sum
            }
            total.minElevationMeters = minimum(total.minElevationMeters, part.minElevationMeters)
            total.maxElevationMeters = maximum(total.maxElevationMeters, part.maxElevationMeters)
            if let s = part.startTime, total.startTime.map({ s < $0 }) ?? true { total.startTime = s }
            if let e = part.endTime, total.endTime.map({ e > $0 }) ?? true { total.endTime = e }
            total.durationSeconds = add(total.durationSeconds, part.durationSeconds)
            total.movingTimeSeconds = add(total.movingTimeSeconds, part.movingTimeSeconds)
            total.maxSpeedMetersPerSecond = maximum(total.maxSpeedMetersPerSecond, part.maxSpeedMetersPerSecond)
            total.steepestClimbPercent = maximum(total.steepestClimbPercent, part.steepestClimbPercent)
            total.steepestDescentPercent = minimum(total.steepestDescentPercent, part.steepestDescentPercent)
            if let b = part.bounds { total.bounds = total.bounds.map { $0.union(b) } ?? b }
        }
        if let problem = parts.lazy.compactMap(\.timeProblem).first {
            total.timeProblem = problem
            total.leaveOutTimeBasedValues()
        } else if let moving = total.movingTimeSeconds, moving > 0 {
            total.averageSpeedMetersPerSecond = total.timedLengthMeters / moving
        }
        return total
    }

    private static func add(_ a: Double?, _ b: Double?) -> Double? { b.map { (a ?? 0) + $0 } ?? a }
    private static func minimum(_ a: Double?, _ b: Double?) -> Double? { b.map { min(a ?? $0, $0) } ?? a }
    private static func maximum(_ a: Double?, _ b: Double?) -> Double? { b.map { max(a ?? $0, $0) } ?? a }
}

/// A bounding box in degrees.
public struct Bounds: Hashable, Sendable {
    /// Longitudes and latitudes of the edges, degrees.
    public var west: Double
    public var south: Double
    public var east: Double
    public var north: Double

    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// A box around one point.
    public init(_ c: Coordinate) {
        self.init(west: c.longitude, south: c.latitude, east: c.longitude, north: c.latitude)
    }

    /// The smallest box holding both.
    public func union(_ other: Bounds) -> Bounds {
        Bounds(
            west: min(west, other.west), south: min(south, other.south), east: max(east, other.east),
            north: max(north, other.north))
    }

    /// Grows the box to hold `c`.
    public mutating func include(_ c: Coordinate) {
        west = min(west, c.longitude)
        east = max(east, c.longitude)
        south = min(south, c.latitude)
        north = max(north, c.latitude)
    }
}

/// Why a track's times cannot be a recording's.
public enum TimeProblem: Hashable, Sendable, CustomStringConvertible {
    /// Times go back in more than 1 % of the steps.
    case goBack(steps: Int, of: Int)
    /// A step goes back by more than an hour: recordings joined out of order.
    case jumpBack(seconds: Double)
    /// The times put `meters` into `seconds`, faster than sound.
    case tooFast(meters: Double, seconds: Double)

    public var description: String {
        func fixed(_ v: Double) -> String { DecimalText.string(v, precision: 1) }
        switch self {
        case let .goBack(steps, total):
            return
                "times go back in \(steps) of \(total) steps "
                + "(\(fixed(100 * Double(steps) / Double(max(total, 1)))) %), "
                + "as in tracks joined from recordings of different days"
        case .jumpBack(let seconds):
            let span = seconds >= 86_400 ? "\(fixed(seconds / 86_400)) days" : "\(fixed(seconds / 3_600)) hours"
            return "times jump back by \(span), as in tracks joined from recordings of different days"
        case let .tooFast(meters, seconds):
            return "the times put \(fixed(meters / 1000)) km into \(fixed(seconds)) s: they are not a recording's "
                + "(mapping programs write when a point was drawn)"
        }
    }
}
