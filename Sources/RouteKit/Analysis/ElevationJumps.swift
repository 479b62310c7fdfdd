/// A step of a line's elevations between neighbouring fixes that no one climbs and no noise makes: heights from two
/// sources mixed in one line (a track joined from recordings whose altimeters disagree by a hundred metres or more,
/// each point keeping its own), or a logger's glitch (one fix hundreds of metres off). It is not climbing: the ascent,
/// the descent, the grades and the climbs are measured as if the line went on at the level it had before it
/// (``AscentMethod/elevationJumpMeters`` says which steps are jumps).
public struct ElevationJump: Hashable, Sendable {
    /// Where it is: the distance along the line of the fix after it, metres.
    public var distanceMeters: Double
    /// Its height, metres: positive up, negative down.
    public var heightMeters: Double

    /// A jump `heightMeters` high (negative down) at `distanceMeters` along its line.
    public init(distanceMeters: Double, heightMeters: Double) {
        self.distanceMeters = distanceMeters
        self.heightMeters = heightMeters
    }
}

extension ElevationJump {
    /// What a list of jumps means, for a warning: how many, the highest, where the first is, and that they are not
    /// counted ("3 elevation jumps between neighbouring points, up to 252 m, the first at 19.37 km: not counted as
    /// climbing (heights from two sources mixed, or a logger's glitches)"). Empty for none.
    public static func summary(_ jumps: [ElevationJump]) -> String {
        guard let first = jumps.first else { return "" }
        let highest = jumps.map { abs($0.heightMeters) }.max() ?? 0
        let count = jumps.count == 1 ? "an elevation jump" : "\(jumps.count) elevation jumps"
        let height = jumps.count == 1 ? "of \(Int(highest.rounded())) m" : "up to \(Int(highest.rounded())) m"
        let km = DecimalText.fixed(first.distanceMeters / 1000, decimals: 2)
        let place = jumps.count == 1 ? "at \(km) km" : "the first at \(km) km"
        return "\(count) between neighbouring points, \(height), \(place): not counted as climbing "
            + "(heights from two sources mixed, or a logger's glitches)"
    }
}

/// A recording's elevations finding their level at its start: a GPS receiver's first heights before its vertical fix
/// converges, or a barometric altimeter calibrating to the terrain (a logger's first minutes rising 200 m while the
/// rider rides 350 m; a hiker's watch falling 58 m before the first steps). Within ``AscentMethod/settlingSeconds`` of
/// a segment's first fix (timed), its elevations move at least as far as an ``ElevationJump`` must be high and faster
/// than anyone moves on foot or by bike: from the first fix steeper than 1:1, or from any fix steeper than 1:2 at
/// ``AscentMethod/settlingMetersPerSecond`` or faster. It is not climbing: the ascent, the descent, the grades and the
/// climbs are measured as if the line had been at the settled level from its first fix.
public struct ElevationSettling: Hashable, Sendable {
    /// Where the elevations settle: the distance along the line of the fix they reach their level at, metres.
    public var distanceMeters: Double
    /// How far they moved from the segment's first fix to there, metres: positive up.
    public var heightMeters: Double
    /// How long it took from the segment's first fix, seconds.
    public var seconds: Double

    /// Elevations settling `heightMeters` (negative down) over `seconds`, reaching their level `distanceMeters` along
    /// their line.
    public init(distanceMeters: Double, heightMeters: Double, seconds: Double) {
        self.distanceMeters = distanceMeters
        self.heightMeters = heightMeters
        self.seconds = seconds
    }
}

