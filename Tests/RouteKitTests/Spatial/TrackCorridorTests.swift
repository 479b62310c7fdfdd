import Foundation
import RouteKit
import Testing

@Suite struct TrackCorridorTests {
    @Test func findsWhatABruteForceScanOfADenseTrackFinds() {
        // A winding 20 km track of 2 m steps, and positions scattered around it.
        var track: [Coordinate] = [Coordinate(latitude: 49.1951, longitude: 16.6068)]
        var heading = 300.0
        for k in 0..<10_000 {
            heading += 8 * sin(Double(k) / 400)
            track.append(Geodesic.wgs84.destination(from: track.last!, azimuthDegrees: heading, distanceMeters: 2))
        }
        var random = SeededRandom(state: 42)
        let positions = (0..<300).map { _ in
            Geodesic.wgs84.destination(
                from: track[Int.random(in: 0..<track.count, using: &random)],
                azimuthDegrees: Double.random(in: 0..<360, using: &random),
                distanceMeters: Double.random(in: 0...9000, using: &random))
        }
        let corridor = TrackCorridor(points: track)
        let found = corridor.positions(within: 5000, among: GeodesicIndex(positions), coordinates: positions)
        // Brute force: nearest track point (2 m steps: at most 1 m farther than the track itself).
        var expected = Set<Int>()
        var uncertain = Set<Int>()
        for (i, p) in positions.enumerated() {
            let d = track.lazy.map { Geodesic.wgs84.stepDistance(from: p, to: $0) }.min()!
            if d <= 5000 { expected.insert(i) }
            if abs(d - 5000) <= 1 { uncertain.insert(i) }
        }
        #expect(Set(found.map(\.index)).symmetricDifference(expected).isSubset(of: uncertain))
        #expect(found.map(\.alongMeters) == found.map(\.alongMeters).sorted())
        #expect(found.allSatisfy { $0.distanceMeters <= 5000 && $0.alongMeters <= corridor.lengthMeters + 1e-6 })
    }

    @Test func placesAPositionBesideTheTrack() throws {
        let start = Coordinate(latitude: 50, longitude: 14)
        let track = (0...1000).map {
            Geodesic.wgs84.destination(from: start, azimuthDegrees: 90, distanceMeters: Double($0) * 3)
        }
        let beside = Geodesic.wgs84.destination(
            from: Geodesic.wgs84.destination(from: start, azimuthDegrees: 90, distanceMeters: 1501.5),
            azimuthDegrees: 0, distanceMeters: 250)
        let match = TrackCorridor(points: track).place(beside)
        #expect(abs(match.distanceMeters - 250) < 0.05)
        #expect(abs(match.alongMeters - 1501.5) < 0.5)
    }

    /// Two segments along the meridian 14° E: 46.00°–46.03° N, then, after a gap of about 5.6 km,
    /// 46.08°–46.11° N.
    static func twoSegments() -> Track {
        func segment(from latitude: Double) -> TrackSegment {
            TrackSegment(
                points: (0...300).map {
                    TrackPoint(coordinate: Coordinate(latitude: latitude + Double($0) * 0.0001, longitude: 14))
                })
        }
        return Track(segments: [segment(from: 46.0), TrackSegment(), segment(from: 46.08)])
    }

    @Test func distanceAlongNeverCountsTheGapBetweenSegments() {
        let track = Self.twoSegments()
        let first = Coordinate(latitude: 46.0, longitude: 14).distance(to: Coordinate(latitude: 46.03, longitude: 14))
        let intoSecond = Coordinate(latitude: 46.08, longitude: 14).distance(
            to: Coordinate(latitude: 46.083, longitude: 14))
        // A control point 20 m east of the second segment, 0.003° into it.
        let point = Geodesic.wgs84.destination(
            from: Coordinate(latitude: 46.083, longitude: 14), azimuthDegrees: 90, distanceMeters: 20)
        let match = TrackCorridor(track: track).place(point)
        #expect(abs(match.alongMeters - (first + intoSecond)) < 0.01)
        #expect(abs(match.distanceMeters - 20) < 0.01)
        // The profile measures the same distance, and places the point there.
        let profile = ElevationProfile(track: track)
        #expect(abs((profile.place(point)?.alongMeters ?? 0) - (first + intoSecond)) < 0.01)
        #expect(abs((profile.positions.last?.distanceMeters ?? 0) - TrackCorridor(track: track).lengthMeters) < 1e-6)
        let second = Coordinate(latitude: 46.08, longitude: 14).distance(to: Coordinate(latitude: 46.11, longitude: 14))
        #expect(abs(TrackCorridor(track: track).lengthMeters - (first + second)) < 0.01)
        // A position beside the gap is nearest an end of a segment, never on the gap itself.
        let beside = Geodesic.wgs84.destination(
            from: Coordinate(latitude: 46.055, longitude: 14), azimuthDegrees: 90, distanceMeters: 10)
        let gapMatch = TrackCorridor(track: track).place(beside)
        #expect(gapMatch.distanceMeters > 2700)
        // Found in a search too, at the same place along the track.
        let found = TrackCorridor(track: track).positions(
            within: 100, among: GeodesicIndex([point]), coordinates: [point])
        #expect(found.count == 1 && abs(found[0].alongMeters - match.alongMeters) < 1e-9)
    }

    @Test func placesPositionsOnTheNearestOfSeveralTracks() {
        let track = Self.twoSegments()
        let other = Track(segments: [
            TrackSegment(
                points: (0...100).map {
                    TrackPoint(coordinate: Coordinate(latitude: 46.0 + Double($0) * 0.0001, longitude: 14.1))
                })
        ])
        let corridors = [TrackCorridor(track: track), TrackCorridor(track: other)]
        let positions = [
            Coordinate(latitude: 46.005, longitude: 14.0002),  // beside the first track
            Coordinate(latitude: 46.005, longitude: 14.0999),  // beside the second
            Coordinate(latitude: 40, longitude: 10),  // near neither
        ]
        let placed = Placement.place(positions, on: corridors, searchMeters: 1_000)
        #expect(placed.map(\.line) == [0, 1, 0])
        #expect(placed.map(\.index) == [0, 1, 2])
        #expect(placed[0].offTrackMeters < 20 && placed[1].offTrackMeters < 10)
        #expect(placed[2].offTrackMeters == .infinity)
        // Without a search distance every track is measured.
        #expect(Placement.place([positions[2]], on: corridors)[0].offTrackMeters > 600_000)
    }
}
