import Foundation
import RouteKit
import Testing

@Suite struct ClimbsTests {
    /// A track along the meridian 14° E, a fix every 10 m, with exact elevations from `elevation(atMetres:)`.
    static func track(length: Double, elevation: (Double) -> Double) -> Track {
        let start = Coordinate(latitude: 46, longitude: 14)
        var points: [TrackPoint] = []
        var x = 0.0
        while x <= length {
            let c = Geodesic.wgs84.destination(from: start, azimuthDegrees: 0, distanceMeters: x)
            points.append(TrackPoint(coordinate: c, elevation: elevation(x)))
            x += 10
        }
        return Track(segments: [TrackSegment(points: points)])
    }

    /// Flat 2 km at 300 m, a climb of 3 km at 7 % (210 m), 1 km on top, 2 km down at 8 %, a rise of 300 m at
    /// 5 % (too short), flat, then 1.2 km at 2.5 % (too gentle).
    static func designed(_ x: Double) -> Double {
        switch x {
        case ..<2_000: 300
        case ..<5_000: 300 + (x - 2_000) * 0.07
        case ..<6_000: 510
        case ..<8_000: 510 - (x - 6_000) * 0.08
        case ..<8_300: 350 + (x - 8_000) * 0.05
        case ..<9_000: 365
        case ..<10_200: 365 + (x - 9_000) * 0.025
        default: 395
        }
    }

    @Test func findsTheClimbsOfADesignedProfileAndNotTheShortOrGentleRises() throws {
        let climbs = ElevationProfile(track: Self.track(length: 11_000, elevation: Self.designed)).climbs()
        #expect(climbs.count == 1)
        let climb = try #require(climbs.first)
        #expect(abs(climb.startMeters - 2_000) <= 150 && abs(climb.endMeters - 5_000) <= 150)
        #expect(abs(climb.gainMeters - 210) <= 210 * 0.03)
        #expect(abs(climb.averageGradePercent - 7) <= 0.3)
        #expect(abs(climb.maxGradePercent - 7) <= 0.3)
        #expect(abs(climb.topElevationMeters - 510) < 3)
        // Score about 3,000 m × 7 % = 21,000: category 3. FIETS 210² / 30,000 = 1.47 (the top is under 1,000 m).
        #expect(climb.category == .third)
        #expect(abs(climb.fiets - 1.47) < 0.1)
        #expect(climb.start.map { abs($0.latitude - (46 + 2_000 / 111_150)) < 0.002 } == true)
    }

    @Test func aSmallDipInsideAClimbDoesNotEndIt() throws {
        // 2 km at 6 %, a dip of 5 m over 100 m, 2 km at 6 % again: one climb of about 4.1 km.
        func elevation(_ x: Double) -> Double {
            switch x {
            case ..<2_000: 400 + x * 0.06
            case ..<2_100: 520 - (x - 2_000) * 0.05
            case ..<4_100: 515 + (x - 2_100) * 0.06
            default: 635
            }
        }
        let climbs = ElevationProfile(track: Self.track(length: 5_000, elevation: elevation)).climbs()
        #expect(climbs.count == 1)
        let climb = try #require(climbs.first)
        #expect(abs(climb.lengthMeters - 4_100) <= 150)
        #expect(abs(climb.gainMeters - 235) <= 235 * 0.03)
        // 4.1 km × 5.7 % ≈ 23,500: category 3.
        #expect(climb.category == .third)
    }

    @Test func aDeepOrLongDipEndsTheClimb() {
        // 1 km at 8 % (80 m), down 15 m (over max(10, 8)), 1 km at 8 % again: two climbs.
        func deep(_ x: Double) -> Double {
            switch x {
            case ..<1_000: 400 + x * 0.08
            case ..<1_150: 480 - (x - 1_000) * 0.1
            case ..<2_150: 465 + (x - 1_150) * 0.08
            default: 545
            }
        }
        #expect(ElevationProfile(track: Self.track(length: 3_000, elevation: deep)).climbs().count == 2)
        // The same climbs with a shallow dip that lasts 600 m: two climbs.
        func long(_ x: Double) -> Double {
            switch x {
            case ..<1_000: 400 + x * 0.08
            case ..<1_600: 480 - (x - 1_000) * 0.005
            case ..<2_600: 477 + (x - 1_600) * 0.08
            default: 557
            }
        }
        #expect(ElevationProfile(track: Self.track(length: 3_500, elevation: long)).climbs().count == 2)
    }

    @Test(arguments: [
        (90_000.0, ClimbCategory.hc), (80_000, .hc), (79_999, .first), (64_000, .first), (40_000, .second),
        (16_000, .third), (8_000, .fourth),
    ])
    func categoriesFollowTheScore(score: Double, category: ClimbCategory) {
        #expect(ClimbCategory(score: score) == category)
    }

    @Test func aScoreBelow8000HasNoCategoryAndHarderComesFirst() {
        #expect(ClimbCategory(score: 7_999) == nil)
        #expect([ClimbCategory.fourth, .hc, .second].sorted() == [.hc, .second, .fourth])
    }

    @Test func aHighTopAddsToTheFIETSIndex() {
        let climb = Climb(
            startMeters: 0, endMeters: 10_000, gainMeters: 1_000, topElevationMeters: 2_000, maxGradePercent: 12)
        // 1000² / (10 × 10,000) + (2,000 − 1,000) / 1,000 = 10 + 1.
        #expect(abs(climb.fiets - 11) < 1e-12)
        #expect(climb.averageGradePercent == 10 && climb.score == 100_000)
        #expect(climb.category == ClimbCategory.hc)
    }
}
