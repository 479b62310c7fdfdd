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

    @Test(arguments: [UInt64(1), 2, 3])
    func aRecordedStretchCountsItsTerrainNotItsNoiseNorItsBias(seed: UInt64) {
        let x = (0..<4000).map { Double($0) * 5 }
        // 3 km the model does not cover, recorded 25 m high with 3 m of noise.
        let recorded = 1500..<2100
        let series = line(x, recorded: recorded, bias: 25, noise: 3, seed: seed)
        let truth = ascent(x)
        let (result, smoothed) = AscentMethod.exact.analyze(
            series, recorded: Array(recorded), recordedMethod: .standard)
        #expect(abs(result.ascentMeters - truth) / truth < 0.015)
        // The line ends where it ends: the recorded stretch's count corrects its extremes for white noise, by a few
        // decimetres at most.
        #expect(abs(result.ascentMeters - result.descentMeters - (terrain(x[3999]) - terrain(0))) < 0.5)
        #expect(smoothed.count == x.count)
        // Off the recorded stretch the elevations are counted as they are.
        #expect(smoothed[..<1500] == series.elevations[..<1500])
        #expect(smoothed[2100...] == series.elevations[2100...])
        // Either method on the whole line counts the noise: the exact one every wiggle, the one for recorded data
        // because it measures the noise of a line mostly without any (four times the truth).
        #expect(AscentMethod.exact.ascentDescent(of: series).ascentMeters > truth * 2)
        #expect(AscentMethod.standard.ascentDescent(of: series).ascentMeters > truth * 2)
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

    @Test func aFewExactPointsAmongRecordedOnesAreMeasuredWithThem() {
        // A model that filled in every 20th fix of a recorded line: the line is measured as recorded.
        var random = SeededRandom(state: 4)
        let x = (0..<3000).map { Double($0) * 5 }
        let series = ElevationSeries(distances: x, elevations: x.map { terrain($0) + 2 * random.gaussian() })
        let recorded = x.indices.filter { $0 % 20 != 0 }
        #expect(AscentMethod.recordedStretches(series, recorded: recorded) == [1..<x.count])
        let (result, _) = AscentMethod.exact.analyze(series, recorded: recorded, recordedMethod: .standard)
        // The first fix, exact, stands alone before the stretch, which meets it at its own height.
        let rest = ElevationSeries(distances: Array(x[1...]), elevations: Array(series.elevations[1...]))
        #expect(result == AscentMethod.standard.analyze(rest).result)
    }

    @Test func recordedStretchesJoinAcrossShortExactGaps() {
        let x = (0..<100).map { Double($0) * 30 }
        let series = ElevationSeries(distances: x, elevations: x.map(terrain))
        // Gaps of 5 samples (150 m) join; a gap of 12 samples (360 m) does not.
        let recorded = Array(10..<20) + Array(25..<40) + Array(52..<60)
        #expect(AscentMethod.recordedStretches(series, recorded: recorded) == [10..<40, 52..<60])
        #expect(AscentMethod.recordedStretches(series, recorded: []) == [])
    }
}
