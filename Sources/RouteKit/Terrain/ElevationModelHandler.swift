/// Sets the elevations of the points streaming through it from an ``ElevationModel`` (as its ``mode`` says)
/// and hands everything on to `target`: waypoints, route points and track points alike. Tells `target` before
/// each point of a track or route that keeps a recorded elevation (``GPXHandler/recordedElevationKept()``).
public final class ElevationModelHandler: GPXHandler {
    /// The model the elevations come from.
    public let model: ElevationModel
    /// Replace every elevation, or fill only the missing ones.
    public let mode: ElevationModel.Mode
    /// What happened so far.
    public private(set) var tally = ElevationModel.Tally()
    /// Called with a point the model does not cover, before it goes on with its own elevation; what it throws
    /// stops the reading (for a strict run).
    private let onNotCovered: ((Coordinate) throws -> Void)?
    private let target: GPXHandler
    /// Whether the current line has been counted for a recorded elevation it kept.
    private var recordedKept = false

    public init(
        model: ElevationModel, mode: ElevationModel.Mode = .replace, into target: GPXHandler,
        onNotCovered: ((Coordinate) throws -> Void)? = nil
    ) {
        self.model = model
        self.mode = mode
        self.target = target
        self.onNotCovered = onNotCovered
    }

    /// `elevation`, or the model's at `coordinate` as the mode says; `fromModel` tells which.
    private func elevation(
        _ elevation: Double?, at coordinate: Coordinate
    ) throws -> (elevation: Double?, fromModel: Bool) {
        guard mode == .replace || elevation == nil else { return (elevation, false) }
        let e = try model.elevation(at: coordinate)
        tally.count(e, at: coordinate)
        if let e { return (e, true) }
        try onNotCovered?(coordinate)
        return (elevation, false)
    }

    public func waypoint(_ waypoint: Waypoint) throws {
        var w = waypoint
        w.elevation = try elevation(w.elevation, at: w.coordinate).elevation
        try target.waypoint(w)
    }
    public func beginRoute() throws {
        recordedKept = false
        try target.beginRoute()
    }
    public func routePoint(_ point: Waypoint) throws {
        var p = point
        p.elevation = try lineElevation(p.elevation, at: p.coordinate)
        try target.routePoint(p)
    }
    public func endRoute(_ details: Details) throws { try target.endRoute(details) }
    public func beginTrack() throws {
        recordedKept = false
        try target.beginTrack()
    }
    public func beginSegment() throws { try target.beginSegment() }
    public func trackPoint(_ point: TrackPoint) throws {
        var p = point
        p.elevation = try lineElevation(p.elevation, at: p.coordinate)
        try target.trackPoint(p)
    }

    /// ``elevation(_:at:)`` for a point of a track or route, telling `target` when a recorded elevation stays.
    private func lineElevation(_ recorded: Double?, at coordinate: Coordinate) throws -> Double? {
        let (e, fromModel) = try elevation(recorded, at: coordinate)
        if !fromModel, e != nil {
            if !recordedKept { tally.linesKeepingRecordedElevations += 1 }
            recordedKept = true
            try target.recordedElevationKept()
        }
        return e
    }
    public func endSegment() throws { try target.endSegment() }
    /// Not passed on: whether the next point's elevation is recorded is this handler's to tell.
    public func recordedElevationKept() throws {}
    public func endTrack(_ details: Details) throws { try target.endTrack(details) }
}
