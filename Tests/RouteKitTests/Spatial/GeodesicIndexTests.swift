import Foundation
import RouteKit
import Testing

@Suite struct GeodesicIndexTests {
    /// Random positions all over the globe, with clusters at both poles and along the antimeridian.
    static func positions(_ count: Int, seed: UInt64) -> [Coordinate] {
        var random = SeededRandom(state: seed)
        return (0..<count).map { i in
            switch i % 4 {
            case 0:
                return Coordinate(
                    latitude: asin(Double.random(in: -1...1, using: &random)) * 180 / .pi,
                    longitude: Double.random(in: -180...180, using: &random))
            case 1:
                return Coordinate(
                    latitude: Double.random(in: 88...90, using: &random) * (i % 8 == 1 ? 1 : -1),
                    longitude: Double.random(in: -180...180, using: &random))
            case 2:
                return Coordinate(
                    latitude: Double.random(in: -70...70, using: &random),
                    longitude: Double.random(in: 178...180, using: &random) * (i % 8 == 2 ? 1 : -1))
            default:
                return Coordinate(
                    latitude: Double.random(in: 45...52, using: &random),
                    longitude: Double.random(in: 12...19, using: &random))
            }
        }
    }

    func bruteForce(_ positions: [Coordinate], within radius: Double, of center: Coordinate) -> [Int] {
        positions.indices.filter { Geodesic.wgs84.distance(from: center, to: positions[$0]) <= radius }
            .sorted {
                (Geodesic.wgs84.distance(from: center, to: positions[$0]), $0) < (
                    Geodesic.wgs84.distance(from: center, to: positions[$1]), $1
                )
            }
    }

