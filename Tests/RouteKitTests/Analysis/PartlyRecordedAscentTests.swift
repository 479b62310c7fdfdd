import Foundation
import Testing

@testable import RouteKit

@Suite struct PartlyRecordedAscentTests {
    /// Hills of 60 m and 15 m over 20 km, a fix every 5 m.
    func terrain(_ x: Double) -> Double {
        600 + 30 * sin(x / 900) + 7.5 * sin(x / 160 + 1)
    }

    /// The terrain's ascent over `x` (the plain sum of rises between the fixes).
    func ascent(_ x: [Double]) -> Double {
        zip(x, x.dropFirst()).reduce(0.0) { $0 + max(0, terrain($1.1) - terrain($1.0)) }
    }

    /// The line at `x`, exact except at `recorded`, where a receiver adds `bias` and white noise of `noise`.
    func line(_ x: [Double], recorded: Range<Int>, bias: Double, noise: Double, seed: UInt64) -> ElevationSeries {
        var random = SeededRandom(state: seed)
        return ElevationSeries(
            distances: x,
            elevations: x.indices.map { i in
                terrain(x[i]) + (recorded.contains(i) ? bias + noise * random.gaussian() : 0)
            })
    }

    /// The terrain's descent over `x`.
    func descent(_ x: [Double]) -> Double {
        zip(x, x.dropFirst()).reduce(0.0) { $0 + max(0, terrain($1.0) - terrain($1.1)) }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aRecordedStretchCountsItsTerrainNotItsNoiseNorItsBias(seed: UInt64) {
        let x = (0..<4000).map { Double($0) * 5 }
        // 3 km the model does not cover, recorded 25 m high with 3 m of noise.
        let recorded = 1500..<2100
        let series = line(x, recorded: recorded, bias: 25, noise: 3, seed: seed)
        let (result, smoothed) = AscentMethod.exact.analyze(
            series, recorded: Array(recorded), recordedMethod: .standard)
        #expect(abs(result.ascentMeters - ascent(x)) / ascent(x) < 0.015)
        #expect(abs(result.descentMeters - descent(x)) / descent(x) < 0.015)
        // Counted in one pass: the line climbs from its first height to its last.
        #expect(abs(result.ascentMeters - result.descentMeters - (smoothed[3999] - smoothed[0])) < 1e-6)
        #expect(smoothed.count == x.count)
        // Off the recorded stretch the elevations are counted as they are; the stretch meets them at its ends.
        #expect(smoothed[..<1500] == series.elevations[..<1500])
        #expect(smoothed[2100...] == series.elevations[2100...])
        #expect(abs(smoothed[1500] - smoothed[1499]) < 1e-9 && abs(smoothed[2099] - smoothed[2100]) < 1e-9)
        // Either method on the whole line counts the noise: the exact one every wiggle, the one for recorded data
        // because it measures the noise of a line mostly without any (four times the truth).
        #expect(AscentMethod.exact.ascentDescent(of: series).ascentMeters > ascent(x) * 2)
        #expect(AscentMethod.standard.ascentDescent(of: series).ascentMeters > ascent(x) * 2)
    }

    @Test(arguments: [UInt64(5), 6])
    func aReceiverDriftingAcrossTheStretchCountsNeitherAsClimbNorAsDescent(seed: UInt64) {
        // Recorded 10 m high where the model ends and 40 m high where it begins again, over 4 km of a long climb
        // and its hills: the ramp takes the 30 m of drift off the ascent, and off nothing else.
        let x = (0..<4000).map { Double($0) * 5 }
        let recorded = 1200..<2000
        var random = SeededRandom(state: seed)
        let series = ElevationSeries(
            distances: x,
            elevations: x.indices.map { i in
                let drift = recorded.contains(i) ? 10 + 30 * Double(i - 1200) / 800 + 3 * random.gaussian() : 0
                return terrain(x[i]) + x[i] / 100 + drift
            })
        let rises = zip(x, x.dropFirst()).map { terrain($0.1) + $0.1 / 100 - terrain($0.0) - $0.0 / 100 }
        let up = rises.reduce(0) { $0 + max(0, $1) }
        let down = rises.reduce(0) { $0 + max(0, -$1) }
        let (result, _) = AscentMethod.exact.analyze(series, recorded: Array(recorded), recordedMethod: .standard)
        #expect(abs(result.ascentMeters - up) / up < 0.02, "\(result.ascentMeters) of \(up)")
        #expect(abs(result.descentMeters - down) / down < 0.03, "\(result.descentMeters) of \(down)")
    }

    @Test func aLineSmoothedByItsUsersSettingsMeetsItsRecordedStretchesWithoutAStep() {
        let x = (0..<4000).map { Double($0) * 5 }
        let recorded = 1500..<2100
        let series = line(x, recorded: recorded, bias: 25, noise: 3, seed: 7)
        var method = AscentMethod.exact
        method.smoothingMeters = 60
        method.thresholdMeters = 2
        let (result, smoothed) = method.analyze(series, recorded: Array(recorded), recordedMethod: .standard)
        #expect(abs(smoothed[1500] - smoothed[1499]) < 1e-9 && abs(smoothed[2099] - smoothed[2100]) < 1e-9)
        #expect(abs(result.ascentMeters - ascent(x)) / ascent(x) < 0.03)
    }

    @Test func aShortRecordedStretchIsBridged() {
        let x = (0..<400).map { Double($0) * 5 }
        // Six fixes (25 m) recorded 30 m high: too short to measure their noise; bridged straight.
        let series = line(x, recorded: 200..<206, bias: 30, noise: 0, seed: 1)
        let (result, smoothed) = AscentMethod.exact.analyze(
            series, recorded: Array(200..<206), recordedMethod: .standard)
        var bridged = series.elevations
        for i in 200..<206 {
            bridged[i] = bridged[199] + (bridged[206] - bridged[199]) * (x[i] - x[199]) / (x[206] - x[199])
        }
        #expect(smoothed == bridged)
        let plain = zip(bridged, bridged.dropFirst()).reduce(0.0) { $0 + max(0, $1.1 - $1.0) }
        #expect(abs(result.ascentMeters - plain) < 1e-9)
    }

    @Test func aBridgeKeepsTheExactHeightsWithinIt() {
        let x = (0..<400).map { Double($0) * 5 }
        // Two runs of three recorded fixes around one exact fix: one short stretch, whose exact fix stays.
        let recorded = [200, 201, 202, 204, 205, 206]
        var elevations = x.map(terrain)
        for i in recorded { elevations[i] += 30 }
        let series = ElevationSeries(distances: x, elevations: elevations)
        #expect(AscentMethod.exact.recordedStretches(series, recorded: recorded) == [200..<207])
        let (_, smoothed) = AscentMethod.exact.analyze(series, recorded: recorded, recordedMethod: .standard)
        #expect(smoothed[203] == terrain(x[203]))
        for (i, (p, q)) in [(200, (199, 203)), (202, (199, 203)), (204, (203, 207)), (206, (203, 207))] {
            let straight = terrain(x[p]) + (terrain(x[q]) - terrain(x[p])) * (x[i] - x[p]) / (x[q] - x[p])
            #expect(abs(smoothed[i] - straight) < 1e-9, "\(i)")
        }
    }

    @Test func aShortExactEndMeetsTheRecordedStretchInsteadOfHoldingIt() {
        // The model covers the first 100 m of the line only: the recorded rest keeps its own heights, 25 m above
        // the model's, and the first 100 m move up to meet them.
        let x = (0..<2000).map { Double($0) * 5 }
        let recorded = 20..<2000
        let series = line(x, recorded: recorded, bias: 25, noise: 2, seed: 8)
        let (result, smoothed) = AscentMethod.exact.analyze(
            series, recorded: Array(recorded), recordedMethod: .standard)
        let alone = AscentMethod.standard.analyze(series.only(20..<x.count))
        #expect(Array(smoothed[20...]) == alone.smoothed)
        #expect(abs(smoothed[19] - smoothed[20]) < 1e-9)
        #expect(abs((smoothed[1] - smoothed[0]) - (terrain(x[1]) - terrain(x[0]))) < 1e-9)
        #expect(abs(result.ascentMeters - ascent(x)) / ascent(x) < 0.03)
    }

    @Test func shortExactEndsMeetTheRecordedStretchAtBothEnds() {
        // The model covers the line's first and last 100 m only: the recorded stretch between is left as it
        // measures, and each end moves to meet it, its own shape kept.
        let x = (0..<2000).map { Double($0) * 5 }
        let recorded = 20..<1980
        let series = line(x, recorded: recorded, bias: 25, noise: 2, seed: 12)
        let (_, smoothed) = AscentMethod.exact.analyze(series, recorded: Array(recorded), recordedMethod: .standard)
        let alone = AscentMethod.standard.analyze(series.only(recorded))
        #expect(Array(smoothed[recorded]) == alone.smoothed)
        #expect(abs(smoothed[19] - smoothed[20]) < 1e-9 && abs(smoothed[1980] - smoothed[1979]) < 1e-9)
        #expect(abs((smoothed[19] - smoothed[0]) - (terrain(x[19]) - terrain(x[0]))) < 1e-9)
        #expect(abs((smoothed[1999] - smoothed[1980]) - (terrain(x[1999]) - terrain(x[1980]))) < 1e-9)
    }

    @Test func aRampedStretchCarriesTheExactFixesWithinIt() {
        // 5 km recorded 25 m high between two stretches of the model, three of its fixes filled in by the model.
        let x = (0..<2000).map { Double($0) * 5 }
        let inside = 1000..<1003
        let recorded = (500..<1500).filter { !inside.contains($0) }
        var random = SeededRandom(state: 13)
        let series = ElevationSeries(
            distances: x,
            elevations: x.indices.map { i in
                terrain(x[i]) + (recorded.contains(i) ? 25 + 2 * random.gaussian() : 0)
            })
        let (result, smoothed) = AscentMethod.exact.analyze(series, recorded: recorded, recordedMethod: .standard)
        #expect(abs(smoothed[500] - smoothed[499]) < 1e-9 && abs(smoothed[1499] - smoothed[1500]) < 1e-9)
        // The filled-in fixes lie straight between the recorded ones either side, ramp and all.
        for i in inside {
            let straight = smoothed[999] + (smoothed[1003] - smoothed[999]) * (x[i] - x[999]) / (x[1003] - x[999])
            #expect(abs(smoothed[i] - straight) < 1e-6, "\(i)")
        }
        #expect(abs(result.ascentMeters - ascent(x)) / ascent(x) < 0.03)
    }

    @Test func theLimitsForMeasuringARecordedStretchAreTheMethods() {
        // 500 m recorded: measured on its own by default, bridged where the method asks for 1 km.
        let x = (0..<2000).map { Double($0) * 5 }
        let recorded = 1000..<1100
        let series = line(x, recorded: recorded, bias: 25, noise: 2, seed: 14)
        var method = AscentMethod.exact
        let (_, measured) = method.analyze(series, recorded: Array(recorded), recordedMethod: .standard)
        method.shortestMeasuredRecordedMeters = 1000
        let (_, bridged) = method.analyze(series, recorded: Array(recorded), recordedMethod: .standard)
        let straight = { (i: Int) in
            series.elevations[999] + (series.elevations[1100] - series.elevations[999]) * (x[i] - x[999])
                / (x[1100] - x[999])
        }
        #expect(recorded.allSatisfy { abs(bridged[$0] - straight($0)) < 1e-9 })
        #expect(!recorded.allSatisfy { abs(measured[$0] - straight($0)) < 1e-6 })
        method.shortestMeasuredRecordedMeters = 200
        method.shortestMeasuredRecordedFixes = 101
        #expect(method.analyze(series, recorded: Array(recorded), recordedMethod: .standard).smoothed == bridged)
    }

    @Test func aFewExactPointsAmongRecordedOnesAreMeasuredWithThem() {
        // A model that filled in every 20th fix of a line recorded 20 m high: the line is measured as recorded,
        // on its recorded fixes, without the spikes of 20 m the model's would make.
        var random = SeededRandom(state: 4)
        let x = (0..<3000).map { Double($0) * 5 }
        let recorded = x.indices.filter { $0 % 20 != 0 }
        let series = ElevationSeries(
            distances: x, elevations: x.indices.map { terrain(x[$0]) + ($0 % 20 != 0 ? 20 + 2 * random.gaussian() : 0) }
        )
        #expect(AscentMethod.exact.recordedStretches(series, recorded: recorded) == [1..<x.count])
        let (result, _) = AscentMethod.exact.analyze(series, recorded: recorded, recordedMethod: .standard)
        let alone = AscentMethod.standard.analyze(series.only(recorded))
        #expect(
            result.noiseMeters == alone.result.noiseMeters && result.thresholdMeters == alone.result.thresholdMeters)
        #expect(abs(result.ascentMeters - alone.result.ascentMeters) < 0.5)
        #expect(abs(result.ascentMeters - ascent(x)) / ascent(x) < 0.05)
        #expect(AscentMethod.standard.ascentDescent(of: series).ascentMeters > ascent(x) * 1.5)
    }

