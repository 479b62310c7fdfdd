import Glibc

/// Positions near a track: for each, its distance from the track and how far along the track its nearest
/// point is.
///
/// Distance along a track has one meaning in RouteKit, the one of its elevation profile: it runs on across
/// a break between segments without counting the gap (the gap is no road ridden). A position is placed on
/// the nearest step within a segment, never on the gap between two.
///
/// The track's points go into their own ``GeodesicIndex``. Track points are sampled at least every h = R/4
/// along the track; every point of the track lies within h + g (g: the longest step) of the last sample
/// before it, so a position within R of the track lies within R + h + g of a sample and is a candidate.
/// Each candidate's nearest track point is found exactly by geodesic distance, then refined onto the steps
/// either side of it (projected in a local plane: for the steps of a recorded track, metres long, the
/// error is far below a millimetre).
public struct TrackCorridor: Sendable {
    /// A position near the track.
    public struct Match: Hashable, Sendable {
        /// Index of the position in the array searched.
        public var index: Int
        /// Distance from the track, metres.
        public var distanceMeters: Double
        /// Distance along the track to the track's point nearest the position, metres.
        public var alongMeters: Double
    }

    private let points: [Coordinate]
    private let along: [Double]
    /// True at the first point of every segment after the first: the step that ends there is a gap.
    private let startsSegment: [Bool]
    private let index: GeodesicIndex
    /// The box around the points, west/south/east/north in degrees; nil without points.
    private let box: (west: Double, south: Double, east: Double, north: Double)?

    /// A corridor around the line through `points`, in order; the segments start at `segmentStarts` (indices
    /// into `points`; one segment when empty or `[0]`).
    public init(points: [Coordinate], segmentStarts: [Int] = []) {
        self.points = points
        var starts = [Bool](repeating: false, count: points.count)
        for i in segmentStarts where i > 0 && i < points.count { starts[i] = true }
        var along = [Double](repeating: 0, count: points.count)
        for i in points.indices.dropFirst() {
            along[i] = along[i - 1] + (starts[i] ? 0 : Geodesic.wgs84.stepDistance(from: points[i - 1], to: points[i]))
        }
        self.along = along
        startsSegment = starts
        index = GeodesicIndex(points)
        box =
            points.isEmpty
            ? nil
            : (
                points.map(\.longitude).min() ?? 0, points.map(\.latitude).min() ?? 0,
                points.map(\.longitude).max() ?? 0, points.map(\.latitude).max() ?? 0
            )
    }

    /// False when `c` is certainly further than `meters` from every point of the track: outside the track's
    /// box grown by that distance (a degree of latitude is at least 110.5 km, one of longitude at least that
    /// times cos φ). True does not mean near.
    package func mayBeWithin(_ meters: Double, of c: Coordinate) -> Bool {
        guard let box else { return false }
        let dLat = meters / 110_500
        let dLon = dLat / max(cos(max(abs(box.south), abs(box.north)) * .pi / 180), 0.01)
        return c.latitude >= box.south - dLat && c.latitude <= box.north + dLat
            && c.longitude >= box.west - dLon && c.longitude <= box.east + dLon
    }

    /// A corridor around `track`, its segments kept apart (empty segments are passed over).
    public init(track: Track) {
        self.init(segments: track.segments.map { $0.points.map(\.coordinate) })
    }

    /// A corridor around a line of `segments`, kept apart (empty segments are passed over).
    public init(segments: [[Coordinate]]) {
        var points: [Coordinate] = []
        var starts: [Int] = []
        for segment in segments where !segment.isEmpty {
            starts.append(points.count)
            points += segment
        }
        self.init(points: points, segmentStarts: starts)
    }

    /// True when the step from point `j` to point `j + 1` is a step of the track, not a gap between segments.
    private func isStep(_ j: Int) -> Bool { j >= 0 && j + 1 < points.count && !startsSegment[j + 1] }

    /// The length of the track, metres.
    public var lengthMeters: Double { along.last ?? 0 }

