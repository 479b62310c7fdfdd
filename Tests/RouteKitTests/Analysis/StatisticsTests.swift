import RouteKit
import Testing

@Suite struct StatisticsTests {
    /// The same questions at every level: a segment, a track, a route and a document answer length, ascent,
    /// bounds and times alike, and the collector streaming the file agrees.
    @Test func aSegmentATrackARouteAndADocumentAnswerTheSameQuestions() throws {
        let document = try GPXReader().document(bytes: Fixture.bytes("garmin-tpe.gpx"))
        let track = try #require(document.tracks.first)
        let collector = StatisticsCollector()
        try GPXReader().read(bytes: Fixture.bytes("garmin-tpe.gpx"), handler: collector)
        #expect(track.statistics() == collector.tracks[0])
        let segments = track.segments.filter { !$0.points.isEmpty }.map { $0.statistics() }
        #expect(abs(segments.reduce(0) { $0 + $1.length2DMeters } - track.statistics().length2DMeters) < 1e-9)
        #expect(segments.allSatisfy { $0.segments == 1 })
        let whole = document.statistics()
        #expect(whole.tracks == collector.tracks && whole.routes == collector.routes)
        #expect(whole.total == TrackStatistics.total(of: collector.tracks))
        // A route is measured like a track of one segment.
        let route = Route(
            points: track.segments[0].points.map { Waypoint(coordinate: $0.coordinate, elevation: $0.elevation) })
        #expect(abs(route.statistics().length2DMeters - track.segments[0].statistics().length2DMeters) < 1e-9)
        let routesOnly = GPXDocument(routes: [route]).statistics()
        #expect(routesOnly.total.length2DMeters == route.statistics().length2DMeters)
    }
}
