import RouteKit
import Testing

@Suite struct GPXDocumentTests {
    static func point(_ latitude: Double, elevation: Double? = nil, time: String? = nil) -> TrackPoint {
        TrackPoint(
            coordinate: Coordinate(latitude: latitude, longitude: 14), elevation: elevation,
            time: time.flatMap(Timestamp.init))
    }

    @Test func theTracksAreJoinedSegmentBySegmentUnderTheFirstTracksDetails() {
        let a = Track(details: Details(name: "a"), segments: [TrackSegment(points: [Self.point(1), Self.point(2)])])
        let b = Track(
            details: Details(name: "b"),
            segments: [TrackSegment(points: [Self.point(3)]), TrackSegment(points: [Self.point(4)])])
        let route = Route(
            details: Details(name: "r"), points: [Waypoint(coordinate: Coordinate(latitude: 9, longitude: 9))])
        let track = GPXDocument(routes: [route], tracks: [a, b]).tracksElseRoutes()
        #expect(track.name == "a")
        #expect(track.segments.map { $0.points.map(\.coordinate.latitude) } == [[1, 2], [3], [4]])
    }

    @Test func routesStandInWhenNoTrackHasAPoint() throws {
        let route1 = Route(
            details: Details(name: "Etapa 1", comment: "by road"),
            points: [
                Waypoint(
                    coordinate: Coordinate(latitude: 46, longitude: 14), elevation: 300,
                    time: Timestamp("2026-05-01T08:00:00Z")),
                Waypoint(coordinate: Coordinate(latitude: 46.1, longitude: 14)),
            ])
        let route2 = Route(
            details: Details(name: "Etapa 2"), points: [Waypoint(coordinate: Coordinate(latitude: 47, longitude: 15))])
        let empty = Track(details: Details(name: "empty"), segments: [TrackSegment()])
        let track = GPXDocument(routes: [route1, route2], tracks: [empty]).tracksElseRoutes()
        #expect(track.details == route1.details)
        #expect(track.segments.count == 2)
        let first = try #require(track.segments.first?.points.first)
        #expect(first.coordinate == Coordinate(latitude: 46, longitude: 14))
        #expect(first.elevation == 300)
        #expect(first.time == Timestamp("2026-05-01T08:00:00Z"))
        #expect(track.segments[0].points[1].elevation == nil)
        #expect(track.segments[1].points.map(\.coordinate) == [Coordinate(latitude: 47, longitude: 15)])
    }

    @Test func nothingGivesAnEmptyTrack() {
        let track = GPXDocument(waypoints: [Waypoint(coordinate: Coordinate(latitude: 1, longitude: 2))])
            .tracksElseRoutes()
        #expect(track.segments.isEmpty)
        #expect(track.details.isEmpty)
    }
}
