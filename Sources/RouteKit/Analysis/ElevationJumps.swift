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
/// converges, or a barometric altimeter calibrating to the terrain (a logger's first minutes rising 197 m while the
/// rider rides 300 m; a hiker's watch falling 35 m in the first 29 s). A recording starts with a line, or with a
/// segment after a gap in time; ``AscentMethod/settlingSeconds``, ``AscentMethod/settlingMetersPerSecond`` and
/// ``AscentMethod/settlingSlowestMetersPerSecond`` say how long it may settle and how fast. It is not climbing: the
/// ascent, the descent, the grades and the climbs are measured as if the line had been at the settled level from the
/// recording's first fix.
public struct ElevationSettling: Hashable, Sendable {
    /// Where the elevations settle: the distance along the line of the fix they reach their level at, metres.
    public var distanceMeters: Double
    /// How far they moved from the recording's first fix to there, metres: positive up.
    public var heightMeters: Double
    /// How long it took from the recording's first fix, seconds.
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
    /// What a list of settlings means, for a warning ("a recording's elevations settle by +201 m in its first 3:25 min
    /// (to 0.31 km): not counted as climbing (a receiver or an altimeter finding its level)"). Empty for none.
    public static func summary(_ settlings: [ElevationSettling]) -> String {
        guard let first = settlings.first else { return "" }
        let said: String
        if settlings.count == 1 {
            let height = (first.heightMeters > 0 ? "+" : "−") + "\(Int(abs(first.heightMeters).rounded())) m"
            let seconds = Int(first.seconds.rounded())
            let duration = "\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60) min"
            let km = DecimalText.fixed(first.distanceMeters / 1000, decimals: 2)
            said = "a recording's elevations settle by \(height) in its first \(duration) (to \(km) km)"
        } else {
            let highest = Int((settlings.map { abs($0.heightMeters) }.max() ?? 0).rounded())
            said = "the elevations settle at the start of \(settlings.count) recordings, by up to \(highest) m"
        }
        return said + ": not counted as climbing (a receiver or an altimeter finding its level)"
    }
}

extension AscentDescent {
    /// What the ascent left out, for warnings and notes: the summaries of its settling and of its jumps
    /// (``ElevationSettling/summary(_:)``, ``ElevationJump/summary(_:)``), each where there is one.
    package var notCountedSummaries: [String] {
        [ElevationSettling.summary(elevationSettlings), ElevationJump.summary(elevationJumps)].filter { !$0.isEmpty }
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

    /// Where the elevations of `series` settle at its start (``ElevationSettling``). Among the fixes within
    /// ``settlingSeconds`` of the first, while the times rise from fix to fix: the last that the elevations reach from
    /// the first fix, by at least `height`, faster than anyone moves on foot or by bike, and still so over the shortest
    /// stretch ending at it that moves as far; then back to the last fix before it still so over the shortest stretch
    /// ending at it that moves a quarter as far (where the move itself ends). Too fast is steeper than 1:1 at
    /// ``settlingSlowestMetersPerSecond`` or more, up or down, or rising steeper than 1:2 at
    /// ``settlingMetersPerSecond`` or more. A receiver converging moves so from its first fix and stops; a climb after
    /// it, or a fast descent after minutes of riding, is not that fast from the first fix or over its own shortest
    /// stretch. O(n log n) in the fixes of the window. Nil for none.
    func settledStart(_ series: ElevationSeries, seconds: [Double], atLeast height: Double) -> SettledStart? {
        guard let window = settlingSeconds, seconds.count == series.count, let start = seconds.first, start.isFinite
        else { return nil }
        let x = series.distances
        let e = series.elevations
        var end = 0
        while end + 1 < series.count, seconds[end + 1].isFinite, seconds[end + 1] > seconds[end],
            seconds[end + 1] - start <= window
        {
            end += 1
        }
        guard end > 0 else { return nil }
        func tooFast(from j: Int, to k: Int, atLeast least: Double) -> Bool {
            let rise = e[k] - e[j]
            let run = x[k] - x[j]
            let speed = abs(rise) / (seconds[k] - seconds[j])
            return abs(rise) >= least
                && (abs(rise) > run && speed >= settlingSlowestMetersPerSecond
                    || rise > 0 && 2 * rise > run && speed >= settlingMetersPerSecond)
        }
        // The latest fix before k at least `far` above or below it (nil for none): the start of the shortest stretch
        // ending at k that moves as far, found by halving on the lowest and highest of the window's fixes before k.
        let inWindow = Array(e[0...end])
        let lowest = RangeExtremes(inWindow, by: <)
        let highest = RangeExtremes(inWindow, by: >)
        func shortestStart(_ k: Int, moving far: Double) -> Int? {
            func reaches(_ j: Int) -> Bool {
                lowest.extreme(j, k - 1) <= e[k] - far || highest.extreme(j, k - 1) >= e[k] + far
            }
            guard reaches(0) else { return nil }
            var (low, high) = (0, k - 1)  // fix `low` reaches
            while low < high {
                let mid = (low + high + 1) / 2
                if reaches(mid) { low = mid } else { high = mid - 1 }
            }
            return low
        }
        func stillTooFast(_ k: Int, moving far: Double) -> Bool {
            shortestStart(k, moving: far).map { tooFast(from: $0, to: k, atLeast: far) } ?? false
        }
        var fix: Int?
        for k in 1...end where tooFast(from: 0, to: k, atLeast: height) && stillTooFast(k, moving: height) { fix = k }
        // Back to where the move itself ends: the last fix still reached too fast over a quarter of that height.
        guard var settled = fix else { return nil }
        while settled > 1 && !stillTooFast(settled, moving: height / 4) { settled -= 1 }
        return SettledStart(
            fix: settled,
            settling: ElevationSettling(
                distanceMeters: x[settled], heightMeters: e[settled] - e[0], seconds: seconds[settled] - start))
    }
}

/// The least (or greatest) of any run of values, in O(1) after O(n log n): a sparse table.
struct RangeExtremes {
    private var levels: [[Double]]
    private let better: (Double, Double) -> Bool

    /// Over `values`, the extreme by `better` (`<`: the least).
    init(_ values: [Double], by better: @escaping (Double, Double) -> Bool) {
        self.better = better
        levels = [values]
        var width = 1
        while 2 * width <= values.count {
            let below = levels[levels.count - 1]
            levels.append(
                (0...(values.count - 2 * width)).map {
                    better(below[$0], below[$0 + width]) ? below[$0] : below[$0 + width]
                })
            width *= 2
        }
    }

    /// The extreme of the values from index `from` through `to` (`from` ≤ `to`).
    func extreme(_ from: Int, _ to: Int) -> Double {
        var level = 0
        while 1 << (level + 1) <= to - from + 1 { level += 1 }
        let a = levels[level][from]
        let b = levels[level][to - (1 << level) + 1]
        return better(a, b) ? a : b
    }
}
