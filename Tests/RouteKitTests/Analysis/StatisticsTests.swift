import Foundation
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

    /// The smoothing reported for a track is the one of its longest segment (it used to be compared with the
    /// sum of the segments before it): segments of 100, 600 and 650 points with different noise.
    @Test func theParametersReportedAreThoseOfTheLongestSegment() throws {
        var random = SeededRandom(state: 7)
        func segment(_ count: Int, noise: Double, from latitude: Double) -> TrackSegment {
            TrackSegment(
                points: (0..<count).map { k in
                    let hill = 40 * sin(Double(k) / 50)
                    return TrackPoint(
                        coordinate: Coordinate(latitude: latitude + Double(k) * 0.00005, longitude: 14),
                        elevation: 500 + hill + Double.random(in: -noise...noise, using: &random))
                })
        }
        let parts = [
            segment(100, noise: 0.1, from: 46), segment(600, noise: 2, from: 46.1), segment(650, noise: 6, from: 46.2),
        ]
        let whole = Track(segments: parts).statistics()
        let longest = try #require(parts[2].statistics().ascent)
        // Equal but for rounding: the whole track's distances run on from the earlier segments.
        let noise = try #require(whole.ascent?.noiseMeters)
        #expect(abs(noise - longest.noiseMeters) < 1e-9)
        #expect(abs((whole.ascent?.smoothingMeters ?? 0) - longest.smoothingMeters) < 1e-9)
        let middle = try #require(parts[1].statistics().ascent?.noiseMeters)
        #expect(abs(noise - middle) > 0.5)
    }
}