    @Test func aRecordedLineWithAFewExactPointsInsideIsMeasuredOnItsRecordedFixes() {
        // Filled in where a recording lost its elevations for 15 m: the model's heights, 20 m under the receiver's,
        // are no spikes for the noise estimate, and nothing holds the line.
        var random = SeededRandom(state: 9)
        let x = (0..<3000).map { Double($0) * 5 }
        let exact = 1500..<1503
        let series = ElevationSeries(
            distances: x,
            elevations: x.indices.map { terrain(x[$0]) + (exact.contains($0) ? 0 : 20 + 2 * random.gaussian()) })
        let recorded = x.indices.filter { !exact.contains($0) }
        let (result, smoothed) = AscentMethod.exact.analyze(series, recorded: recorded, recordedMethod: .standard)
        let alone = AscentMethod.standard.analyze(series.only(recorded))
        #expect(result == alone.result)
        #expect(Array(smoothed[..<1500]) == Array(alone.smoothed[..<1500]))
        #expect(abs(smoothed[1501] - (alone.smoothed[1499] + alone.smoothed[1500]) / 2) < 1e-9)
    }

    @Test func aRecordedStretchKeepsItsMethodsCorrectionForWhiteNoise() {
        // A barometer's 12 km on flat ground between two stretches of the model, as flat: the recorded stretch's
        // extremes are corrected for the noise its smoothing leaves, as on its own. Smoothed at most 150 m: on ground
        // this flat the bandwidth would go on to 600 m (see ``AscentMethod/longHillBandwidth(_:model:left:)``), where
        // the noise crosses its mean too seldom for Rice's test to give any swing past the threshold to it, and
        // nothing is corrected.
        var random = SeededRandom(state: 10)
        let x = (0..<3000).map { Double($0) * 5 }
        let recorded = 300..<2700
        let series = ElevationSeries(
            distances: x,
            elevations: x.indices.map { 400 + (recorded.contains($0) ? 0.3 * random.gaussian() : 0) })
        let part = series.only(recorded)
        var method = AscentMethod.standard
        method.longHillSmoothingMeters = method.maximumSmoothingMeters
        let alone = method.analyzeCounting(part)
        #expect(alone.swing < alone.result.thresholdMeters)
        let (result, _) = AscentMethod.exact.analyze(series, recorded: Array(recorded), recordedMethod: method)
        #expect(abs(result.ascentMeters - alone.result.ascentMeters) < 0.2, "\(result) \(alone.result)")
    }

