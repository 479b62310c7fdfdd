import Foundation
import RouteKit
import Testing

@Suite struct GeodesicCenterTests {
    /// The short-line formulas against `geod_inverse` on random lines up to a little beyond their limit, from
    /// centres everywhere (near the poles and on the antimeridian too).
    @Test func agreesWithKarneyToAMicrometreAndAMillionthOfADegree() {
        var random = SeededRandom(state: 21)
        var worstDistance = 0.0
        var worstAzimuth = 0.0
        for k in 0..<100_000 {
            let latitude =
                k % 10 == 0
                ? Double.random(in: 89.9...90, using: &random) * (k % 20 == 0 ? 1 : -1)
                : asin(Double.random(in: -1...1, using: &random)) * 180 / .pi
            let longitude =
                k % 10 == 1 ? (k % 20 == 1 ? 180 : -179.9999) : Double.random(in: -180...180, using: &random)
            let center = Coordinate(latitude: latitude, longitude: longitude)
            let length =
                k % 3 == 0 ? Double.random(in: 0...10, using: &random) : Double.random(in: 0...120_000, using: &random)
            let end = Geodesic.wgs84.destination(
                from: center, azimuthDegrees: Double.random(in: -180...180, using: &random), distanceMeters: length)
            let exact = Geodesic.wgs84.inverse(from: center, to: end)
            let fast = GeodesicCenter(center).inverse(to: end)
            worstDistance = max(worstDistance, abs(fast.distanceMeters - exact.distanceMeters))
            // Azimuths are compared where the points' own rounding (a few nanometres) leaves them defined to a
            // millionth of a degree: on lines of a metre or more.
            if exact.distanceMeters > 1 {
                let turn = abs(
                    (fast.azimuthDegrees - exact.initialAzimuthDegrees + 540).truncatingRemainder(dividingBy: 360) - 180
                )
                worstAzimuth = max(worstAzimuth, turn)
                #expect((-180...180).contains(fast.azimuthDegrees))
            }
        }
        #expect(worstDistance < 1e-6, "worst distance difference \(worstDistance) m")
        #expect(worstAzimuth < 1e-6, "worst azimuth difference \(worstAzimuth)°")
    }

    @Test func farPointsAndThePolesAreGeodInversesOwn() {
        let brno = Coordinate(latitude: 49.1951, longitude: 16.6068)
        let prague = Coordinate(latitude: 50.0755, longitude: 14.4378)  // 185 km: beyond the short lines
        let far = GeodesicCenter(brno).inverse(to: prague)
        let exact = Geodesic.wgs84.inverse(from: brno, to: prague)
        #expect(far.distanceMeters == exact.distanceMeters && far.azimuthDegrees == exact.initialAzimuthDegrees)
        let pole = Coordinate(latitude: 90, longitude: 17)
        let near = Coordinate(latitude: 89.9, longitude: -40)
        let fromPole = GeodesicCenter(pole).inverse(to: near)
        let exactFromPole = Geodesic.wgs84.inverse(from: pole, to: near)
        #expect(fromPole.distanceMeters == exactFromPole.distanceMeters)
        #expect(fromPole.azimuthDegrees == exactFromPole.initialAzimuthDegrees)
        #expect(GeodesicCenter(brno).inverse(to: brno).distanceMeters == 0)
    }

    /// On the centre's meridian, at the poles and at the centre itself the azimuth is `geod_inverse`'s to the
    /// bit (the formulas would leave 1e-13° either side of north, a bearing of 360).
    @Test func linesAlongTheMeridianAndToTheCentreItselfAreKarneysToTheBit() {
        let centers = [
            Coordinate(latitude: 50.0755, longitude: 14.4378), Coordinate(latitude: -33.9, longitude: 151.2),
            Coordinate(latitude: 0, longitude: -180), Coordinate(latitude: 89.99, longitude: 3),
            Coordinate(latitude: -60, longitude: 180),
        ]
        for center in centers {
            let geodesics = GeodesicCenter(center)
            let otherSide = Coordinate(
                latitude: center.latitude,
                longitude: abs(center.longitude) == 180 ? -center.longitude : center.longitude)
            for end in [
                center, otherSide, Coordinate(latitude: min(90, center.latitude + 0.3), longitude: center.longitude),
                Coordinate(latitude: center.latitude - 0.3, longitude: center.longitude),
                Coordinate(latitude: center.latitude - 0.8, longitude: center.longitude),
                Coordinate(latitude: max(-90, center.latitude - 0.00001), longitude: center.longitude),
                Coordinate(latitude: min(89.999, center.latitude + 0.7), longitude: center.longitude),
                Coordinate(latitude: center.latitude > 0 ? 90 : -90, longitude: 0),
                Coordinate(
                    latitude: center.latitude > 0 ? 89.995 : -89.995,
                    longitude: center.longitude > 0 ? center.longitude - 180 : center.longitude + 180),
            ] {
                let exact = Geodesic.wgs84.inverse(from: center, to: end)
                let line = geodesics.inverse(to: end)
                #expect(line.azimuthDegrees == exact.initialAzimuthDegrees, "\(center) to \(end)")
                #expect(abs(line.distanceMeters - exact.distanceMeters) < 1e-6)
            }
        }
        // And an index reports such a bearing as 0 or 180, never 360 or −0.
        let brno = Coordinate(latitude: 49.1951, longitude: 16.6068)
        let north = Coordinate(latitude: 49.3, longitude: 16.6068)
        let bearings = GeodesicIndex([brno, north]).positions(within: 20_000, of: brno).map(\.bearingDegrees)
        #expect(bearings.allSatisfy { $0 == 0 || $0 == 180 } && bearings.contains(0))
        #expect(bearings.allSatisfy { $0.sign == .plus })
    }
}
