/// Receives the content of a GPX file as ``GPXReader`` streams through it, in file order.
///
/// A point is delivered as soon as its element ends; the details of a track or route (name, description,
/// …) come with its end, since GPX lets them stand anywhere among its children. Errors thrown here stop
/// the reading and come out of ``GPXReader/read(_:handler:)``. Every method has an empty default.
public protocol GPXHandler: AnyObject {
    /// A waypoint (`wpt`).
    func waypoint(_ waypoint: Waypoint) throws
    /// A route (`rte`) begins.
    func beginRoute() throws
    /// A route point (`rtept`) of the current route.
    func routePoint(_ point: Waypoint) throws
    /// The current route ends; `details` are its name, description and so on.
    func endRoute(_ details: Details) throws
    /// A track (`trk`) begins.
    func beginTrack() throws
    /// A segment (`trkseg`) of the current track begins.
    func beginSegment() throws
    /// A fix (`trkpt`) of the current segment.
    func trackPoint(_ point: TrackPoint) throws
    /// The current segment ends.
    func endSegment() throws
    /// The current track ends; `details` are its name, description and so on.
    func endTrack(_ details: Details) throws
    /// The next point of the current track or route keeps its recorded elevation where others take an elevation
    /// model's (which does not cover it): its elevation is not exact. Sent by ``ElevationModelHandler``.
    func recordedElevationKept() throws
}

extension GPXHandler {
    public func waypoint(_ waypoint: Waypoint) throws {}
    public func beginRoute() throws {}
    public func routePoint(_ point: Waypoint) throws {}
    public func endRoute(_ details: Details) throws {}
    public func beginTrack() throws {}
    public func beginSegment() throws {}
    public func trackPoint(_ point: TrackPoint) throws {}
    public func endSegment() throws {}
    public func endTrack(_ details: Details) throws {}
    public func recordedElevationKept() throws {}
}

/// A handler that gathers a whole ``GPXDocument`` in memory.
public final class GPXDocumentBuilder: GPXHandler {
    /// What has been read so far.
    public private(set) var document = GPXDocument()
    private var route = Route()
    private var track = Track()
    private var segment = TrackSegment()

    public init() {}

    public func waypoint(_ waypoint: Waypoint) { document.waypoints.append(waypoint) }
    public func beginRoute() { route = Route() }
    public func routePoint(_ point: Waypoint) { route.points.append(point) }
    public func endRoute(_ details: Details) {
        route.details = details
        document.routes.append(route)
    }
    public func beginTrack() { track = Track() }
    public func beginSegment() { segment = TrackSegment() }
    public func trackPoint(_ point: TrackPoint) { segment.points.append(point) }
    public func endSegment() { track.segments.append(segment) }
    public func endTrack(_ details: Details) {
        track.details = details
        document.tracks.append(track)
    }
}
