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

extension GPXDocument {
    /// The file's line as one track: all its tracks' segments one after the other, or, when the tracks have no
    /// points, its routes, each route one segment (files that hold only a planned route). Named after the
    /// first track (or route).
    public func tracksElseRoutes() -> Track {
        var track = Track(details: tracks.first?.details ?? Details())
        for t in tracks { track.segments += t.segments }
        if track.segments.allSatisfy({ $0.points.isEmpty }) && !routes.isEmpty {
            track = Track(
                details: routes[0].details,
                segments: routes.map { route in
                    TrackSegment(
                        points: route.points.map {
                            TrackPoint(coordinate: $0.coordinate, elevation: $0.elevation, time: $0.time)
                        })
                })
        }
        return track
    }
}
