/// Lines whose elevations are exact (an elevation model's) on some stretches and recorded on others: where the
/// model has no data (a void, a track running off its tiles) the points keep their own elevations, noise and all.
///
/// Measuring such a line as recorded throughout smooths the model's stretches for a noise they do not have and
/// reads the recorded stretches' noise against them: a line 90 % on the model with one void counted 758 m where
/// the model's terrain has 454 m. Measuring it as exact counts every wiggle of the recorded noise. Each stretch
/// is smoothed as what it is instead, the recorded ones hung between the model's heights at their ends (a
/// recorded elevation is off the model's by the receiver's bias as well as its noise, tens of metres, which would
/// otherwise count as a climb at every edge of a void), and the whole line is counted in one pass over each
/// stretch's ends and the extremes it counts between (corrected for white noise where its method corrects them),
/// each with its own stretch's least swing: no climb is lost or doubled where two stretches meet.
extension AscentMethod {
    /// Ascent and descent of `series`, whose samples at `recorded` (ascending indices) kept recorded elevations
    /// where the others are exact, with the elevations counted:
    /// - an exact stretch is smoothed by this method (not at all with ``exact``), with its threshold;
    /// - a recorded stretch of at least ``shortestMeasuredRecordedFixes`` recorded fixes and
    ///   ``shortestMeasuredRecordedMeters`` (this method's limits) by `recordedMethod`, with the noise, smoothing
    ///   and threshold it measures on that stretch's recorded fixes alone (a few exact ones among them follow the
    ///   recorded ones either side), then shifted by a straight ramp from the offset that meets the smoothed
    ///   exact height before it to the one that meets the height after it; where only one end meets an exact
    ///   stretch that can hold it (at a line's end, or beside an exact stretch at a line's end shorter than
    ///   ``shortestMeasuredRecordedMeters``, which moves to meet it instead), by that end's offset throughout;
    ///   where neither does, not at all;
    /// - a shorter recorded stretch is bridged straight between the exact heights either side.
    ///
    /// Reports the noise, smoothing and threshold of the stretch with the most samples.
    package func analyze(
        _ series: ElevationSeries, recorded: [Int], recordedMethod: AscentMethod
    ) -> (result: AscentDescent, smoothed: [Double]) {
        let accepted = Self.ascending(recorded, below: series.count)
        var isRecorded = [Bool](repeating: false, count: series.count)
        for i in accepted { isRecorded[i] = true }
        if !isRecorded.contains(true) { return analyze(series) }
        if !isRecorded.contains(false) { return recordedMethod.analyze(series) }
        let x = series.distances
        var heights = series.elevations
        var measured: [Range<Int>] = []
        for r in recordedStretches(series, recorded: accepted) {
            let fixes = r.lazy.filter { isRecorded[$0] }.count
            if fixes >= shortestMeasuredRecordedFixes
                && x[r.upperBound - 1] - x[r.lowerBound] >= shortestMeasuredRecordedMeters
            {
                measured.append(r)
            } else {
                bridge(&heights, x, recordedIn: r, isRecorded: isRecorded)
            }
        }
        // Each stretch smoothed, with the extremes it counts between (indices into the line) and its least swing.
        struct Piece {
            var range: Range<Int>
            var counted: [(index: Int, height: Double)]
            var swing: Double
        }
        var pieces: [Piece] = []
        var total = AscentDescent()
        var most = 0
        func report(_ result: AscentDescent, samples: Int) {
            guard samples >= most else { return }
            most = samples
            total.noiseMeters = result.noiseMeters
            total.smoothingMeters = result.smoothingMeters
            total.thresholdMeters = result.thresholdMeters
        }
        // The exact stretches between the measured recorded ones (with the bridged ones in them).
        var smoothed = heights
        var start = 0
        for r in measured + [series.count..<series.count] {
            if r.lowerBound > start {
                let exact = start..<r.lowerBound
                let (result, own, counted, swing) = analyzeCounting(
                    ElevationSeries(distances: Array(x[exact]), elevations: Array(heights[exact])))
                report(result, samples: exact.count)
                smoothed.replaceSubrange(exact, with: own)
                let offset = exact.lowerBound
                pieces.append(
                    Piece(range: exact, counted: counted.map { ($0.index + offset, $0.height) }, swing: swing))
            }
            start = r.upperBound
        }
        // An exact stretch at a line's end too short to hold the recorded one beside it.
        func isShortEnd(_ r: Range<Int>) -> Bool {
            (r.lowerBound == 0 || r.upperBound == series.count)
                && x[r.upperBound - 1] - x[r.lowerBound] < shortestMeasuredRecordedMeters
        }
        let short = pieces.map(\.range).filter(isShortEnd)
        func holds(_ i: Int) -> Bool { i >= 0 && i < series.count && !short.contains { $0.contains(i) } }
        for r in measured {
            // Measured on its recorded fixes alone; the exact ones among them follow.
            let kept = r.filter { isRecorded[$0] }
            let (result, fit, counted, swing) = recordedMethod.analyzeCounting(
                ElevationSeries(distances: kept.map { x[$0] }, elevations: kept.map { heights[$0] }))
            report(result, samples: r.count)
            var own: [Double] = []
            own.reserveCapacity(r.count)
            var k = 0
            for i in r {
                if isRecorded[i] {
                    own.append(fit[k])
                    k += 1
                } else {
                    // Between two recorded fixes: a stretch starts and ends with one.
                    let (p, q) = (kept[k - 1], kept[k])
                    own.append(Self.straight(from: (x[p], fit[k - 1]), to: (x[q], fit[k]), at: x[i]))
                }
            }
            // The ramp from the offset at the first fix to the one at the last (the one there is at both where
            // only one end meets an exact stretch that holds it; none where neither does).
            let first = holds(r.lowerBound - 1) ? smoothed[r.lowerBound - 1] - own[0] : nil
            let last = holds(r.upperBound) ? smoothed[r.upperBound] - own[own.count - 1] : nil
            let (a, b) = (first ?? last ?? 0, last ?? first ?? 0)
            func ramp(_ i: Int) -> Double {
                Self.straight(from: (x[r.lowerBound], a), to: (x[r.upperBound - 1], b), at: x[i])
            }
            for (k, i) in r.enumerated() { own[k] += ramp(i) }
            smoothed.replaceSubrange(r, with: own)
            let placed = counted.map { (index: kept[$0.index], height: $0.height + ramp(kept[$0.index])) }
            pieces.append(Piece(range: r, counted: placed, swing: swing))
        }
        pieces.sort { $0.range.lowerBound < $1.range.lowerBound }
        // A short exact end moves to meet the stretch beside it.
        for (n, piece) in pieces.enumerated() where short.contains(piece.range) {
            let r = piece.range
            let (inside, outside) =
                r.lowerBound == 0 ? (r.upperBound - 1, r.upperBound) : (r.lowerBound, r.lowerBound - 1)
            guard outside >= 0 && outside < series.count else { continue }
            let shift = smoothed[outside] - smoothed[inside]
            for i in r { smoothed[i] += shift }
            for m in pieces[n].counted.indices { pieces[n].counted[m].height += shift }
        }
        // One pass over the line: the extremes each stretch counted, with its least swing, and its smoothed heights
        // where it meets the next (beside a corrected extreme there, not for it: the two may differ by the
        // correction, and equal neighbours change nothing); at the line's ends, as the stretch alone counts them.
        var values: [Double] = []
        var swings: [Double] = []
        for piece in pieces {
            let r = piece.range
            var along = piece.counted.map(\.height)
            let none = along.isEmpty
            if r.lowerBound > 0 || none { along.insert(smoothed[r.lowerBound], at: 0) }
            if r.upperBound < series.count || none { along.append(smoothed[r.upperBound - 1]) }
            values += along
            swings += Array(repeating: piece.swing, count: along.count)
        }
        let turns = Self.extremes(values, thresholdAt: { swings[$0] })
        (total.ascentMeters, total.descentMeters) = Self.risesAndFalls(turns.map { values[$0] })
        return (total, smoothed)
    }

