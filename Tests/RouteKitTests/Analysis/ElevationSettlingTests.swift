import Foundation
import Testing

@testable import RouteKit

@Suite struct ElevationSettlingTests {
    /// Fixes `step` metres apart northwards, one every `seconds` (untimed for nil), with the elevation
    /// `elevation(k)` at fix k.
    static func points(
        _ count: Int, from origin: Coordinate = ElevationProfileTests.start, step: Double = 7,
        seconds: Double? = 5, startingAt first: Int64 = 1_600_000_000, _ elevation: (Int) -> Double
    ) -> [TrackPoint] {
        (0..<count).map { k in
            TrackPoint(
                coordinate: Geodesic.wgs84.destination(
                    from: origin, azimuthDegrees: 0, distanceMeters: Double(k) * step),
                elevation: elevation(k),
                time: seconds.map {
                    let t = Double(k) * $0
                    return Timestamp(
                        secondsSinceEpoch: first + Int64(t), nanoseconds: Int32((t - t.rounded(.down)) * 1e9))
                })
        }
    }

    /// With fixes 7 m apart (500 of them): a level road at 273 m with one hill 40 m high from 1 km to 2.6 km; a
    /// receiver's first 46 fixes (230 s at 5 s, 322 m) climbing to it steadily from 70 m (63 %, 0.88 m a second).
    static func receiverStart(_ k: Int) -> Double {
        let d = Double(k) * 7
        let hill = d >= 1000 && d <= 2600 ? 20 - 20 * cos(2 * Double.pi * (d - 1000) / 1600) : 0
        return k < 46 ? 70 + 203 * Double(k) / 46 : 273 + hill
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

    /// The ascent of `points` in one segment, with the elevations taken as exact.
    static func ascent(_ points: [TrackPoint]) throws -> AscentDescent {
        try #require(
            ElevationProfile(track: Track(segments: [TrackSegment(points: points)]), method: .exact).statistics.ascent)
    }

    @Test func aGlitchOrABadFirstFixInTheFirstMinutesIsAJumpNotSettling() throws {
        // A real climb of 144 m at 8 %, 12.5 m and 5 s between fixes, with one fix 40 m up at 12:30 min: the glitch's
        // flanks are jumps, the climb is counted.
        let climb = Self.points(400, step: 12.5) { k in 300 + Double(min(k, 144)) + (k == 150 ? 40 : 0) }
        let glitched = try Self.ascent(climb)
        #expect(glitched.elevationSettlings.isEmpty && glitched.elevationJumps.count == 2)
        #expect(abs(glitched.ascentMeters - 144) < 1e-6)
        // A first fix 300 m low, then a climb of 200 m at 10 %: a jump, and the climb counted whole.
        let badFirst = Self.points(400, step: 12.5) { k in k == 0 ? 100 : 400 + 1.25 * Double(min(k, 160)) }
        let ascent = try Self.ascent(badFirst)
        #expect(ascent.elevationSettlings.isEmpty && ascent.elevationJumps.count == 1)
        #expect(abs(ascent.ascentMeters - (200 - 1.25)) < 1e-6)  // the first step of the climb is the jump's
    }

    @Test func aFastSteepDescentAfterMinutesOfRidingIsNotSettling() throws {
        // A trail runner climbs 100 m over 10 min (4 m a fix), then runs down 36 m at 60 %, 1.2 m a second.
        let points = (0..<200).map { k in
            let x = k <= 120 ? 4 * Double(k) : 480 + 10 * Double(min(k, 126) - 120) + 4 * Double(max(0, k - 126))
            let e = k <= 120 ? 100 * Double(k) / 120 : 100 - 6 * Double(min(k, 126) - 120)
            return TrackPoint(
                coordinate: Geodesic.wgs84.destination(
                    from: ElevationProfileTests.start, azimuthDegrees: 0, distanceMeters: x),
                elevation: e, time: Timestamp(secondsSinceEpoch: 1_600_000_000 + Int64(5 * k)))
        }
        let ascent = try Self.ascent(points)
        #expect(ascent.elevationSettlings.isEmpty)
        #expect(abs(ascent.ascentMeters - 100) < 1e-6 && abs(ascent.descentMeters - 36) < 1e-6)
    }