    /// The positions of `candidates` within `radiusMeters` of the track, in order along the track.
    package func positions(
        within radiusMeters: Double, among candidates: GeodesicIndex, coordinates: [Coordinate]
    ) -> [Match] {
        guard !points.isEmpty else { return [] }
        let step = max(radiusMeters / 4, 1)
        var longestStep = 0.0
        for i in along.indices.dropFirst() { longestStep = max(longestStep, along[i] - along[i - 1]) }
        var seen = Set<Int>()
        var next = 0.0
        // Every segment's first and last point are samples too, so no stretch is longer than h between samples.
        for i in points.indices
        where along[i] >= next || i == points.count - 1 || startsSegment[i]
            || (i + 1 < points.count && startsSegment[i + 1])
        {
            next = along[i] + step
            for m in candidates.positions(within: radiusMeters + step + longestStep, of: points[i]) {
                seen.insert(m.index)
            }
        }
        var result: [Match] = []
        for i in seen {
            let match = place(coordinates[i], index: i)
            if match.distanceMeters <= radiusMeters { result.append(match) }
        }
        result.sort { ($0.alongMeters, $0.distanceMeters, $0.index) < ($1.alongMeters, $1.distanceMeters, $1.index) }
        return result
    }

    /// The nearest point of the track to `c`: its distance and its distance along the track.
    public func place(_ c: Coordinate, index i: Int = 0) -> Match {
        guard let nearest = index.nearest(1, to: c).first else {
            return Match(index: i, distanceMeters: .infinity, alongMeters: 0)
        }
        var best = Match(index: i, distanceMeters: nearest.distanceMeters, alongMeters: along[nearest.index])
        let k = nearest.index
        for j in [k - 1, k] where isStep(j) {
            let a = points[j]
            let b = points[j + 1]
            let scale = cos(c.latitude * .pi / 180)
            let ax = (a.longitude - c.longitude) * scale, ay = a.latitude - c.latitude
            let bx = (b.longitude - c.longitude) * scale, by = b.latitude - c.latitude
            let vx = bx - ax, vy = by - ay
            let length2 = vx * vx + vy * vy
            guard length2 > 0 else { continue }
            let t = max(0, min(1, -(ax * vx + ay * vy) / length2))
            guard t > 0 && t < 1 else { continue }
            let foot = Coordinate(
                latitude: a.latitude + t * (b.latitude - a.latitude),
                longitude: a.longitude + t * (b.longitude - a.longitude))
            let d = c.distance(to: foot)
            if d < best.distanceMeters {
                best = Match(index: i, distanceMeters: d, alongMeters: along[j] + t * (along[j + 1] - along[j]))
            }
        }
        return best
    }
}

/// Where a position (a waypoint, a control point) lies on the nearest of several tracks.
public struct Placement: Hashable, Sendable {
    /// The position's index in the array placed.
    public var index: Int
    /// The index of the nearest track among those given.
    public var line: Int
    /// Distance along that track to the nearest point of it, metres (segment gaps not counted).
    public var alongMeters: Double
    /// Distance from that track, metres; infinity when the position is near none of the tracks given.
    public var offTrackMeters: Double

    /// Places each of `positions` on the nearest of `tracks`, in the order of `positions`. Tracks further than
    /// `searchMeters` are not measured (a position near none of them is off by infinity), which keeps placing
    /// a route's control points on its many stages cheap.
    public static func place(
        _ positions: [Coordinate], on tracks: [TrackCorridor], searchMeters: Double = .infinity
    ) -> [Placement] {
        positions.enumerated().map { i, c in
            var best = Placement(index: i, line: 0, alongMeters: 0, offTrackMeters: .infinity)
            for (k, track) in tracks.enumerated()
            where searchMeters.isInfinite || track.mayBeWithin(searchMeters, of: c) {
                let match = track.place(c, index: i)
                if match.distanceMeters < best.offTrackMeters {
                    best = Placement(
                        index: i, line: k, alongMeters: match.alongMeters, offTrackMeters: match.distanceMeters)
                }
            }
            return best
        }
    }
}
