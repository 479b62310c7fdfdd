import RouteKit
import Testing

@Suite struct TrackStatisticsTests {
    @Test func summarisesATrackAndNeverSumsAcrossSegmentBreaks() throws {
        let collector = StatisticsCollector()
        try GPXReader().read(bytes: Fixture.bytes("garmin-tpe.gpx"), handler: collector)
        let s = try #require(collector.tracks.first)
        #expect(s.name == "Vršič loop")
        #expect(s.points == 6)
        #expect(s.segments == 3)
        let steps = [
            (Coordinate(latitude: 46.4856123456789, longitude: 13.7856987654321), Coordinate(latitude: 46.4857, longitude: 13.7858)),
            (Coordinate(latitude: 46.4857, longitude: 13.7858), Coordinate(latitude: 46.4858, longitude: 13.786)),
            (Coordinate(latitude: 46.5, longitude: 13.8), Coordinate(latitude: 46.5001, longitude: 13.8001)),
        ]
        let expected = steps.reduce(0.0) { $0 + $1.0.distance(to: $1.1) }
        #expect(abs(s.length2DMeters - expected) < 1e-6)
        #expect(s.length3DMeters >= s.length2DMeters)
        #expect(s.minElevationMeters == 700)
        #expect(s.maxElevationMeters == 1611.5)
        #expect(s.startTime?.description == "2026-07-04T07:00:00.250Z")
        #expect(s.endTime?.description == "2026-07-04T08:30:01Z")
        // Within segments only: 2.75 s in the first (07:00:00.25 to 07:00:03) and 1 s in the second.
        #expect(s.durationSeconds == 3.75)
        #expect(s.bounds == Bounds(west: 13.7856987654321, south: 46.4856123456789, east: 13.9, north: 46.6))
    }

    @Test func totalsAddUpAndKeepExtremes() {
        var a = TrackStatistics(name: "a")
        a.points = 10
        a.length2DMeters = 1000
        a.movingTimeSeconds = 100
        a.minElevationMeters = 300
        a.maxElevationMeters = 500
        var b = TrackStatistics(name: "b")
        b.points = 5
        b.length2DMeters = 3000
        b.movingTimeSeconds = 300
        b.minElevationMeters = 200
        let total = TrackStatistics.total(of: [a, b])
        #expect(total.points == 15)
        #expect(total.length2DMeters == 4000)
        #expect(total.averageSpeedMetersPerSecond == 10)
        #expect(total.minElevationMeters == 200)
        #expect(total.maxElevationMeters == 500)
        #expect(total.startTime == nil)
    }
}
