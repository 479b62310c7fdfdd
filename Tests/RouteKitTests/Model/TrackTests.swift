import RouteKit
import Testing

@Suite struct TrackTests {
    @Test func theStartTimeIsTheFirstTimeInAnySegment() {
        let untimed = TrackPoint(coordinate: Coordinate(latitude: 46, longitude: 14))
        let timed = TrackPoint(
            coordinate: Coordinate(latitude: 46, longitude: 14), time: Timestamp("2026-05-01T08:00:00+02:00"))
        let later = TrackPoint(
            coordinate: Coordinate(latitude: 46, longitude: 14), time: Timestamp("2026-05-01T09:00:00Z"))
        let track = Track(
            details: Details(name: "Etapa 7"),
            segments: [
                TrackSegment(points: [untimed, untimed]), TrackSegment(points: [untimed, timed, later]),
            ])
        #expect(track.startTime == Timestamp("2026-05-01T08:00:00+02:00"))
        #expect(track.startTime?.secondsSinceEpoch == 1_777_615_200)  // 06:00 UTC on 1 May 2026
        #expect(track.name == "Etapa 7")
        #expect(Track(segments: [TrackSegment(points: [untimed])]).startTime == nil)
    }

    @Test func aRoutesNameIsItsDetailsName() {
        #expect(Route(details: Details(name: "Pot"), points: []).name == "Pot")
        #expect(
            Waypoint(coordinate: Coordinate(latitude: 0, longitude: 0), details: Details(name: "KT 1")).name == "KT 1")
    }
}
