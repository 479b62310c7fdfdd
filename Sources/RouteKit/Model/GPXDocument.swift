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
    /// The file's lines: its tracks when one of them has a point, else its routes, each a track of one segment
    /// (files that hold only a planned route). One rule for every command that draws or measures a file.
    public func lines() -> [Track] {
        if tracks.contains(where: { $0.segments.contains { !$0.points.isEmpty } }) || routes.isEmpty { return tracks }
        return routes.map { route in
            Track(
                details: route.details,
                segments: [
                    TrackSegment(
                        points: route.points.map {
                            TrackPoint(coordinate: $0.coordinate, elevation: $0.elevation, time: $0.time)
                        })
                ])
        }
    }

    /// The file's ``lines()`` as one track, their segments one after the other, named after the first.
    public func tracksElseRoutes() -> Track {
        let lines = lines()
        return Track(details: lines.first?.details ?? Details(), segments: lines.flatMap(\.segments))
    }
}
