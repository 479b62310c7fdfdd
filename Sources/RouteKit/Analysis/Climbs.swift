/// The category of a climb, as race books print them: from the hardest, `HC` (hors catégorie), then 1 to 4.
public enum ClimbCategory: String, Hashable, Sendable, CaseIterable, Comparable {
    case hc = "HC"
    case first = "1"
    case second = "2"
    case third = "3"
    case fourth = "4"

    /// The category of a climb's score (length in metres × average grade in percent): ≥ 80,000 `HC`,
    /// ≥ 64,000 `1`, ≥ 32,000 `2`, ≥ 16,000 `3`, ≥ 8,000 `4`; nil below (an uncategorised climb).
    public init?(score: Double) {
        guard let category = Self.allCases.first(where: { score >= $0.minimumScore }) else { return nil }
        self = category
    }

    /// The least score of the category.
    public var minimumScore: Double {
        switch self {
        case .hc: 80_000
        case .first: 64_000
        case .second: 32_000
        case .third: 16_000
        case .fourth: 8_000
        }
    }

    /// Harder first: `HC` < `1` < … < `4`.
    public static func < (a: ClimbCategory, b: ClimbCategory) -> Bool { a.minimumScore > b.minimumScore }
}

/// A climb of a track: a stretch from a low point to the following high point, found on the smoothed
/// elevations of its profile (the same as the ascent's), with the numbers riders compare.
public struct Climb: Hashable, Sendable {
    /// Where it starts and ends (its top), metres along the track (segment gaps not counted).
    public var startMeters: Double
    public var endMeters: Double
    /// `endMeters − startMeters`.
    public var lengthMeters: Double { endMeters - startMeters }
    /// Top minus bottom, metres (elevation jumps between them not counted: ``ElevationJump``).
    public var gainMeters: Double
    /// Elevation of the top, metres.
    public var topElevationMeters: Double
    /// Gain over length, percent.
    public var averageGradePercent: Double { gainMeters / lengthMeters * 100 }
    /// The steepest average grade over any stretch of at least 100 m inside the climb, percent.
    public var maxGradePercent: Double
    /// Where it starts and where its top is.
    public var start: Coordinate?
    public var top: Coordinate?

    /// Length in metres × average grade in percent: what the category is read from.
    public var score: Double { lengthMeters * averageGradePercent }
    /// The category (nil: an uncategorised climb).
    public var category: ClimbCategory? { ClimbCategory(score: score) }
    /// The FIETS index: gain² / (10 × length) + max(0, (top − 1000) / 1000), all in metres.
    public var fiets: Double {
        gainMeters * gainMeters / (10 * lengthMeters) + max(0, (topElevationMeters - 1000) / 1000)
    }

    /// A climb with these numbers; `start` and `top` where known.
    public init(
        startMeters: Double, endMeters: Double, gainMeters: Double, topElevationMeters: Double,
        maxGradePercent: Double, start: Coordinate? = nil, top: Coordinate? = nil
    ) {
        self.startMeters = startMeters
        self.endMeters = endMeters
        self.gainMeters = gainMeters
        self.topElevationMeters = topElevationMeters
        self.maxGradePercent = maxGradePercent
        self.start = start
        self.top = top
    }

    /// The shortest climb counted, metres.
    public static let minimumLengthMeters = 500.0
    /// The gentlest climb counted, percent.
    public static let minimumAverageGradePercent = 3.0
    /// A dip inside a climb ends it when it is this long (metres) or longer …
    public static let longestDipMeters = 500.0
    /// … or loses at least this much: the larger of 10 m and 10 % of the climb's gain so far.
    public static func dipLimitMeters(gainSoFar: Double) -> Double { max(10, 0.1 * gainSoFar) }
    /// The stretch over which the steepest grade is taken, metres.
    public static let maxGradeWindowMeters = 100.0
}

extension ElevationProfile {
    /// The climbs of the track, in order along it: ``TrackStatistics/climbs``, found as
    /// ``Climb/find(distances:elevations:coordinate:)`` says on the smoothed elevations the ascent counts (without the
    /// track's elevation jumps: ``ElevationJump``).
    public func climbs() -> [Climb] { statistics.climbs }
}

extension Climb {
    /// The climbs of a profile given as `distances` along it (metres, increasing) and smoothed `elevations`,
    /// in order, found by a stated rule: a climb runs from a low point to the following high point; a dip
    /// inside it does not end it while it loses less than max(10 m, 10 % of the gain so far) and is shorter
    /// than 500 m; a climb counts when it is at least 500 m long with an average grade of at least 3 %.
    /// `coordinate` gives the position at a sample's index, for the start and the top. O(n).
    public static func find(distances d: [Double], elevations e: [Double], coordinate: (Int) -> Coordinate?) -> [Climb]
    {
        find(distances: d, elevations: e, tops: e, coordinate: coordinate)
    }

    /// The climbs as ``find(distances:elevations:coordinate:)`` finds them on `elevations`, each top's elevation read
    /// from `tops` (the smoothed elevations at their recorded levels, where the line's jumps were taken out of
    /// `elevations`: ``ElevationJump``).
    static func find(
        distances d: [Double], elevations e: [Double], tops: [Double], coordinate: (Int) -> Coordinate?
    ) -> [Climb] {
        guard d.count >= 2, e.count == d.count, tops.count == d.count else { return [] }
        var found: [Climb] = []
        var bottom = 0, top = 0  // the climb being followed
        var low = 0, high = 0  // since the top: the lowest point, and the highest after it
        for i in 1..<d.count {
            if e[i] > e[top] {
                (top, low, high) = (i, i, i)
                continue
            }
            if top == bottom {  // nothing gained yet: a climb would start here, at the last of the lowest points
                (bottom, top, low, high) = (i, i, i, i)
                continue
            }
            if e[i] <= e[low] {
                (low, high) = (i, i)
            } else if e[i] > e[high] {
                high = i
            }
            let ends =
                e[i] < e[bottom] || e[top] - e[low] >= dipLimitMeters(gainSoFar: e[top] - e[bottom])
                || d[i] - d[top] >= longestDipMeters
            guard ends else { continue }
            if let climb = climb(from: bottom, to: top, d, e, tops, coordinate) { found.append(climb) }
            (bottom, top) = (low, high)  // the next climb starts at the lowest point after this top
            (low, high) = (high, high)
        }
        if let climb = climb(from: bottom, to: top, d, e, tops, coordinate) { found.append(climb) }
        return found
    }

    /// The climb from sample `s` to sample `t`, when it is long and steep enough to count.
    private static func climb(
        from s: Int, to t: Int, _ d: [Double], _ e: [Double], _ tops: [Double], _ coordinate: (Int) -> Coordinate?
    ) -> Climb? {
        let length = d[t] - d[s]
        let gain = e[t] - e[s]
        guard t > s, length >= minimumLengthMeters, gain / length * 100 >= minimumAverageGradePercent else {
            return nil
        }
        // The steepest stretch of at least the window, with two pointers.
        var steepest = gain / length * 100
        var j = s
        for i in s..<t {
            if j < i { j = i }
            while j < t && d[j] - d[i] < maxGradeWindowMeters { j += 1 }
            guard d[j] - d[i] >= maxGradeWindowMeters else { break }
            steepest = max(steepest, (e[j] - e[i]) / (d[j] - d[i]) * 100)
        }
        return Climb(
            startMeters: d[s], endMeters: d[t], gainMeters: gain, topElevationMeters: tops[t],
            maxGradePercent: steepest,
            start: coordinate(s), top: coordinate(t))
    }
}