extension ElevationSettling {
    /// What a list of settlings means, for a warning ("the elevations settle by +203 m in the first 3:50 min
    /// (0.35 km): not counted as climbing (a receiver or an altimeter finding its level)"). Empty for none.
    public static func summary(_ settlings: [ElevationSettling]) -> String {
        guard let first = settlings.first else { return "" }
        let said: String
        if settlings.count == 1 {
            let height = (first.heightMeters > 0 ? "+" : "−") + "\(Int(abs(first.heightMeters).rounded())) m"
            let seconds = Int(first.seconds.rounded())
            let duration = "\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60) min"
            let km = DecimalText.fixed(first.distanceMeters / 1000, decimals: 2)
            said = "the elevations settle by \(height) in the first \(duration) (\(km) km)"
        } else {
            let highest = Int((settlings.map { abs($0.heightMeters) }.max() ?? 0).rounded())
            said = "the elevations settle at the start of \(settlings.count) segments, by up to \(highest) m"
        }
        return said + ": not counted as climbing (a receiver or an altimeter finding its level)"
    }
}

/// A line's elevations with their jumps and its start's settling taken out: each elevation after a jump moved by its
/// height, so that the line goes on at the level it had before it, and those before the settled level at that level.
/// The ascent is counted on these; the elevations shown are these plus ``offsets``.
struct LeveledElevations {
    /// The series without its jumps.
    var series: ElevationSeries
    /// The jumps taken out, in order along the line.
    var jumps: [ElevationJump]
    /// For each sample, what was taken off its elevation (the sum of the jumps before it, and before the line's
    /// elevations settle, how far they were from the settled level); empty where none was.
    var offsets: [Double]
    /// The elevations settling at the line's start, taken out; nil where they do not.
    var settling: ElevationSettling? = nil

    /// `values` along the leveled series (the smoothed elevations) at the recorded levels again: each plus its offset.
    func recordedLevels(_ values: [Double]) -> [Double] {
        guard !offsets.isEmpty, values.count == offsets.count else { return values }
        return zip(values, offsets).map { $0 + $1 }
    }
}

/// Where a line's elevations settle at its start: the fix, and what the settling is.
struct SettledStart {
    var fix: Int
    var settling: ElevationSettling
}

extension AscentMethod {
    /// `series` with its jumps taken out, and with the settling of its elevations at the start where `seconds` (each
    /// sample's time in seconds from any origin, NaN where it has none; empty: none) shows one
    /// (``ElevationSettling``). A step is a jump when it is at least ``elevationJumpMeters`` high, steeper than 1:1, at
    /// least ``elevationJumpPerUsualStep`` times the 90th percentile of the sizes of the line's steps (on steep or
    /// rough ground, and under strong noise, that percentile is large: under white noise of σ it is 2.33σ, so a jump
    /// is over 11.6σ), and the line on neither side of it goes on the same way steeper than 1:2 over as far as the
    /// step is high or long (that is a steep slope of the line, or a device's reading settling, not a jump); and so is
    /// a step beside a jump back the other way by at least half its height and the height a jump needs here, however
    /// long (a spike's other flank). O(n) where no step is that high and steep and the start does not settle.
    func leveled(_ series: ElevationSeries, seconds: [Double] = []) -> LeveledElevations {
        let none = LeveledElevations(series: series, jumps: [], offsets: [])
        guard let least = elevationJumpMeters, series.count >= 2 else { return none }
        let x = series.distances
        let e = series.elevations
        func steep(_ i: Int, atLeast height: Double) -> Bool {
            let rise = abs(e[i] - e[i - 1])
            return rise >= height && rise > x[i] - x[i - 1]
        }
        guard
            (1..<series.count).contains(where: { steep($0, atLeast: least) })
                || settledStart(series, seconds: seconds, atLeast: least) != nil
        else { return none }
        var sizes = (1..<series.count).map { abs(e[$0] - e[$0 - 1]) }
        let usual = Self.select(&sizes, Int(0.9 * Double(sizes.count - 1)))
        let height = max(least, elevationJumpPerUsualStep * usual)
        // Whether the line beside step i (from fix i − 1 to fix i) goes on the way of its rise, steeper than 1:2 over
        // as far as the step is high or long: before fix i − 1 (`after` false) or after fix i.
        func continues(_ i: Int, after: Bool) -> Bool {
            let rise = e[i] - e[i - 1]
            let reach = max(abs(rise), x[i] - x[i - 1])
            let from = after ? i : i - 1
            var to = from
            if after {
                while to + 1 < series.count && x[to] - x[from] < reach { to += 1 }
            } else {
                while to > 0 && x[from] - x[to] < reach { to -= 1 }
            }
            let run = abs(x[to] - x[from])
            let change = after ? e[to] - e[from] : e[from] - e[to]
            return run > 0 && change * rise > 0 && 2 * abs(change) > run
        }
        var isJump = [Bool](repeating: false, count: series.count)
        for i in 1..<series.count where steep(i, atLeast: height) {
            isJump[i] = !continues(i, after: false) && !continues(i, after: true)
        }
        // A spike's other flank: a step beside a jump, back the other way by at least half as much and a jump's least
        // height, however long (a glitch may move the fix as well as its height).
        let first = isJump  // flanks are looked for beside these only, so that one flank never marks the next
        for i in 1..<series.count where first[i] {
            let rise = e[i] - e[i - 1]
            for j in [i - 1, i + 1] where j >= 1 && j < series.count && !isJump[j] {
                let back = e[j] - e[j - 1]
                if back * rise < 0 && abs(back) >= max(height, abs(rise) / 2) { isJump[j] = true }
            }
        }
        var jumps: [ElevationJump] = []
        var offsets = [Double](repeating: 0, count: series.count)
        for k in 1..<series.count {
            if isJump[k] { jumps.append(ElevationJump(distanceMeters: x[k], heightMeters: e[k] - e[k - 1])) }
            offsets[k] = offsets[k - 1] + (isJump[k] ? e[k] - e[k - 1] : 0)
        }
        // Then the start's settling, on the line without its jumps (a glitch or two sources mixed are jumps): the
        // line before the fix it settles at is taken at that fix's level.
        var level = zip(e, offsets).map { $0 - $1 }
        let settling = settledStart(ElevationSeries(distances: x, elevations: level), seconds: seconds, atLeast: height)
        if let settling {
            for i in 0..<settling.fix {
                offsets[i] += level[i] - level[settling.fix]
                level[i] = level[settling.fix]
            }
        }
        guard !jumps.isEmpty || settling != nil else { return none }
        return LeveledElevations(
            series: ElevationSeries(distances: x, elevations: level), jumps: jumps, offsets: offsets,
            settling: settling?.settling)
    }

