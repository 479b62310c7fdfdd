import Glibc

/// Total climbing and descending of a line, in metres.
public struct AscentDescent: Hashable, Sendable {
    /// Metres climbed.
    public var ascentMeters: Double
    /// Metres descended (a positive number).
    public var descentMeters: Double
    /// The estimated standard deviation of the elevation noise, in metres, at the spacing of the fixes.
    public var noiseMeters: Double
    /// The smoothing bandwidth used (Gaussian σ, metres along the line); 0 for none.
    public var smoothingMeters: Double
    /// The hysteresis threshold used, in metres.
    public var thresholdMeters: Double

    public init(
        ascentMeters: Double = 0, descentMeters: Double = 0, noiseMeters: Double = 0,
        smoothingMeters: Double = 0, thresholdMeters: Double = 0
    ) {
        self.ascentMeters = ascentMeters
        self.descentMeters = descentMeters
        self.noiseMeters = noiseMeters
        self.smoothingMeters = smoothingMeters
        self.thresholdMeters = thresholdMeters
    }
}

/// How ascent and descent are computed from noisy elevations: noise-adaptive smoothing followed by
/// hysteresis. Every step is a named parameter; `automatic` values are derived from the data.
///
/// 1. **Noise.** The elevation noise σ is estimated from the data itself, as the robust spread (median
///    absolute deviation) of each elevation's difference from the straight line through its neighbours
///    at distance ``noiseScaleMeters`` on either side. Real terrain is smooth at that scale (its curvature
///    moves a 10 m chord by centimetres), so the spread is the noise: about 0 for DEM or planned
///    elevations, 0.2–0.5 m for a barometric altimeter, metres for GPS.
/// 2. **Smoothing.** The elevations are smoothed by local quadratic regression with Gaussian weights over
///    distance (not over point count, so uneven spacing does not matter; a parabola keeps hilltops at their
///    height where a moving average would flatten them). The bandwidth grows with the noise σ:
///    ``smoothingPerNoiseMeter`` × σ + ``smoothingPerSquaredNoise`` × σ² metres (12.9 m at σ = 0.3 m,
///    about 110 m at σ = 1.9 m), capped at ``maximumSmoothingMeters``. Exact elevations are not smoothed.
/// 3. **Hysteresis.** Climbing is counted from a low point only once the smoothed profile has risen
///    ``thresholdPerNoise`` × σ′ above it (σ′ being the noise left after smoothing), and likewise for
///    descents; then the whole rise counts, from the low point to the next high point. Swings smaller than
///    the threshold are treated as noise. With exact elevations the threshold is 0 and the result is the
///    plain sum of the rises.
///
/// Points without elevation never enter (they are not zeros). The result reports σ, the bandwidth and the
/// threshold used, so that a user can see why two tools disagree.
public struct AscentMethod: Hashable, Sendable {
    /// Distance on either side of a point used to estimate the noise, metres.
    public var noiseScaleMeters: Double = 10
    /// Smoothing bandwidth (Gaussian σ, metres) per metre of estimated noise.
    public var smoothingPerNoiseMeter: Double = 40
    /// Further bandwidth per square metre of noise: strong noise (GPS) is correlated over tens of metres
    /// and needs disproportionately wide smoothing.
    public var smoothingPerSquaredNoise: Double = 10
    /// A fixed smoothing bandwidth in metres instead of the automatic one (0: no smoothing).
    public var smoothingMeters: Double? = nil
    /// The largest automatic bandwidth, metres.
    public var maximumSmoothingMeters: Double = 150
    /// Hysteresis threshold in units of the noise left after smoothing.
    public var thresholdPerNoise: Double = 4
    /// A fixed hysteresis threshold in metres instead of the automatic one.
    public var thresholdMeters: Double? = nil

    public init() {}

    /// The method used when nothing is specified.
    public static let standard = AscentMethod()

    /// Ascent and descent of `series`.
    public func ascentDescent(of series: ElevationSeries) -> AscentDescent {
        analyze(series).result
    }

    /// Ascent and descent of `series`, with the smoothed elevations they were counted on.
    package func analyze(_ series: ElevationSeries) -> (result: AscentDescent, smoothed: [Double]) {
        let n = series.count
        guard n >= 2 else { return (AscentDescent(), series.elevations) }
        let noise = Self.estimateNoise(series, scale: noiseScaleMeters)
        let bandwidth =
            smoothingMeters
            ?? min(maximumSmoothingMeters, smoothingPerNoiseMeter * noise + smoothingPerSquaredNoise * noise * noise)
        let smoothed = bandwidth > 0 ? Self.smooth(series, bandwidth: bandwidth) : series.elevations
        let threshold: Double
        if let thresholdMeters {
            threshold = thresholdMeters
        } else {
            // Noise left after averaging the fixes within the bandwidth (independent at the noise scale).
            let spacing =
                series.distances[n - 1] > series.distances[0]
                ? (series.distances[n - 1] - series.distances[0]) / Double(n - 1) : 1
            let samples = max(1, bandwidth * 2.5 / max(spacing, noiseScaleMeters))
            threshold = thresholdPerNoise * noise / samples.squareRoot()
        }
        let (up, down) = Self.hysteresis(smoothed, threshold: threshold)
        let result = AscentDescent(
            ascentMeters: up, descentMeters: down, noiseMeters: noise, smoothingMeters: bandwidth,
            thresholdMeters: threshold)
        return (result, smoothed)
    }