    /// Replaces the recorded elevations of `stretch` by a straight line between the exact heights either side of
    /// each run of them, as far along as each fix lies (at a line's end, the one exact height beside the run).
    private func bridge(_ heights: inout [Double], _ x: [Double], recordedIn stretch: Range<Int>, isRecorded: [Bool]) {
        var i = stretch.lowerBound
        while i < stretch.upperBound {
            guard isRecorded[i] else {
                i += 1
                continue
            }
            var end = i
            while end < stretch.upperBound && isRecorded[end] { end += 1 }
            let before = i > 0 ? i - 1 : nil
            let after = end < heights.count ? end : nil
            if let p = before ?? after, let q = after ?? before {
                for k in i..<end {
                    heights[k] = Self.straight(from: (x[p], heights[p]), to: (x[q], heights[q]), at: x[k])
                }
            }
            i = end
        }
    }

    /// The stretches of `series` to measure as recorded: the runs of the `recorded` indices (ascending; an entry
    /// out of order is passed over), two runs joined where the recorded fixes either side of the exact ones between
    /// them are less than ``shortestMeasuredRecordedMeters`` apart (a few points filled in from a model among
    /// recorded ones are measured with them).
    func recordedStretches(_ series: ElevationSeries, recorded: [Int]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        for i in Self.ascending(recorded, below: series.count) {
            if let last = runs.last, last.upperBound == i {
                runs[runs.count - 1] = last.lowerBound..<(i + 1)
            } else {
                runs.append(i..<(i + 1))
            }
        }
        var merged: [Range<Int>] = []
        for r in runs {
            if let last = merged.last,
                series.distances[r.lowerBound] - series.distances[last.upperBound - 1] < shortestMeasuredRecordedMeters
            {
                merged[merged.count - 1] = last.lowerBound..<r.upperBound
            } else {
                merged.append(r)
            }
        }
        return merged
    }

    /// The entries of `indices` from 0 to `count` − 1 that are each greater than the one before: the marks of
    /// points along a line, an entry out of order or repeated passed over.
    static func ascending(_ indices: [Int], below count: Int) -> [Int] {
        var out: [Int] = []
        for i in indices where i >= 0 && i < count && i > (out.last ?? -1) { out.append(i) }
        return out
    }

    /// The height at `x` on the straight line through `a` and `b` (distance, height); `a`'s height where the two
    /// lie at one distance.
    static func straight(from a: (x: Double, h: Double), to b: (x: Double, h: Double), at x: Double) -> Double {
        b.x > a.x ? a.h + (b.h - a.h) * (x - a.x) / (b.x - a.x) : a.h
    }
}
