/// A continuous run of fixes; a track is broken into segments where recording stopped (GPX `trkseg`).
public struct TrackSegment: Hashable, Sendable {
    /// The fixes, in recording order.
    public var points: [TrackPoint]

    public init(points: [TrackPoint] = []) {
        self.points = points
    }
}

/// A recorded track (GPX `trk`): its details and its segments.
public struct Track: Hashable, Sendable {
    /// Name, comment, description, links, type and number.
    public var details: Details
    /// The segments, in order. Lengths and other sums never run across a segment break.
    public var segments: [TrackSegment]

    public init(details: Details = Details(), segments: [TrackSegment] = []) {
        self.details = details
        self.segments = segments
    }

    /// The track's name, if it has one.
    public var name: String? { details.name }

    /// The time of the first fix that has one.
    public var startTime: Timestamp? {
        for segment in segments {
            for point in segment.points where point.time != nil { return point.time }
        }
        return nil
    }
}

/// A planned route (GPX `rte`): an ordered list of points to pass.
public struct Route: Hashable, Sendable {
    /// Name, comment, description, links, type and number.
    public var details: Details
    /// The route points, in order.
    public var points: [Waypoint]

    public init(details: Details = Details(), points: [Waypoint] = []) {
        self.details = details
        self.points = points
    }

    /// The route's name, if it has one.
    public var name: String? { details.name }
}
