/// A whole GPX file in memory: its waypoints, routes and tracks, in file order.
///
/// For large files prefer streaming with ``GPXReader`` and a ``GPXHandler``; this type is for the sizes
/// that fit in memory comfortably (a stage, a set of control points).
public struct GPXDocument: Hashable, Sendable {
    /// The waypoints (GPX `wpt`).
    public var waypoints: [Waypoint]
    /// The routes (GPX `rte`).
    public var routes: [Route]
    /// The tracks (GPX `trk`).
    public var tracks: [Track]

    public init(waypoints: [Waypoint] = [], routes: [Route] = [], tracks: [Track] = []) {
        self.waypoints = waypoints
        self.routes = routes
        self.tracks = tracks
    }
}
