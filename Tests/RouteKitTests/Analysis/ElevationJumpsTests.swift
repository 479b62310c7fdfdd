import Foundation
import Testing

@testable import RouteKit

@Suite struct ElevationJumpsTests {
    /// A series with a fix every `step` metres and the elevation `elevation(k)` at fix k.
    static func series(_ count: Int, step: Double = 20, _ elevation: (Int) -> Double) -> ElevationSeries {
        ElevationSeries(distances: (0..<count).map { Double($0) * step }, elevations: (0..<count).map(elevation))
    }

    @Test func aFixHundredsOfMetresOffIsTwoJumpsAndNoClimbing() {
        // A flat road at 300 m, a fix every 20 m, one of them 250 m up (a logger's glitch).
        let series = Self.series(200) { $0 == 120 ? 550 : 300 }
        let level = AscentMethod.exact.leveled(series)
        #expect(
            level.jumps == [
                ElevationJump(distanceMeters: 2400, heightMeters: 250),
                ElevationJump(distanceMeters: 2420, heightMeters: -250),
            ])
        #expect(level.series.elevations.allSatisfy { $0 == 300 })
        #expect(level.recordedLevels(level.series.elevations) == series.elevations)
        let counted = AscentMethod.exact.ascentDescent(of: series)
        #expect(counted.ascentMeters == 0 && counted.descentMeters == 0)
        #expect(counted.elevationJumps == level.jumps)
        // Nil counts every step: the plain sum climbs the glitch.
        var every = AscentMethod.exact
        every.elevationJumpMeters = nil
        #expect(every.ascentDescent(of: series).ascentMeters == 250)
        #expect(every.ascentDescent(of: series).elevationJumps.isEmpty)
    }

    @Test func aSpikesFlankTooLongToBeSteepIsAJumpBesideTheOther() {
        // A logger's glitch moves the fix 300 m along and 280 m down (under 1:1), and the next one back up over 50 m.
        var distances = (0..<100).map { Double($0) * 20 }
        for k in 50..<100 { distances[k] += 300 }
        let series = ElevationSeries(distances: distances, elevations: (0..<100).map { $0 == 50 ? 20 : 300 })
        let level = AscentMethod.exact.leveled(series)
        #expect(level.jumps.map(\.heightMeters) == [-280, 280])
        let counted = AscentMethod.exact.ascentDescent(of: series)
        #expect(counted.ascentMeters == 0 && counted.descentMeters == 0)
        // A step the other way by less than half the jump is the line's own: 50 m down, then a jump of 300 m.
        let partly = ElevationSeries(
            distances: distances, elevations: (0..<100).map { $0 == 50 ? 250 : $0 > 50 ? 550 : 300 })
        #expect(AscentMethod.exact.leveled(partly).jumps.map(\.heightMeters) == [300])
        #expect(AscentMethod.exact.ascentDescent(of: partly).descentMeters == 50)
    }

    @Test func aTrackAndTheSameTrackBackwardsHaveTheSameJumps() {
        // A glitch 100 m up at the last of fixes 20 m apart, then the line's own steps of ±60 m between fixes 200 m
        // apart: the glitch's two flanks are jumps and the line's steps beside them are not (one flank does not mark
        // the next), whichever way the line is read; its ascent one way is its descent the other.
        func elevation(_ k: Int) -> Double {
            if k == 199 { return 400 }
            return k >= 200 && k % 2 == 1 ? 360 : 300
        }
        func distance(_ k: Int) -> Double {
            k < 200 ? Double(k) * 20 : 3980 + Double(k - 199) * 200
        }
        let e = (0..<210).map(elevation)
        let x = (0..<210).map(distance)
        let end = x[209]
        let forward = ElevationSeries(distances: x, elevations: e)
        let backward = ElevationSeries(distances: x.map { end - $0 }.reversed(), elevations: e.reversed())
        #expect(AscentMethod.exact.leveled(forward).jumps.count == 2)
        #expect(AscentMethod.exact.leveled(backward).jumps.count == 2)
        let there = AscentMethod.exact.ascentDescent(of: forward)
        let back = AscentMethod.exact.ascentDescent(of: backward)
        #expect(there.ascentMeters == back.descentMeters && there.descentMeters == back.ascentMeters)
        #expect(there.ascentMeters == 300 && there.descentMeters == 240)
    }

    @Test func aJumpInOneSegmentMakesNoClimbAtTheNextBreak() throws {
        // Two level segments, the first jumping from 300 m to 400 m halfway (another altimeter from there on), the
        // second at 400 m: no climb anywhere, and no grade past 1 %, at the break either.
        let first = ElevationProfileTests.points(from: ElevationProfileTests.start, azimuth: 0, count: 101) {
            $0 < 500 ? 300 : 400
        }
        let next = Geodesic.wgs84.destination(from: first[100].coordinate, azimuthDegrees: 0, distanceMeters: 10)
        let second = ElevationProfileTests.points(from: next, azimuth: 0, count: 101) { _ in 400 }
        let track = Track(segments: [TrackSegment(points: first), TrackSegment(points: second)])
        let profile = ElevationProfile(track: track, method: .exact)
        #expect(profile.statistics.ascent?.elevationJumps.count == 1)
        #expect(profile.statistics.ascent?.ascentMeters == 0)
        #expect(profile.statistics.climbs.isEmpty)
        #expect(profile.samples.allSatisfy { abs($0.gradePercent) < 1 })
    }

    @Test func recordedStretchesHungBetweenAnElevationModelsHeightsAreNotLeveled() throws {
        // An elevation model's heights with a recorded stretch 40 m above them in the middle: the stretch is hung
        // between the model's heights (its offset taken out there), so no step where they meet is a jump.
        let points = ElevationProfileTests.points(from: ElevationProfileTests.start, count: 301) { d in
            300 + 0.02 * d + (d >= 1000 && d < 2000 ? 40 : 0)
        }
        let recorded = Array(100..<200)
        let profile = ElevationProfile(
            track: Track(segments: [TrackSegment(points: points)]), method: .exact, recorded: recorded,
            recordedMethod: .standard)
        let ascent = try #require(profile.statistics.ascent)
        #expect(ascent.elevationJumps.isEmpty)
        #expect(abs(ascent.ascentMeters - 60) < 3, "\(ascent.ascentMeters)")
        #expect(ascent.descentMeters < 3, "\(ascent.descentMeters)")
    }

    @Test func twoSourcesMixedCountOnlyTheClimbingWithinEach() {
        // A climb of 5 % with a fix every 20 m (1 m a step); fixes 100–149 and 300–302 come from an altimeter 200 m
        // higher. Leveled, the line climbs as before except at the four jumps, which take out their 1 m of the climb.
        let series = Self.series(400) { k in Double(k) + (100..<150 ~= k || 300..<303 ~= k ? 200 : 0) }
        let level = AscentMethod.exact.leveled(series)
        #expect(level.jumps.map(\.heightMeters) == [201, -199, 201, -199])
        #expect(level.jumps.map(\.distanceMeters) == [2000, 3000, 6000, 6060])
        let counted = AscentMethod.exact.ascentDescent(of: series)
        #expect(abs(counted.ascentMeters - (399 - 4)) < 1e-9)
        #expect(abs(counted.descentMeters) < 1e-9)
    }

    @Test func aSteepSlopeIsNoJumpWhereItsNeighbouringStepsGoOnTheSameWay() {
        // Fixes 25 m apart up a cliff path: 30 m a step for five steps (120 %), flat before and after. Each step is
        // steep and high, but continued by the next: the line's own slope, all of it climbing.
        let series = Self.series(100, step: 25) { k in 500 + 30 * Double(min(max(k - 50, 0), 5)) }
        #expect(AscentMethod.exact.leveled(series).jumps.isEmpty)
        #expect(AscentMethod.exact.ascentDescent(of: series).ascentMeters == 150)
        // A single such step between flat stretches is a jump.
        let single = Self.series(100, step: 25) { k in k < 50 ? 500 : 530 }
        #expect(AscentMethod.exact.leveled(single).jumps == [ElevationJump(distanceMeters: 1250, heightMeters: 30)])
    }

    @Test func strongNoiseMakesNoJumps() {
        // White noise of 8 m every 3 m: steps of 20–40 m steeper than 1:1 are common, but not five times the 90th
        // percentile of the steps' sizes (19 m). Nothing is taken out, and the ascent is the method's as before.
        var random = SeededRandom(state: 8)
        let series = Self.series(5000, step: 3) { _ in 400 + 8 * random.gaussian() }
        let steep = (1..<series.count).filter {
            abs(series.elevations[$0] - series.elevations[$0 - 1]) >= 20
        }
        #expect(steep.count > 300)
        #expect(AscentMethod.standard.leveled(series).jumps.isEmpty)
        var every = AscentMethod.standard
        every.elevationJumpMeters = nil
        #expect(AscentMethod.standard.ascentDescent(of: series) == every.ascentDescent(of: series))
    }

    @Test func lowStepsAreNoJumpsHoweverQuietTheLine() {
        // 19 m in one step on a quiet line (its steps spread by nothing): under the least height of a jump.
        let series = Self.series(100) { $0 < 50 ? 100 : 119 }
        #expect(AscentMethod.exact.leveled(series).jumps.isEmpty)
        #expect(AscentMethod.exact.ascentDescent(of: series).ascentMeters == 19)
    }

    @Test func theSummarySaysHowManyHowHighAndWhere() {
        #expect(ElevationJump.summary([]) == "")
        #expect(
            ElevationJump.summary([ElevationJump(distanceMeters: 19_400, heightMeters: -35.4)])
                == "an elevation jump between neighbouring points, of 35 m, at 19.40 km: not counted as climbing "
                + "(heights from two sources mixed, or a logger's glitches)")
        #expect(
            ElevationJump.summary([
                ElevationJump(distanceMeters: 19_374, heightMeters: 252.4),
                ElevationJump(distanceMeters: 19_397, heightMeters: -248),
            ])
                == "2 elevation jumps between neighbouring points, up to 252 m, the first at 19.37 km: not counted as "
                + "climbing (heights from two sources mixed, or a logger's glitches)")
    }

    @Test func aTrackWithJumpsGradesAndClimbsAsIfTheLineWentOnAtItsLevel() throws {
        // 3 km climbing at 5 %, a point every 10 m, seven of them 250 m up; elevations taken as exact. Each glitch
        // takes the road's two steps beside it (0.5 m each) out of the climb with it.
        let track = Track(segments: [
            TrackSegment(
                points: ElevationProfileTests.points(from: ElevationProfileTests.start, count: 301) { d in
                    300 + 0.05 * d + (d < 2950 && Int((d / 10).rounded()) % 40 == 20 ? 250 : 0)
                })
        ])
        let profile = ElevationProfile(track: track, method: .exact)
        let statistics = profile.statistics
        let ascent = try #require(statistics.ascent)
        #expect(ascent.elevationJumps.count == 14)
        #expect(abs(ascent.ascentMeters - (150 - 7)) < 1e-6)
        #expect(abs(ascent.descentMeters) < 1e-6)
        #expect(try #require(statistics.steepestClimbPercent) < 5.1)
        let highest: Double = 300 + 0.05 * 2600 + 250
        #expect(statistics.maxElevationMeters == highest)
        // The profile shows the elevations as recorded, glitches and all; its grades are the road's.
        let glitch: Double = 300 + 10 + 250
        #expect(abs(profile.samples[20].smoothedElevationMeters - glitch) < 1e-9)
        #expect(profile.samples.allSatisfy { abs($0.gradePercent) < 5.1 })
        #expect(profile.elevation(atDistance: 200).map { abs($0 - glitch) < 1e-6 } == true)
        #expect(profile.countedElevation(atDistance: 200).map { abs($0 - 309.5) < 1e-6 } == true)
        // The chart colours every stretch by the road's grade, 5 %: 3–6 %, never > 15 % at the glitches.
        let svg = ProfileChart().render(profile)
        let steepest = try #require(ProfileChart.classes.last?.color)
        #expect(!svg.contains("fill=\"\(steepest)\" stroke=\"\(steepest)\""))
        #expect(svg.contains("fill=\"\(ProfileChart.classes[1].color)\" stroke="))
        // One climb, the whole line, its top at the last point's recorded elevation.
        let climb = try #require(statistics.climbs.first)
        #expect(statistics.climbs.count == 1)
        #expect(abs(climb.topElevationMeters - 450) < 1e-6)
        #expect(abs(climb.gainMeters - (150 - 7)) < 1e-6)
        // The total of two such tracks has the jumps of both.
        #expect(TrackStatistics.total(of: [statistics, statistics]).ascent?.elevationJumps.count == 28)
    }
}