    @Test func aSwingIsHeldToTheThresholdOfTheNoisierStretchItTouches() {
        // A wiggle of 1.5 m on a stretch whose threshold is 3 m, ending where one of 0 begins: not counted.
        let thresholds = [3.0, 3, 0, 0]
        #expect(AscentMethod.extremes([10, 11, 9.5, 9.4], thresholdAt: { thresholds[$0] }) == [])
        // A swing past both thresholds counts across the junction, and every one past 0 beyond it.
        #expect(
            AscentMethod.extremes([10, 20, 12, 11.9, 12.4], thresholdAt: { thresholds[min($0, 3)] }) == [0, 1, 3, 4])
        #expect(AscentMethod.extremes([10, 11, 9.5, 9.4], threshold: 0) == [0, 1, 3])
    }

    @Test(arguments: [UInt64(15), 16])
    func theExtremesCountedAreTheLinesOwnAndCountItsAscentAgain(seed: UInt64) {
        // A barometer on flat ground, whose extremes are corrected for the noise the smoother leaves.
        var random = SeededRandom(state: seed)
        let x = (0..<3000).map { Double($0) * 5 }
        let series = ElevationSeries(
            distances: x, elevations: x.map { 400 + 0.5 * sin($0 / 700) + 0.3 * random.gaussian() })
        let (result, smoothed, counted, swing) = AscentMethod.standard.analyzeCounting(series)
        #expect(swing < result.thresholdMeters)
        let turns = Set(AscentMethod.extremes(smoothed, threshold: result.thresholdMeters))
        #expect(counted.allSatisfy { turns.contains($0.index) })
        #expect(zip(counted, counted.dropFirst()).allSatisfy { $0.index < $1.index })
        let heights = counted.map(\.height)
        #expect(AscentMethod.extremes(heights, threshold: swing) == Array(heights.indices))
        let (up, down) = AscentMethod.risesAndFalls(heights)
        #expect(up == result.ascentMeters && down == result.descentMeters)
    }

    @Test func recordedStretchesJoinAcrossShortExactGaps() {
        let x = (0..<100).map { Double($0) * 30 }
        let series = ElevationSeries(distances: x, elevations: x.map(terrain))
        let method = AscentMethod.exact
        // Gaps of 180 m join; a gap of 390 m does not.
        let recorded = Array(10..<20) + Array(25..<40) + Array(52..<60)
        #expect(method.recordedStretches(series, recorded: recorded) == [10..<40, 52..<60])
        #expect(method.recordedStretches(series, recorded: []) == [])
        // Indices out of order, repeated or off the line are passed over.
        #expect(method.recordedStretches(series, recorded: [10, 11, 11, 5, 12, 300, -1]) == [10..<13])
        // Two exact fixes between recorded ones 900 m apart stand alone, however few.
        let sparse = ElevationSeries(distances: x.map { $0 * 10 }, elevations: x.map(terrain))
        #expect(method.recordedStretches(sparse, recorded: [1, 2, 5, 6]) == [1..<3, 5..<7])
    }
}

extension ElevationSeries {
    /// The samples at `indices` alone, as a line of their own.
    fileprivate func only(_ indices: some Sequence<Int>) -> ElevationSeries {
        ElevationSeries(distances: indices.map { distances[$0] }, elevations: indices.map { elevations[$0] })
    }
}
