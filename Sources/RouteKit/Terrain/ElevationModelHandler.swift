/// Sets the elevations of the points streaming through it from an ``ElevationModel`` (as its ``mode`` says)
/// and hands everything on to `target`: waypoints, route points and track points alike.
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

    public init(
        model: ElevationModel, mode: ElevationModel.Mode = .replace, into target: GPXHandler,
        onNotCovered: ((Coordinate) throws -> Void)? = nil
    ) {
        self.model = model
        self.mode = mode
        self.target = target
        self.onNotCovered = onNotCovered
    }

    /// `elevation`, or the model's at `coordinate` as the mode says.
    private func elevation(_ elevation: Double?, at coordinate: Coordinate) throws -> Double? {
        guard mode == .replace || elevation == nil else { return elevation }
        let e = try model.elevation(at: coordinate)
        tally.count(e, at: coordinate)
        if let e { return e }
        try onNotCovered?(coordinate)
        return elevation
    }

    public func waypoint(_ waypoint: Waypoint) throws {
        var w = waypoint
        w.elevation = try elevation(w.elevation, at: w.coordinate)
        try target.waypoint(w)
    }
    public func beginRoute() throws { try target.beginRoute() }
    public func routePoint(_ point: Waypoint) throws {
        var p = point
        p.elevation = try elevation(p.elevation, at: p.coordinate)
        try target.routePoint(p)
    }
    public func endRoute(_ details: Details) throws { try target.endRoute(details) }
    public func beginTrack() throws { try target.beginTrack() }
    public func beginSegment() throws { try target.beginSegment() }
    public func trackPoint(_ point: TrackPoint) throws {
        var p = point
        p.elevation = try elevation(p.elevation, at: p.coordinate)
        try target.trackPoint(p)
    }
    public func endSegment() throws { try target.endSegment() }
    public func endTrack(_ details: Details) throws { try target.endTrack(details) }
}
