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
                azimuthDegrees: Double.random(in: 0..<360, using: &random), distanceMeters: Double.random(in: 0...9000, using: &random))
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
        let track = (0...1000).map { Geodesic.wgs84.destination(from: start, azimuthDegrees: 90, distanceMeters: Double($0) * 3) }
        let beside = Geodesic.wgs84.destination(from: Geodesic.wgs84.destination(from: start, azimuthDegrees: 90, distanceMeters: 1501.5),
                                                azimuthDegrees: 0, distanceMeters: 250)
        let match = TrackCorridor(points: track).place(beside)
        #expect(abs(match.distanceMeters - 250) < 0.05)
        #expect(abs(match.alongMeters - 1501.5) < 0.5)
    }
}
