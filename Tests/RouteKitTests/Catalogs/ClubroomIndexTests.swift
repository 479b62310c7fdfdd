import RouteKit
import Testing

@Suite struct ClubroomIndexTests {
    /// Three clubrooms north of Brno's centre, 1, 2 and 30 km away, and one 5 km east.
    static let centre = Coordinate(latitude: 49.1951, longitude: 16.6068)
    static let rooms: [Clubroom] = [(0.0, 2_000.0), (0, 30_000), (90, 5_000), (0, 1_000)].enumerated().map { k, place in
        Clubroom(
            id: "\(k)", name: "Klubovna \(k)",
            coordinate: Geodesic.wgs84.destination(from: centre, azimuthDegrees: place.0, distanceMeters: place.1))
    }

    @Test func findsTheClubroomsWithinARadiusNearestFirstWithDistanceAndBearing() {
        let index = ClubroomIndex(Self.rooms)
        let found = index.clubrooms(within: 10_000, of: Self.centre)
        #expect(found.map(\.clubroom.id) == ["3", "0", "2"])
        #expect(zip(found.map(\.distanceMeters), [1_000.0, 2_000, 5_000]).allSatisfy { abs($0 - $1) < 1e-6 })
        #expect(abs(found[2].bearingDegrees - 90) < 1e-6)
        #expect(
            index.clubrooms(within: 10_000, of: Self.centre)
                == index.measuredExhaustively(within: 10_000, of: Self.centre))
        #expect(index.nearest(2, to: Self.centre).map(\.clubroom.id) == ["3", "0"])
        #expect(index.clubrooms(within: 999.999, of: Self.centre).isEmpty)
    }

    @Test func findsTheClubroomsAlongATrackInOrder() {
        // A track due north from the centre, 40 km: the three northern clubrooms lie on it, the eastern one 5 km off.
        let points = (0...400).map { k in
            TrackPoint(
                coordinate: Geodesic.wgs84.destination(
                    from: Self.centre, azimuthDegrees: 0, distanceMeters: Double(k) * 100))
        }
        let along = ClubroomIndex(Self.rooms).clubrooms(
            within: 4_000, along: Track(segments: [TrackSegment(points: points)]))
        #expect(along.map(\.clubroom.id) == ["3", "0", "1"])
        #expect(zip(along.map(\.alongMeters), [1_000.0, 2_000, 30_000]).allSatisfy { abs($0 - $1) < 0.01 })
        #expect(along.allSatisfy { $0.distanceMeters < 0.01 })
    }
}
