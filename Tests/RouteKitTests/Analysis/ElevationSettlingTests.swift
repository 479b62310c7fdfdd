import Foundation
import Testing

@testable import RouteKit

@Suite struct ElevationSettlingTests {
    /// Fixes `step` metres apart northwards, one every `seconds` (untimed for nil), with the elevation
    /// `elevation(k)` at fix k.
    static func points(
        _ count: Int, from origin: Coordinate = ElevationProfileTests.start, step: Double = 7,
        seconds: Double? = 5, _ elevation: (Int) -> Double
    ) -> [TrackPoint] {
        (0..<count).map { k in
            TrackPoint(
                coordinate: Geodesic.wgs84.destination(
                    from: origin, azimuthDegrees: 0, distanceMeters: Double(k) * step),
                elevation: elevation(k),
                time: seconds.map {
                    let t = Double(k) * $0
                    return Timestamp(
                        secondsSinceEpoch: 1_600_000_000 + Int64(t), nanoseconds: Int32((t - t.rounded(.down)) * 1e9))
                })
        }
    }

    /// With fixes 7 m apart (500 of them): a level road at 273 m with one hill 40 m high from 1 km to 2.6 km; a
    /// receiver's first 46 fixes (230 s at 5 s, 322 m) climbing to it from 70 m, fastest at first.
    static func receiverStart(_ k: Int) -> Double {
        let d = Double(k) * 7
        let hill = d >= 1000 && d <= 2600 ? 20 - 20 * cos(2 * Double.pi * (d - 1000) / 1600) : 0
        return k < 46 ? 273 - 203 * pow(1 - Double(k) / 46, 2) : 273 + hill
    }

    @Test func aReceiversFirstMinutesAreNotClimbing() throws {
        let timed = Track(segments: [TrackSegment(points: Self.points(500, Self.receiverStart))])
        let profile = ElevationProfile(track: timed, method: .exact)
        let ascent = try #require(profile.statistics.ascent)
        let settling = try #require(ascent.elevationSettlings.first)
        #expect(ascent.elevationSettlings.count == 1)
        #expect(settling.heightMeters == 203 && settling.seconds == 230)
        #expect(abs(settling.distanceMeters - 322) < 0.01)
        #expect(abs(ascent.ascentMeters - 40) < 0.01 && abs(ascent.descentMeters - 40) < 0.01)
        // The climbs and the grades are the hill's; the profile still shows the elevations as recorded.
        #expect(profile.statistics.climbs.map { $0.gainMeters.rounded() } == [40])
        #expect(try #require(profile.statistics.steepestClimbPercent) < 8)
        #expect(profile.samples[0].smoothedElevationMeters == 70)
        #expect(profile.countedElevation(atDistance: 0) == 273)
        // The same elevations without times (a planned route, a DEM's heights) do not settle: they are climbing.
        let untimed = Track(segments: [TrackSegment(points: Self.points(500, seconds: nil, Self.receiverStart))])
        let planned = try #require(ElevationProfile(track: untimed, method: .exact).statistics.ascent)
        #expect(planned.elevationSettlings.isEmpty)
        #expect(abs(planned.ascentMeters - 243) < 0.01)
        // Nor where jumps are not looked for, or settling is not.
        var every = AscentMethod.exact
        every.elevationJumpMeters = nil
        let everyAscent = try #require(ElevationProfile(track: timed, method: every).statistics.ascent)
        #expect(abs(everyAscent.ascentMeters - 243) < 0.01)
        var never = AscentMethod.exact
        never.settlingSeconds = nil
        #expect(ElevationProfile(track: timed, method: never).statistics.ascent?.elevationSettlings.isEmpty == true)
    }