    /// Where the elevations of `series` settle at its start (``ElevationSettling``): the last fix within
    /// ``settlingSeconds`` of the first (times rising from fix to fix) that the elevations reach from the first fix, by
    /// at least `height`, faster than anyone moves on foot or by bike (steeper than 1:1 at any speed, or steeper than
    /// 1:2 at ``settlingMetersPerSecond`` or faster), and are still moving so there: over the shortest stretch ending
    /// at it that moves as far. A receiver converging rises so from its first fix and stops; a climb after it, or a
    /// fast descent after minutes of riding, is not that fast over its own shortest stretch, or from the first fix.
    /// Nil for none.
    func settledStart(_ series: ElevationSeries, seconds: [Double], atLeast height: Double) -> SettledStart? {
        guard let window = settlingSeconds, seconds.count == series.count, let start = seconds.first, start.isFinite
        else { return nil }
        let x = series.distances
        let e = series.elevations
        func tooFast(from j: Int, to k: Int) -> Bool {
            let rise = abs(e[k] - e[j])
            let run = x[k] - x[j]
            return rise >= height
                && (rise > run || 2 * rise > run && rise >= settlingMetersPerSecond * (seconds[k] - seconds[j]))
        }
        var fix: Int?
        var k = 1
        while k < series.count, seconds[k].isFinite, seconds[k] > seconds[k - 1], seconds[k] - start <= window {
            if tooFast(from: 0, to: k) {
                var j = k - 1
                while j > 0 && abs(e[k] - e[j]) < height { j -= 1 }
                if tooFast(from: j, to: k) { fix = k }
            }
            k += 1
        }
        return fix.map {
            SettledStart(
                fix: $0,
                settling: ElevationSettling(
                    distanceMeters: x[$0], heightMeters: e[$0] - e[0], seconds: seconds[$0] - start))
        }
    }
}