    /// Robust noise estimate: MAD of the residuals from the chord through the elevations interpolated at
    /// `scale` metres before and after each point, scaled to a standard deviation of white noise.
    static func estimateNoise(_ series: ElevationSeries, scale: Double) -> Double {
        let x = series.distances
        let e = series.elevations
        let n = x.count
        guard n >= 3, x[n - 1] - x[0] > 2 * scale else { return 0 }
        var residuals: [Double] = []
        residuals.reserveCapacity(n)
        var lo = 0
        var hi = 0
        for i in 0..<n {
            let left = x[i] - scale
            let right = x[i] + scale
            guard left >= x[0], right <= x[n - 1] else { continue }
            while x[lo + 1] < left { lo += 1 }
            if hi < i { hi = i }
            while x[hi] < right { hi += 1 }
            let eLeft = interpolate(x, e, left, below: lo)
            let eRight = interpolate(x, e, right, below: hi - 1)
            residuals.append(e[i] - (eLeft + eRight) / 2)
        }
        guard residuals.count >= 3 else { return 0 }
        let center = median(residuals)
        let mad = median(residuals.map { abs($0 - center) })
        // For white noise σ, a residual e - (a + b)/2 of three independent values has σ·√1.5.
        return 1.4826 * mad / 1.5.squareRoot()
    }

    @inline(__always)
    static func interpolate(_ x: [Double], _ e: [Double], _ at: Double, below k: Int) -> Double {
        let k = max(0, min(k, x.count - 2))
        let span = x[k + 1] - x[k]
        guard span > 0 else { return e[k] }
        let t = (at - x[k]) / span
        return e[k] + (e[k + 1] - e[k]) * t
    }

    /// The median, by quickselect (expected linear time).
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        var v = values
        let mid = v.count / 2
        let upper = select(&v, mid)
        if v.count % 2 == 1 { return upper }
        // The lower middle is the largest of the elements left of `mid` after selection.
        var lower = -Double.infinity
        for k in 0..<mid where v[k] > lower { lower = v[k] }
        return (lower + upper) / 2
    }

    /// Rearranges `v` so that `v[k]` is the k-th smallest, smaller ones before it; returns it.
    static func select(_ v: inout [Double], _ k: Int) -> Double {
        var lo = 0
        var hi = v.count - 1
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        while lo < hi {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let pivot = v[lo + Int(seed >> 33) % (hi - lo + 1)]
            var i = lo
            var j = hi
            while i <= j {
                while v[i] < pivot { i += 1 }
                while v[j] > pivot { j -= 1 }
                if i <= j {
                    v.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { return v[k] }
        }
        return v[k]
    }

    /// Local quadratic regression over distance with Gaussian weights (σ = `bandwidth` metres, truncated
    /// at 3σ): each elevation is replaced by the value at its own distance of the weighted least-squares
    /// parabola through its neighbours. Unlike a moving average, a parabola follows the curvature of a
    /// hilltop, so peaks and valleys keep their height while the noise is averaged away.
    static func smooth(_ series: ElevationSeries, bandwidth: Double) -> [Double] {
        let x = series.distances
        let e = series.elevations
        let n = x.count
        var out = [Double](repeating: 0, count: n)
        let reach = 3 * bandwidth
        let inverse = 1 / (2 * bandwidth * bandwidth)
        var lo = 0
        var hi = 0
        for i in 0..<n {
            while x[i] - x[lo] > reach { lo += 1 }
            while hi + 1 < n && x[hi + 1] - x[i] <= reach { hi += 1 }
            // Weighted moments, in units of the bandwidth for conditioning, elevations relative to e[i].
            var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, t0 = 0.0, t1 = 0.0, t2 = 0.0
            for j in lo...hi {
                let d = x[j] - x[i]
                let w = (-d * d * inverse).exponential
                let u = d / bandwidth
                let v = e[j] - e[i]
                let wu = w * u
                let wu2 = wu * u
                s0 += w
                s1 += wu
                s2 += wu2
                s3 += wu2 * u
                s4 += wu2 * u * u
                t0 += w * v
                t1 += wu * v
                t2 += wu2 * v
            }
            // Solve [s0 s1 s2; s1 s2 s3; s2 s3 s4] (a, b, c) = (t0, t1, t2) for a by Cramer's rule.
            let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
            let scale = s0 * s2 * s4
            if hi - lo >= 3 && abs(det) > 1e-9 * max(scale, 1e-300) {
                let a = (t0 * (s2 * s4 - s3 * s3) - s1 * (t1 * s4 - s3 * t2) + s2 * (t1 * s3 - s2 * t2)) / det
                out[i] = e[i] + a
            } else {
                out[i] = e[i] + t0 / s0
            }
        }
        return out
    }

    /// Sum of rises and falls larger than `threshold`, each counted whole from extreme to extreme.
    static func hysteresis(_ e: [Double], threshold: Double) -> (up: Double, down: Double) {
        var up = 0.0
        var down = 0.0
        guard var low = e.first else { return (0, 0) }
        var high = low
        // 0: undecided, 1: climbing (tracking a high), -1: descending (tracking a low)
        var direction = 0
        var reference = low
        for v in e.dropFirst() {
            switch direction {
            case 1:
                if v > high {
                    high = v
                } else if high - v > threshold {
                    up += high - reference
                    reference = high
                    low = v
                    direction = -1
                }
            case -1:
                if v < low {
                    low = v
                } else if v - low > threshold {
                    down += reference - low
                    reference = low
                    high = v
                    direction = 1
                }
            default:
                if v - low > threshold && v > high {
                    reference = low
                    high = v
                    direction = 1
                } else if high - v > threshold && v < low {
                    reference = high
                    low = v
                    direction = -1
                } else {
                    low = min(low, v)
                    high = max(high, v)
                }
            }
        }
        // The last swing counts whole, whatever its size: the line ends there.
        if direction == 1 { up += high - reference }
        if direction == -1 { down += reference - low }
        return (up, down)
    }
}

extension Double {
    /// e raised to this power.
    @inline(__always) var exponential: Double { Glibc.exp(self) }
}
