/// The numbers of a whole document: each track, each route, and the total of the tracks (or of the routes,
/// for a file that holds only planned routes).
public struct DocumentStatistics: Hashable, Sendable {
    /// One per track, in file order.
    public var tracks: [TrackStatistics]
    /// One per route, in file order.
    public var routes: [TrackStatistics]
    /// The total of the document's lines: its tracks, or its routes when no track has a point.
    public var total: TrackStatistics
}

// The same questions at every level (length, ascent, bounds, times), answered by ``StatisticsCollector``.

extension TrackSegment {
    /// The segment's numbers: length on WGS84, ascent and descent with `method`, elevations, times, speeds.
    public func statistics(method: AscentMethod = .standard) -> TrackStatistics {
        Track(segments: [self]).statistics(method: method)
    }
}

extension Track {
    /// The track's numbers, summed within segments and never across a break; ascent and descent with `method`.
    public func statistics(method: AscentMethod = .standard) -> TrackStatistics {
        let collector = StatisticsCollector(method: method)
        collector.measure(self)
        return collector.tracks[0]
    }
}

extension Route {
    /// The route's numbers, as those of a track of one segment.
    public func statistics(method: AscentMethod = .standard) -> TrackStatistics {
        let collector = StatisticsCollector(method: method)
        collector.beginRoute()
        for point in points { collector.routePoint(point) }
        collector.endRoute(details)
        return collector.routes[0]
    }
}

extension GPXDocument {
    /// The numbers of every track and route, and their total.
    public func statistics(method: AscentMethod = .standard) -> DocumentStatistics {
        let tracks = tracks.map { $0.statistics(method: method) }
        let routes = routes.map { $0.statistics(method: method) }
        let linesAreRoutes = !tracks.contains { $0.points > 0 } && !routes.isEmpty
        return DocumentStatistics(
            tracks: tracks, routes: routes, total: TrackStatistics.total(of: linesAreRoutes ? routes : tracks))
    }
}

extension StatisticsCollector {
    /// Feeds a whole track through the collector, as a reader would; the points at `recorded` (positions among
    /// the track's points counted across its segments, ascending; an entry out of order is passed over) kept
    /// recorded elevations among a model's.
    func measure(_ track: Track, recorded: [Int] = []) {
        beginTrack()
        var position = 0
        var next = recorded.startIndex
        for segment in track.segments {
            beginSegment()
            for point in segment.points {
                // Past entries out of order or repeated, then this point's.
                while next < recorded.endIndex && recorded[next] < position { next += 1 }
                if next < recorded.endIndex && recorded[next] == position { recordedElevationKept() }
                trackPoint(point)
                position += 1
            }
            endSegment()
        }
        endTrack(track.details)
    }
}