    @Test func timesThatDoNotRiseAreNoRecordingsStart() throws {
        // The receiver's first minutes with every fix at the same time: no window to settle in.
        var points = Self.points(500, Self.receiverStart)
        for k in points.indices { points[k].time = points[0].time }
        let ascent = try Self.ascent(points)
        #expect(ascent.elevationSettlings.isEmpty)
        #expect(abs(ascent.ascentMeters - 243) < 0.01)
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
        let second = Self.points(500, from: later, startingAt: 1_600_100_000) { Self.receiverStart($0) + 95 }
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

    @Test func climbsEndWhereRecordingsJoinAndRunOnAcrossAPause() throws {
        // Two segments 5 km apart, 500 → 600 m and 300 → 400 m over 2 km each: two climbs, not one of 200 m whose top
        // would lie below its foot.
        let first = ElevationProfileTests.points(from: ElevationProfileTests.start, azimuth: 0, count: 201) {
            500 + 0.05 * $0
        }
        let far = Geodesic.wgs84.destination(from: first[200].coordinate, azimuthDegrees: 90, distanceMeters: 5000)
        let second = ElevationProfileTests.points(from: far, azimuth: 0, count: 201) { 300 + 0.05 * $0 }
        let apart = ElevationProfile(
            track: Track(segments: [TrackSegment(points: first), TrackSegment(points: second)]), method: .exact)
        #expect(apart.statistics.climbs.map { $0.gainMeters.rounded() } == [100, 100])
        // The same climb paused halfway (the next segment starts 10 m on): one climb of 100 m.
        let half = ElevationProfileTests.points(from: ElevationProfileTests.start, azimuth: 0, count: 201) {
            500 + 0.05 * $0
        }
        let on = Geodesic.wgs84.destination(from: half[100].coordinate, azimuthDegrees: 0, distanceMeters: 10)
        let rest = ElevationProfileTests.points(from: on, azimuth: 0, count: 100) { 550.5 + 0.05 * $0 }
        let paused = ElevationProfile(
            track: Track(segments: [TrackSegment(points: Array(half[0...100])), TrackSegment(points: rest)]),
            method: .exact)
        #expect(paused.statistics.climbs.map { $0.gainMeters.rounded() } == [100])
    }

    @Test func aSegmentAfterAShortPauseOrWhereTheLastEndedGoesOnWithTheReceiversLevel() throws {
        // A level ride at 500 m, then a segment 5 km on whose first fixes rise from 400 m to 500 m at 63 % and 1 m a
        // second (a receiver converging), then level: settling where the receiver was off for 10 minutes, climbing
        // after a pause of a minute (the receiver was on).
        let before = Self.points(100) { _ in 500 }
        let lastTime = try #require(before.last?.time)
        let away = Geodesic.wgs84.destination(from: before[99].coordinate, azimuthDegrees: 90, distanceMeters: 5000)
        func next(after pause: Int64, from origin: Coordinate = away, rising: Bool = true) -> [TrackPoint] {
            Self.points(100, from: origin, step: 8, startingAt: lastTime.secondsSinceEpoch + pause) { k in
                rising ? 400 + 5 * Double(min(k, 20)) : 500
            }
        }
        func ascent(_ second: [TrackPoint]) throws -> AscentDescent {
            try #require(
                ElevationProfile(
                    track: Track(segments: [TrackSegment(points: before), TrackSegment(points: second)]),
                    method: .exact
                ).statistics.ascent)
        }
        #expect(try ascent(next(after: 600)).elevationSettlings.map(\.heightMeters) == [100])
        #expect(try ascent(next(after: 600)).ascentMeters == 0)
        let paused = try ascent(next(after: 60))
        #expect(paused.elevationSettlings.isEmpty && paused.ascentMeters == 100)
        // Recorded the day before but joined after: a recording's start too.
        #expect(try ascent(next(after: -86_400)).elevationSettlings.count == 1)
        // Picked up after 10 minutes where the last ended, at its height: nothing to settle from.
        let there = Geodesic.wgs84.destination(from: before[99].coordinate, azimuthDegrees: 0, distanceMeters: 20)
        #expect(try ascent(next(after: 600, from: there, rising: false)).elevationSettlings.isEmpty)
    }

    @Test func goingDownFastOrClimbingSlowlyFromTheStartIsNotSettling() throws {
        // A recording that starts down a 60 % chute at 1.2 m a second (people go down faster than they climb), then
        // level: descending.
        let chute = Self.points(100, step: 10) { k in 600 - 6 * Double(min(k, 13)) }
        let down = try Self.ascent(chute)
        #expect(down.elevationSettlings.isEmpty && abs(down.descentMeters - 78) < 1e-6)
        // A via ferrata from the car park: 90 m up over 60 m in 15 minutes, steeper than 1:1 at 0.1 m a second.
        let ferrata = Self.points(100, step: 2, seconds: 30) { k in 1000 + 3 * Double(min(k, 30)) }
        let up = try Self.ascent(ferrata)
        #expect(up.elevationSettlings.isEmpty && abs(up.ascentMeters - 90) < 1e-6)
    }

    @Test func aFirstFixFarOffSidewaysSettlesAtItsOwnStep() throws {
        // The first fix 300 m low and 400 m to the side (its step longer than high: no jump), then a climb of 200 m at
        // 10 %: the settling ends where that step is no longer within the last quarter of a jump's height (5 m), and
        // the climb is counted but for those 3.75 m.
        var points = Self.points(400, step: 12.5) { k in 400 + 1.25 * Double(min(k, 160)) }
        points[0].coordinate = Geodesic.wgs84.destination(
            from: ElevationProfileTests.start, azimuthDegrees: 90, distanceMeters: 400)
        points[0].elevation = 100
        let ascent = try Self.ascent(points)
        #expect(ascent.elevationSettlings.map(\.heightMeters) == [305])
        #expect(abs(ascent.ascentMeters - 195) < 1e-6)
    }

    @Test func rangeExtremesAreTheLeastAndGreatestOfEveryRun() {
        for count in [1, 2, 3, 7, 64, 100] {
            let values = (0..<count).map { Double(($0 * 37 + 11) % 23) - 11 }
            let lowest = RangeExtremes(values, by: <)
            let highest = RangeExtremes(values, by: >)
            for from in 0..<count {
                for to in from..<count {
                    #expect(lowest.extreme(from, to) == values[from...to].min())
                    #expect(highest.extreme(from, to) == values[from...to].max())
                }
            }
        }
    }

    @Test func theSummarySaysHowFarHowLongAndToWhere() {
        #expect(ElevationSettling.summary([]) == "")
        #expect(
            ElevationSettling.summary([ElevationSettling(distanceMeters: 352, heightMeters: 203.02, seconds: 230)])
                == "a recording's elevations settle by +203 m in its first 3:50 min (to 0.35 km): not counted as "
                + "climbing (a receiver or an altimeter finding its level)")
        #expect(
            ElevationSettling.summary([
                ElevationSettling(distanceMeters: 60, heightMeters: -55.4, seconds: 68),
                ElevationSettling(distanceMeters: 9_000, heightMeters: 120, seconds: 300),
            ])
                == "the elevations settle at the start of 2 recordings, by up to 120 m: not counted as climbing "
                + "(a receiver or an altimeter finding its level)")
    }
}