    @Test func aReceiverWanderingBeforeItRisesFastIsSettlingUntilThen() throws {
        // A logger's first ten minutes, 7 m and 5 s apart: up 100 m and down 120 m slowly (too slow to tell from
        // riding, 20 % over 5 min), then up 280 m in 70 s (steeper than 1:2 at 4 m a second): all of it settling, to
        // where that rise ends; then the level road with its hill.
        func elevation(_ k: Int) -> Double {
            switch k {
            case ..<60: return 20 + 100 * Double(k) / 60
            case ..<120: return 120 - 120 * Double(k - 60) / 60
            case ..<134: return 0 + 20 * Double(k - 120)
            default: return Self.receiverStart(k - 134 + 46) + 7
            }
        }
        let points = Self.points(600, elevation)
        let ascent = try #require(
            ElevationProfile(track: Track(segments: [TrackSegment(points: points)]), method: .exact).statistics.ascent)
        let settling = try #require(ascent.elevationSettlings.first)
        #expect(settling.heightMeters == 260 && settling.seconds == 670)
        #expect(abs(ascent.ascentMeters - 40) < 0.01)
    }

    @Test func anAltimeterCalibratingWhileStandingIsNotDescending() throws {
        // A watch's first 15 fixes, a metre apart and 5 s apart, fall 4 m each (56 m, steeper than 1:1 however slow),
        // then a walk on the level.
        let points = Self.points(200, step: 1) { k in k < 14 ? 860 - 4 * Double(k) : 804 }
        let ascent = try #require(
            ElevationProfile(track: Track(segments: [TrackSegment(points: points)]), method: .exact).statistics.ascent)
        #expect(ascent.elevationSettlings.map(\.heightMeters) == [-56])
        #expect(ascent.descentMeters == 0 && ascent.ascentMeters == 0)
    }

    @Test func aSteepStartOnFootOrByBikeIsClimbing() throws {
        // Up a path of 45 % (under 1:2) at 0.45 m a second; up one of 70 % at 0.35 m a second (slower than anyone's
        // settling receiver); a mountain road of 12 % at 0.5 m a second: all climbing from the first fix.
        for (grade, metresASecond) in [(0.45, 0.45), (0.7, 0.35), (0.12, 0.5)] {
            let step = 2.0
            let seconds = step * grade / metresASecond
            let points = Self.points(400, step: step, seconds: seconds) { k in 500 + grade * step * Double(min(k, 300))
            }
            let ascent = try #require(
                ElevationProfile(track: Track(segments: [TrackSegment(points: points)]), method: .exact).statistics
                    .ascent)
            #expect(ascent.elevationSettlings.isEmpty, "\(grade)")
            #expect(abs(ascent.ascentMeters - grade * 600) < 1e-6, "\(grade)")
        }
    }

    @Test func onlyTheFirstMinutesOfARecordingAreLookedAt() throws {
        // The same climb from 70 m, but after a quarter of an hour standing at 70 m: climbing (a lift, or anything
        // else the rider did), not the receiver settling.
        let points = Self.points(690) { k in k < 190 ? 70 : Self.receiverStart(k - 190) }
        let standing = points.enumerated().map { k, p in
            var p = p
            if k < 190 { p.coordinate = ElevationProfileTests.start }
            return p
        }
        let ascent = try #require(
            ElevationProfile(track: Track(segments: [TrackSegment(points: standing)]), method: .exact).statistics
                .ascent)
        #expect(ascent.elevationSettlings.isEmpty)
        #expect(abs(ascent.ascentMeters - 243) < 0.01)
    }

    @Test func eachRecordingsStartSettlesAndTheStepBetweenThemIsNoClimb() throws {
        // Two recordings joined in one line, as a file's tracks drawn one after the other: each starts with its
        // receiver settling, and the second lies 95 m above where the first ends. Each has its 40 m hill; nothing
        // else is climbing, neither for the ascent nor for the climbs, at the break either.
        let first = Self.points(500, Self.receiverStart)
        let later = Geodesic.wgs84.destination(from: first[499].coordinate, azimuthDegrees: 90, distanceMeters: 5000)
        let second = Self.points(500, from: later) { Self.receiverStart($0) + 95 }
        let track = Track(segments: [TrackSegment(points: first), TrackSegment(points: second)])
        let profile = ElevationProfile(track: track, method: .exact)
        let ascent = try #require(profile.statistics.ascent)
        #expect(ascent.elevationSettlings.map(\.heightMeters) == [203, 203])
        #expect(abs(ascent.ascentMeters - 80) < 0.02)
        #expect(profile.statistics.climbs.map { $0.gainMeters.rounded() } == [40, 40])
        #expect(profile.samples.allSatisfy { $0.gradePercent < 8 })
        #expect(
            TrackStatistics.total(of: [profile.statistics, profile.statistics]).ascent?.elevationSettlings.count == 4)
    }

    @Test func theSummarySaysHowFarHowLongAndToWhere() {
        #expect(ElevationSettling.summary([]) == "")
        #expect(
            ElevationSettling.summary([ElevationSettling(distanceMeters: 352, heightMeters: 203.02, seconds: 230)])
                == "the elevations settle by +203 m in the first 3:50 min (0.35 km): not counted as climbing "
                + "(a receiver or an altimeter finding its level)")
        #expect(
            ElevationSettling.summary([
                ElevationSettling(distanceMeters: 60, heightMeters: -55.4, seconds: 68),
                ElevationSettling(distanceMeters: 9_000, heightMeters: 120, seconds: 300),
            ])
                == "the elevations settle at the start of 2 segments, by up to 120 m: not counted as climbing "
                + "(a receiver or an altimeter finding its level)")
    }
}