    @Test func withinAgreesWithABruteForceScanEverywhere() {
        let positions = Self.positions(8_000, seed: 7)
        let index = GeodesicIndex(positions)
        var random = SeededRandom(state: 11)
        let radii = [1_000.0, 60_000, 250_000, 2_000_000, 20_100_000]
        for q in 0..<60 {
            // Query points near the poles, on the antimeridian and at random.
            let center =
                q % 3 == 0
                ? Coordinate(
                    latitude: q % 6 == 0 ? 89.9 : -89.95, longitude: Double.random(in: -180...180, using: &random))
                : q % 3 == 1
                    ? Coordinate(
                        latitude: Double.random(in: -60...60, using: &random), longitude: q % 2 == 0 ? 179.99 : -180)
                    : positions[Int.random(in: 0..<positions.count, using: &random)]
            let radius = radii[q % radii.count]
            let found = index.positions(within: radius, of: center).map(\.index)
            #expect(found == bruteForce(positions, within: radius, of: center), "query \(q) at \(center), \(radius) m")
            // The scan without an index takes the same candidates: the very same matches.
            #expect(
                GeodesicIndex.boundedScan(positions, within: radius, of: center)
                    == index.positions(within: radius, of: center))
        }
    }

    @Test func aReachOfManyCentresHoldsEveryPositionWithinTheRadiusOfOne() {
        let positions = Self.positions(6_000, seed: 17)
        var random = SeededRandom(state: 19)
        for (radius, count) in [(500.0, 400), (60_000, 150), (900_000, 30), (6_000_000, 5)] {
            // Centres at random, at the poles and on the antimeridian, and on positions themselves.
            var centers = (0..<count).map { k in
                k % 4 == 0
                    ? positions[Int.random(in: 0..<positions.count, using: &random)]
                    : Coordinate(
                        latitude: k % 4 == 1 ? 90 * (k % 8 == 1 ? 1 : -1) : Double.random(in: -90...90, using: &random),
                        longitude: k % 4 == 2 ? 180 : Double.random(in: -180...180, using: &random))
            }
            centers.append(Coordinate(latitude: 89.99, longitude: -180))
            let reach = GeodesicIndex.Reach(radius, of: centers)
            var candidates = 0
            for p in positions {
                let within = centers.contains { Geodesic.wgs84.distance(from: $0, to: p) <= radius }
                let candidate = reach.contains(p)
                if within { #expect(candidate, "\(p) is within \(radius) m of a centre") }
                if candidate { candidates += 1 }
            }
            // And it tells most others apart: the candidates are not all positions.
            if radius <= 60_000 { #expect(candidates < positions.count / 2, "\(candidates) candidates") }
        }
    }

    /// Any double has a cell (a damaged kept table may hold any): the grid's edges for those beyond it.
    @Test func everyPositionHasACellOfTheGrid() {
        let reach = GeodesicIndex.Reach(60_000, of: [Coordinate(latitude: 50, longitude: 14)])
        for value in [1e300, -1e300, Double.infinity, -Double.infinity, Double.nan, 90, -90, 180, -180] {
            for c in [Coordinate(latitude: value, longitude: 14), Coordinate(latitude: 50, longitude: value)] {
                #expect((0..<GeodesicIndex.Reach.cellCount).contains(GeodesicIndex.Reach.cell(of: c)))
                #expect(!reach.contains(c) || c.isValid)
            }
        }
        #expect(
            GeodesicIndex.Reach.cell(of: Coordinate(latitude: 90, longitude: 180)) == GeodesicIndex.Reach.cellCount
                - 2048)
    }

    @Test func aReachHoldsPositionsOnTheAntimeridianAndAtThePoles() {
        let pairs: [(Coordinate, Coordinate)] = [
            (Coordinate(latitude: 10, longitude: -179.9), Coordinate(latitude: 10, longitude: 180)),
            (Coordinate(latitude: 10, longitude: 179.99), Coordinate(latitude: 10, longitude: -180)),
            (Coordinate(latitude: -33, longitude: 180), Coordinate(latitude: -33.01, longitude: -179.95)),
            (Coordinate(latitude: 89.95, longitude: 0), Coordinate(latitude: 90, longitude: 123)),
            (Coordinate(latitude: -90, longitude: 0), Coordinate(latitude: -89.9, longitude: -77)),
            (Coordinate(latitude: 88, longitude: -170), Coordinate(latitude: 88.1, longitude: 170)),
        ]
        for (center, position) in pairs {
            let radius = Geodesic.wgs84.distance(from: center, to: position)
            #expect(GeodesicIndex.Reach(radius, of: [center]).contains(position), "\(position) from \(center)")
            // Among many other centres too.
            let others = (0..<50).map { Coordinate(latitude: Double($0) - 25, longitude: Double($0 * 7) - 175) }
            #expect(GeodesicIndex.Reach(radius, of: others + [center]).contains(position))
        }
    }

    @Test func theBoundaryIsExactToTheMillimetre() {
        // Points placed exactly 60 km ± 1 mm away in every direction.
        let center = Coordinate(latitude: 49.1951, longitude: 16.6068)
        var positions: [Coordinate] = []
        var inside: Set<Int> = []
        for k in 0..<360 {
            for (j, offset) in [-0.001, 0.001].enumerated() {
                let p = Geodesic.wgs84.destination(
                    from: center, azimuthDegrees: Double(k), distanceMeters: 60_000 + offset)
                if Geodesic.wgs84.distance(from: center, to: p) <= 60_000 { inside.insert(positions.count) }
                positions.append(p)
                _ = j
            }
        }
        let found = Set(GeodesicIndex(positions).positions(within: 60_000, of: center).map(\.index))
        #expect(found == inside)
        #expect(found.count == 360)
    }

    @Test func nearestAgreesWithABruteForceScan() {
        let positions = Self.positions(5_000, seed: 3)
        let index = GeodesicIndex(positions)
        var random = SeededRandom(state: 5)
        for _ in 0..<40 {
            let center = Coordinate(
                latitude: Double.random(in: -90...90, using: &random),
                longitude: Double.random(in: -180...180, using: &random))
            let k = Int.random(in: 1...25, using: &random)
            let expected = positions.indices.sorted {
                (Geodesic.wgs84.distance(from: center, to: positions[$0]), $0) < (
                    Geodesic.wgs84.distance(from: center, to: positions[$1]), $1
                )
            }.prefix(k)
            #expect(index.nearest(k, to: center).map(\.index) == Array(expected))
        }
    }

    @Test func reportsDistanceAndBearing() throws {
        let brno = Coordinate(latitude: 49.1951, longitude: 16.6068)
        let prague = Coordinate(latitude: 50.0755, longitude: 14.4378)
        let match = try #require(GeodesicIndex([prague]).positions(within: 200_000, of: brno).first)
        #expect(abs(match.distanceMeters - brno.distance(to: prague)) < 1e-9)
        #expect(abs(match.bearingDegrees - brno.bearing(to: prague)) < 1e-9)
        #expect(GeodesicIndex.compassPoint(match.bearingDegrees) == "WNW")  // about 300°
        #expect(GeodesicIndex.compassPoint(359) == "N")
        #expect(GeodesicIndex.compassPoint(100) == "E")
        // Halves go up (as rounding does); bearings outside 0…360 are taken round.
        #expect(GeodesicIndex.compassPoint(11.25) == "NNE" && GeodesicIndex.compassPoint(11.249999) == "N")
        #expect(GeodesicIndex.compassPoint(348.75) == "N" && GeodesicIndex.compassPoint(348.74) == "NNW")
        #expect(GeodesicIndex.compassPoint(-90) == "W" && GeodesicIndex.compassPoint(720 + 45) == "NE")
        #expect(GeodesicIndex.compassPoint(-0.0) == "N" && GeodesicIndex.compassPoint(359.999) == "N")
    }
}
