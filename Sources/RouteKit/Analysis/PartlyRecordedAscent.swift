/// Lines whose elevations are exact (an elevation model's) on some stretches and recorded on others: where the
/// model has no data (a void, a track running off its tiles) the points keep their own elevations, noise and all.
///
/// Measuring such a line as recorded throughout smooths the model's stretches for a noise they do not have and
/// reads the recorded stretches' noise against them: a line 90 % on the model with one void counted 758 m where
/// the model's terrain has 454 m. Measuring it as exact counts every wiggle of the recorded noise. Each stretch
/// is measured as what it is instead, and the recorded ones are hung between the model's heights at their ends:
/// a recorded elevation is off the model's by the receiver's bias as well as its noise (tens of metres), which
/// would otherwise count as a climb at every edge of a void.
extension AscentMethod {
    /// The fewest samples of a recorded stretch whose noise is measured on its own; shorter stretches are bridged.
    static let shortestMeasuredRecordedSamples = 10
    /// The shortest recorded stretch whose noise is measured on its own, in metres; shorter ones are bridged
    /// straight between the model's heights either side (too short to tell noise from terrain, and to hide
    /// more than a small hill).
    static let shortestMeasuredRecordedMeters = 200.0

    /// Ascent and descent of `series`, whose samples at `recorded` (ascending indices) kept recorded elevations
    /// where the others are exact: this method on the exact stretches, `recordedMethod` on each long recorded
    /// stretch, its smoothed elevations shifted by a straight ramp to meet the exact heights at its ends.
    /// Recorded stretches too short to measure are bridged straight between the exact heights either side; an
    /// exact stretch too short to stand alone is measured with the recorded stretches around it. Reports the
    /// noise, smoothing and threshold of the longest stretch.
    package func analyze(
        _ series: ElevationSeries, recorded: [Int], recordedMethod: AscentMethod
    ) -> (result: AscentDescent, smoothed: [Double]) {
        let stretches = Self.recordedStretches(series, recorded: recorded)
        if stretches.isEmpty { return analyze(series) }
        if stretches == [0..<series.count] { return recordedMethod.analyze(series) }
        let x = series.distances
        var heights = series.elevations
        var total = AscentDescent()
        var longest = 0
        func report(_ result: AscentDescent, samples: Int) {
            total.ascentMeters += result.ascentMeters
            total.descentMeters += result.descentMeters
            guard samples >= longest else { return }
            longest = samples
            total.noiseMeters = result.noiseMeters
            total.smoothingMeters = result.smoothingMeters
            total.thresholdMeters = result.thresholdMeters
        }
        var smoothed = heights
        var measured: [Range<Int>] = []
        for r in stretches {
            let before = r.lowerBound > 0 ? heights[r.lowerBound - 1] : nil
            let after = r.upperBound < series.count ? heights[r.upperBound] : nil
            let span = x[r.upperBound - 1] - x[r.lowerBound]
            guard r.count >= Self.shortestMeasuredRecordedSamples && span >= Self.shortestMeasuredRecordedMeters
            else {
                // Straight from the exact height before to the one after, as far along as each fix lies.
                let x0 = r.lowerBound > 0 ? x[r.lowerBound - 1] : x[r.lowerBound]
                let x1 = r.upperBound < series.count ? x[r.upperBound] : x[r.upperBound - 1]
                for i in r {
                    let (a, b) = (before ?? after ?? heights[i], after ?? before ?? heights[i])
                    heights[i] = x1 > x0 ? a + (b - a) * (x[i] - x0) / (x1 - x0) : a
                }
                continue
            }
            // The ramp runs from the stretch's first fix to its last, which meet the exact heights either side.
            func along(_ i: Int) -> Double { span > 0 ? (x[i] - x[r.lowerBound]) / span : 1 }
            let part = ElevationSeries(distances: Array(x[r]), elevations: Array(heights[r]))
            var (result, own) = recordedMethod.analyze(part)
            let first = before.map { $0 - own[0] }
            let last = after.map { $0 - own[own.count - 1] }
            let (a, b) = (first ?? last ?? 0, last ?? first ?? 0)
            for (k, i) in r.enumerated() { own[k] += a + (b - a) * along(i) }
            // The ramp adds its rise to the stretch's ascent (or its fall to the descent).
            result.ascentMeters += max(0, b - a)
            result.descentMeters += max(0, a - b)
            report(result, samples: r.count)
            heights.replaceSubrange(r, with: own)
            smoothed.replaceSubrange(r, with: own)
            measured.append(r)
        }
        // The exact stretches between the measured recorded ones (with the bridged ones in them), which meet them
        // at their ends: a step of 0 either side.
        var start = 0
        for r in measured + [series.count..<series.count] {
            if r.lowerBound > start {
                let part = ElevationSeries(
                    distances: Array(x[start..<r.lowerBound]), elevations: Array(heights[start..<r.lowerBound]))
                let (result, own) = analyze(part)
                report(result, samples: part.count)
                smoothed.replaceSubrange(start..<r.lowerBound, with: own)
            }
            start = r.upperBound
        }
        return (total, smoothed)
    }

    /// The stretches of `series` to measure as recorded: the runs of the `recorded` indices, each with the exact
    /// stretches between them too short to stand alone (fewer than ``shortestMeasuredRecordedSamples`` samples
    /// or shorter than ``shortestMeasuredRecordedMeters``: a few points filled in from a model among recorded
    /// ones are measured with them).
    static func recordedStretches(_ series: ElevationSeries, recorded: [Int]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        for i in recorded where i >= 0 && i < series.count {
            if let last = runs.last, last.upperBound == i {
                runs[runs.count - 1] = last.lowerBound..<(i + 1)
            } else {
                runs.append(i..<(i + 1))
            }
        }
        var merged: [Range<Int>] = []
        for r in runs {
            if let last = merged.last {
                let gap = last.upperBound..<r.lowerBound
                let gapMeters = series.distances[r.lowerBound] - series.distances[last.upperBound - 1]
                if gap.count < shortestMeasuredRecordedSamples || gapMeters < shortestMeasuredRecordedMeters {
                    merged[merged.count - 1] = last.lowerBound..<r.upperBound
                    continue
                }
            }
            merged.append(r)
        }
        return merged
    }
}
