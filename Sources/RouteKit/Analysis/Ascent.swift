import Glibc

/// Total climbing and descending of a line, in metres.
public struct AscentDescent: Hashable, Sendable {
    /// Metres climbed.
    public var ascentMeters: Double
    /// Metres descended (a positive number).
    public var descentMeters: Double
    /// The estimated standard deviation of the elevation noise, in metres, including its slow (correlated) part.
    public var noiseMeters: Double
    /// The smoothing bandwidth used (Gaussian σ, metres along the line); 0 for none.
    public var smoothingMeters: Double
    /// The hysteresis threshold used, in metres.
    public var thresholdMeters: Double
    /// The steps of the elevations that were not counted, being no one's climbing (``ElevationJump``), in order.
    public var elevationJumps: [ElevationJump] = []
    /// The elevations at the start of a recording (a segment) that were not counted, being a device finding its level
    /// (``ElevationSettling``), in order.
    public var elevationSettlings: [ElevationSettling] = []

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

/// Elevation noise as ``AscentMethod`` models it: white (independent from fix to fix) plus exponentially
/// correlated (e^(−d/L) between fixes d metres apart), each given by its standard deviation in metres.
public struct ElevationNoise: Hashable, Sendable {
    /// The white part's standard deviation, metres (at least 0).
    public var whiteMeters: Double
    /// The correlated part's standard deviation, metres (at least 0); without a correlation length it is white.
    public var correlatedMeters: Double
    /// The correlated part's correlation length L, metres (at least 0; 0: no correlated part, it is white).
    public var correlationLengthMeters: Double

    /// Noise of `whiteMeters` white and `correlatedMeters` correlated over `correlationLengthMeters`, each at
    /// least 0 (the default: no noise, exact elevations).
    public init(whiteMeters: Double = 0, correlatedMeters: Double = 0, correlationLengthMeters: Double = 0) {
        self.whiteMeters = whiteMeters
        self.correlatedMeters = correlatedMeters
        self.correlationLengthMeters = correlationLengthMeters
    }

    /// Whether there is a correlated part: a standard deviation and a length, both above 0.
    public var isCorrelated: Bool { correlatedMeters > 0 && correlationLengthMeters > 0 }

    /// The whole noise's standard deviation, metres.
    public var totalMeters: Double { (whiteMeters * whiteMeters + correlatedMeters * correlatedMeters).squareRoot() }
}

/// How ascent and descent are computed from noisy elevations: noise-adaptive smoothing followed by
/// hysteresis. Every step is a named parameter; `automatic` values are derived from the data.
///
/// 1. **Noise.** The elevation noise is told from the terrain by how each grows with scale. At each lag
///    h (from ``shortestNoiseLagMeters``, or the mean spacing of the fixes when that is longer, doubling
///    up to ``longestNoiseLagMeters``) every elevation is compared with the chord through the fixes
///    nearest h before and after it; the robust spread (median absolute deviation) of these residuals,
///    scaled to a standard deviation of white noise, is s(h). Noise, white or correlated, has an s² that at
///    most doubles from one lag to the next (white noise: not at all; noise correlated over a length L:
///    about doubling while h < L) and flattens out beyond its correlation length. Terrain is smooth at the
///    short lags and then grows much faster (its curvature moves a chord by h²). So s is followed up the
///    lags while s² grows by less than ``noiseGrowthLimit`` per doubling; it stops where s² grows faster
///    and goes on growing over the next lag too (terrain takes over: the noise is the level reached; a
///    single faster step alone is the scatter of the estimate) or where it has flattened out (grown by less
///    than ``noisePlateauRatio``: the noise is the plateau). The level reached is the noise σ (reported as the
///    noise; for slow GPS noise, the σ of the joint fit below). About 0 for DEM or planned elevations, 0.2–0.5 m
///    for a barometric altimeter, metres for GPS, whose noise is correlated over tens of metres. The curvature
///    of small real hills does not read as noise: it makes s² grow far faster than noise can. Where terrain
///    takes over from the shortest lag on (fixes far apart on small hills), the level there holds the terrain's
///    curvature too: its share, told from the growth to the next lag (at most sixteenfold per doubling for a
///    curvature), is taken off. Elevations rounded to a quantum q (on a lattice) where rounding is at least half
///    of s² at the shortest lag have q²/12 taken off every s² (here and in the joint fit below): rounded smooth
///    terrain steps only where the terrain crosses a step, never back and forth, so it is not noise to smooth;
///    where other noise dominates, it makes the rounding errors white like itself, and they stay (on dense
///    fixes, s is measured through dither: see ``measuredElevations(_:)``). A noise known beforehand
///    (``knownNoise``) is taken as it is given instead.
/// 2. **Smoothing.** The elevations are smoothed by local quadratic regression with Gaussian weights over distance
///    (not over point count, so uneven spacing does not matter; a parabola keeps hilltops at their height where a
///    moving average would flatten them). The noise is modelled as white plus exponentially correlated: its white
///    part σ𝑤 follows from s² at the first lag, the level and the half-variance lag. When the noise is white (σ𝑤² at
///    least ``whiteNoiseShare`` of σ²), the bandwidth is the one of least estimated risk (Stein's unbiased estimate
///    of the smoother's mean squared error against the terrain, over mean-spacing × √2ᵏ up to
///    ``maximumSmoothingMeters``, or up to ``longHillSmoothingMeters`` where the hills are long enough for it: see
///    ``longHillBandwidth(_:model:left:)``): it averages as many fixes as the terrain allows, whatever σ, instead of
///    growing with σ; the risk is then counted again on the fixes near the turning points that smoother shows, where
///    the ascent is made (see ``turningPointBandwidth(_:bandwidth:left:model:upTo:smoothed:)``). Slow noise (GPS) is
///    fitted jointly with the terrain's onset over the lags where the residuals still look like noise (Gaussian
///    within ``gaussianTolerance``, growing no faster than ``noiseGrowthLimit``); when its correlated part is at
///    least ``slowNoiseModelMeters``, the bandwidth is the one of least estimated risk under the fitted noise's
///    covariance (likewise up to ``longHillSmoothingMeters`` where the hills allow it); so is noise that half shows
///    at the first lag but grows past it, where the fit finds it correlated over longer than that lag (sparse fixes)
///    and the level does not hold over the lags after it (see ``whitePlateauHolds(_:level:)``), and noise the
///    walk took as white where a white part hid the slow noise's start, but which the fit shows slow past it (see
///    ``slowNoiseBehindWhite(_:)``), or, where the fit does not take it as slow, at the level the lags themselves
///    reach where they show it (see ``slowNoiseWithinLags(_:)``: without the ``slowNoiseModelMeters`` floor, since
///    the noise is otherwise white). When the fitted model cannot follow the lags it was fitted on
///    (fixes so far apart that terrain shows from the shortest lag, growing faster than noise can), nothing tells the
///    noise from white at the fixes' spacing: it is taken as white at the level seen. For white noise, no smoothing
///    is among the bandwidths tried (with sparse fixes a smoother can cost the terrain more than it removes of the
///    noise). Other slow noise under ``slowNoiseModelMeters`` is first followed up the lags again, stopping before the
///    first lag where the residuals' tails turn heavy (terrain shows there: noise is Gaussian at every lag); where it
///    is white up to there, it is white (hills apart on flat ground, where the share of chords that reach a hill
///    grows with the lag as slow noise would). Otherwise (a barometer's drift, rounding) it keeps a rule of thumb:
///    the bandwidth grows with the short-range noise σₛ, the noise s at the lag ``noiseScaleMeters``:
///    ``smoothingPerNoiseMeter`` × σₛ + ``smoothingPerSquaredNoise`` × σₛ² metres, capped at
///    ``maximumSmoothingMeters``. Exact elevations are not smoothed.
/// 3. **Hysteresis.** Climbing is counted from a low point only once the smoothed profile has risen a threshold above
///    it, and likewise for descents; then the whole rise counts, from the low point to the next high point. For white
///    noise the threshold is ``whiteThresholdPerNoise`` × σ′, σ′ the noise the chosen smoother leaves (σ𝑤 times the
///    root of the sum of its squared weights), lowered to ``terrainSwingThresholdPerNoise`` × σ′ where Rice's formula
///    shows the swings past it to be the terrain's. Either way the tops and bottoms of hills get back what the smoother
///    and the fixes' gaps take, less what the noise adds there (see
///    ``hillExtreme(_:smoothed:at:sign:bandwidth:left:most:)``); where the swings are the terrain's, a swing that the
///    corrected extremes bring under the threshold is dropped. Where Rice's formula shows the swings to be the noise's
///    (see ``swingsAreNoise(_:turns:series:bandwidth:left:)``), the extremes on long flat stretches too, the least or
///    greatest of many values of smoothed noise, are moved back by the expected extreme of that noise (see
///    ``correctedExtremes(_:turns:series:threshold:bandwidth:left:correctingFlatStretches:)``), and a swing that the
///    corrected extremes bring under ``correctedSwingPerNoise`` × σ′ is dropped as the noise's. For slow noise fitted
///    jointly, the threshold is ``whiteThresholdPerNoise`` times the noise the smoother leaves under the fitted
///    covariance (the root of wᵀΣw, w its weights); for correlated noise known beforehand too, lowered to
///    ``terrainSwingThresholdPerNoise`` × σ′ where Rice's test, at the bandwidth whose smoothed white noise turns as
///    often (see ``equivalentBandwidth(_:bandwidth:model:)``), finds the swings to be the terrain's. For other slow
///    noise under ``slowNoiseModelMeters`` (not seen within the lags) it is ``thresholdPerNoise`` × σ′, σ′ being σ over
///    the square root of the number of independent fixes within 2.5 bandwidths, one per twice the correlation length
///    (the lag at which s² reaches half of σ²), per ``independenceMeters`` or per fix, whichever is longest: slow noise
///    thus gets a threshold that its swings do not reach. Swings smaller than the threshold are treated as noise. With
///    exact elevations the threshold is 0 and the result is the plain sum of the rises; on a lattice (rounded to a
///    quantum, nothing else read as noise), between the extremes read from where the steps between levels fall where
///    those tell them better than the levels do (see ``steppedExtremes(_:turns:quantum:)``).
///
/// Points without elevation never enter (they are not zeros). The result reports σ, the bandwidth and the
/// threshold used, so that a user can see why two tools disagree. When the elevations are known to be
/// exact (a DEM, a planned route), ``exact`` skips the estimate's consequences: no smoothing, no threshold.
public struct AscentMethod: Hashable, Sendable {
    /// The scale of the short-range noise, metres: the smoothing follows the noise at this lag.
    public var noiseScaleMeters: Double = 10
    /// Fixes closer than this, metres, are not counted as independent when the noise left after smoothing
    /// is estimated (a device's noise is correlated over a few seconds of travel at least).
    public var independenceMeters: Double = 20
    /// The shortest lag at which the noise is measured, metres (the mean spacing of the fixes when longer).
    public var shortestNoiseLagMeters: Double = 2
    /// The longest lag at which the noise is measured, metres: noise correlated over longer distances than
    /// about half of it cannot be told from terrain.
    public var longestNoiseLagMeters: Double = 320
    /// The largest growth of s² per doubled lag that is still read as noise (noise at most doubles; smooth
    /// terrain grows sixteenfold).
    public var noiseGrowthLimit: Double = 2.3
    /// A growth of s² per doubled lag below which the noise has flattened out: its level is the noise σ.
    public var noisePlateauRatio: Double = 1.25
    /// Smoothing bandwidth (Gaussian σ, metres) per metre of estimated noise.
    public var smoothingPerNoiseMeter: Double = 40
    /// Further bandwidth per square metre of noise: strong noise (GPS) is correlated over tens of metres
    /// and needs disproportionately wide smoothing.
    public var smoothingPerSquaredNoise: Double = 10
    /// A fixed smoothing bandwidth in metres instead of the automatic one (0: no smoothing).
    public var smoothingMeters: Double? = nil
    /// The largest automatic bandwidth, metres, except on long hills (``longHillSmoothingMeters``).
    public var maximumSmoothingMeters: Double = 150
    /// The largest automatic bandwidth on long hills, metres (see ``longHillBandwidth(_:model:left:)``): bandwidths
    /// past ``maximumSmoothingMeters`` are taken only there. No effect when not above ``maximumSmoothingMeters``.
    public var longHillSmoothingMeters: Double = 600
    /// How many bandwidths apart, in the median, the turning points of a smoother wider than
    /// ``maximumSmoothingMeters`` must lie for it to be taken (see ``longHillBandwidth(_:model:left:)``): a raised
    /// cosine 16 bandwidths long keeps 99.7 % of its height.
    public var longHillTurnsPerBandwidth: Double = 8
    /// Hysteresis threshold in units of the noise left after smoothing.
    public var thresholdPerNoise: Double = 3
    /// The share of the noise variance that must be white (uncorrelated from fix to fix) for the bandwidth
    /// to be chosen by the estimated risk, and the threshold from the noise the smoother leaves.
    public var whiteNoiseShare: Double = 0.9
    /// Hysteresis threshold for white noise, and for slow noise fitted jointly, in units of the noise the chosen
    /// smoother leaves: two independent extremes of smoothed Gaussian noise differ by 5σ′ (3.5 standard
    /// deviations of their difference) about once in 4,000 swings. The hysteresis compares running extremes,
    /// the lowest and highest of many values on long flat stretches, which differ that much more often:
    /// measured about twice in 15 km on a barometer's flat tracks (Rice's formula gives at most 4 % of the
    /// smoothed noise's crossings of its mean). For white noise, where those swings are the noise's, the
    /// extremes on long flat stretches are moved back instead, which takes most of such a swing's height (see
    /// ``correctedExtremes(_:turns:series:threshold:bandwidth:left:correctingFlatStretches:)``); where they are the
    /// terrain's, the ascent is counted from ``terrainSwingThresholdPerNoise`` × σ′.
    public var whiteThresholdPerNoise: Double = 5
    /// For white noise where Rice's formula shows the swings past ``whiteThresholdPerNoise`` × σ′ to be the
    /// terrain's, not the noise's (see ``swingsAreNoise(_:turns:series:bandwidth:left:)``: GPS noise among hills
    /// that crowd the threshold), the threshold in units of σ′ the ascent is counted with. There the terrain's
    /// swings just above the threshold outnumber the noise's, and those just under it are mostly the terrain's
    /// too: between 4σ′ and 5σ′ the noise swings about N·(e^(−2) − e^(−25/8)), 9 % of its N crossings of its mean,
    /// each under 5σ′. Over the tables of `scripts/ascent-eval` and its random draws 0–5: 62 → 59 misses, none new.
    /// Likewise for correlated noise known beforehand (``knownNoise``; over the tables and draws 0–7 with each source's
    /// own noise: 53 → 48 misses, none new), not for slow noise read from the lags: read too weak, its own swings past
    /// 5σ′ look like the terrain's (tried, over the tables and draws 0–7: three slow GPS sources on rolling hills at
    /// seeds 1000–1004 then over-count, and more misses come than go).
    public var terrainSwingThresholdPerNoise: Double = 4
    /// A fixed hysteresis threshold in metres instead of the automatic one (the extremes are then counted as
    /// the smoothed profile shows them, not corrected for the noise).
    public var thresholdMeters: Double? = nil
    /// The elevation noise, when it is known beforehand (a device's measured noise), instead of the estimate from
    /// the data: the bandwidth and threshold follow from it as from a noise read from the lags (white noise: the
    /// bandwidth of least estimated risk and the corrected extremes; correlated noise: the bandwidth of least risk
    /// under its covariance, whatever its size), except that correlated noise given here also gets Rice's test, and is
    /// counted from ``terrainSwingThresholdPerNoise`` × σ′ where the swings are the terrain's: a noise given too weak
    /// then counts its own swings as climbing. No noise at all counts every rise, as exact elevations are counted (on a
    /// lattice, between the extremes read from where the steps fall: see ``steppedExtremes(_:turns:quantum:)``). The
    /// noise read from the lags cannot always be told from the terrain (slow noise, dense small hills); with it known,
    /// what is left is only what a smoother and a threshold can do with that noise.
    public var knownNoise: ElevationNoise? = nil
    /// Where the extremes on long flat stretches are corrected for white noise (see
    /// ``correctedExtremes(_:turns:series:threshold:bandwidth:left:correctingFlatStretches:)``), the swing between two
    /// corrected extremes, in units of the noise σ′ the smoother leaves, under which it is the noise's and dropped. A
    /// spurious swing past 5σ′ on a flat stretch runs between extremes of smoothed noise, each moved back by about 2σ′
    /// where its stretch is long, and keeps a σ′ or two; a real one keeps all but the noise left at its ends (σ′ or
    /// less each). A barometer with fixes 5–15 m apart on flat terrain, seed 1004 (eight spurious extremes): +2.1 % →
    /// +1.9 % at 2σ′, +1.1 % at 5σ′, where white GPS noise on small steep hills lost real swings (worst −7.2 % →
    /// −8.9 %).
    public var correctedSwingPerNoise: Double = 2
    /// How far the residuals at a lag may depart from Gaussian before terrain is taken to show in them: the
    /// 90th percentile of their absolute values may exceed the Gaussian's ratio to the median by this share,
    /// the 99th by one and a half times it. Noise is Gaussian at every lag; hills make the tails heavier.
    public var gaussianTolerance: Double = 0.1
    /// The longest correlation length the slow noise is fitted with, per metre of the longest lag whose
    /// residuals still look like noise: noise correlated over longer than the lags where terrain shows cannot
    /// be told from terrain.
    public var correlationPerGaussianLag: Double = 2
    /// The correlated noise, metres, from which the bandwidth and threshold for slow noise come from the
    /// fitted noise model (GPS); below it (a barometer's drift, elevations rounded to whole metres) the
    /// rule of thumb of ``smoothingPerNoiseMeter`` and ``thresholdPerNoise`` is kept. Not for slow noise seen behind
    /// white noise within the lags (see ``slowNoiseWithinLags(_:)``), which is otherwise taken as white.
    public var slowNoiseModelMeters: Double = 1
    /// A step between consecutive fixes longer than this many times their mean step is a dropout (a tunnel, a
    /// logger's pause, points without elevation), not spacing: it does not count in the fixes' spacing, which sets
    /// the lags the noise is measured at, and no chord measures the noise across it. Fixes taken by time (close on
    /// climbs, far apart on descents) or a route's points (dense on bends) are seldom that uneven; where none is,
    /// nothing changes.
    public var dropoutSpacingRatio: Double = 20
    /// A step between neighbouring fixes at least this high, metres, steeper than 1:1, at least
    /// ``elevationJumpPerUsualStep`` times the 90th percentile of the sizes of the line's steps, and not continued by
    /// the line beside it (the same way, steeper than 1:2, over as far as the step is high or long) is an
    /// ``ElevationJump``: heights from two sources mixed, or a logger's glitch. So is a step beside one back the other
    /// way by at least half as much and the height a jump needs on that line, however long (a glitch moves the fix
    /// too). It is not counted: the line is measured as if it went on at the level it had before. Nil counts every step
    /// as it is. Real tracks with jumps rise 80–250 m between points 20–80 m apart where nine steps in ten are under
    /// 4–8 m. Terrain can look so only where a hill tens of metres high is narrower than the fixes are far apart (in
    /// `scripts/ascent-eval`, a barometer every 20–60 m over Gaussian hills up to 220 % steep).
    public var elevationJumpMeters: Double? = 20
    /// How many times the 90th percentile of the sizes of a line's steps a jump is at least: under white noise of σ
    /// that percentile is 2.33σ, so under noise of 8 m a jump is over 93 m; on steep ground sampled sparsely, the
    /// flanks' steps raise it.
    public var elevationJumpPerUsualStep: Double = 5
    /// How long after a recording's first fix its elevations may still be settling (``ElevationSettling``), seconds;
    /// nil: never looked for (nor where ``elevationJumpMeters`` is nil). A GPS receiver's vertical fix converges in the
    /// first minutes (a logger's first 3:20 min rose 197 m over 300 m ridden), a barometric altimeter calibrates in the
    /// first one or two (a watch fell 35 m in 29 s over 30 m walked); only fixes with times are looked at, so a planned
    /// route never settles.
    public var settlingSeconds: Double? = 900
    /// Rising steeper than 1:2 and at least this fast, metres a second, the elevations at a recording's start are
    /// settling, not climbing (2,880 m an hour; the fastest vertical kilometre run, on a course of 53 %, climbed 0.58 m
    /// a second). Going down, people are faster: only steeper than 1:1 is settling there
    /// (``settlingSlowestMetersPerSecond``).
    public var settlingMetersPerSecond = 0.8
    /// Steeper than 1:1 and at least this fast up or down, metres a second, the elevations at a recording's start are
    /// settling, not climbing (an altimeter calibrating while one stands falls about 1 m a second; a via ferrata climbs
    /// at about a tenth of that).
    public var settlingSlowestMetersPerSecond = 0.3
    /// On a line whose points took an elevation model's heights where it has data and kept their recorded ones
    /// elsewhere (``ElevationProfile/init(track:method:recorded:recordedMethod:)``), the fewest recorded fixes of a
    /// stretch whose noise is measured on its own (at least 1): fewer cannot tell noise from terrain, and the stretch
    /// is bridged straight between the model's heights either side. Read from the method for the model's stretches.
    public var shortestMeasuredRecordedFixes = 10
    /// On a line partly on an elevation model, the shortest stretch of recorded elevations, metres (at least 0),
    /// whose noise is measured on its own: shorter ones are bridged (too short to hide more than a small hill).
    /// The model's stretches shorter than this between recorded ones are measured with them; at a line's end, such
    /// a stretch is moved to meet the recorded one beside it rather than the other way round. Read from the method
    /// for the model's stretches.
    public var shortestMeasuredRecordedMeters = 200.0

    public init() {}

    /// The method used when nothing is specified: the noise is estimated from the data.
    public static let standard = AscentMethod()

    /// The method for elevations known to be exact (a digital elevation model, a planned route): no
    /// smoothing and no threshold, so the ascent is the plain sum of the rises. The noise is still
    /// estimated and reported.
    public static let exact: AscentMethod = {
        var method = AscentMethod()
        method.smoothingMeters = 0
        method.thresholdMeters = 0
        return method
    }()

    /// Whether this method takes the elevations as exact: neither smoothing nor a threshold, or a known noise of 0
    /// with neither set otherwise.
    public var takesElevationsAsExact: Bool {
        smoothingMeters == 0 && thresholdMeters == 0
            || knownNoise?.totalMeters == 0 && (smoothingMeters ?? 0) == 0 && (thresholdMeters ?? 0) == 0
    }

    /// Ascent and descent of `series`, its elevation jumps (``elevationJumpMeters``) not counted.
    public func ascentDescent(of series: ElevationSeries) -> AscentDescent {
        let level = leveled(series)
        var result = analyze(level.series).result
        result.elevationJumps = level.jumps
        return result
    }

    /// Ascent and descent of `series`, with the smoothed elevations they were counted on (for white noise, counted
    /// between corrected extremes: see
    /// ``correctedExtremes(_:turns:series:threshold:bandwidth:left:correctingFlatStretches:)``).
    package func analyze(_ series: ElevationSeries) -> (result: AscentDescent, smoothed: [Double]) {
        let (result, smoothed, _, _) = analyzeCounting(series)
        return (result, smoothed)
    }

    /// ``analyze(_:)``, with the extremes the ascent was counted between (`counted`: indices into `series`, with
    /// their heights, corrected for white noise where it was) and the least swing between them that counted
    /// (`swing`): the hysteresis of `swing` on `counted` gives the ascent again.
    func analyzeCounting(
        _ series: ElevationSeries
    ) -> (result: AscentDescent, smoothed: [Double], counted: [(index: Int, height: Double)], swing: Double) {
        guard series.count >= 2 else { return (AscentDescent(), series.elevations, [], 0) }
        let measured = measuredElevations(series)
        // A noise given beforehand is not estimated (a correlated part without a length is white).
        var noise =
            knownNoise.map {
                Noise(
                    sigma: $0.totalMeters, shortSigma: $0.totalMeters, correlationMeters: measured.shortestLag,
                    whiteSigma: $0.isCorrelated ? $0.whiteMeters : $0.totalMeters)
            } ?? estimateNoise(measured)
        // White noise: the bandwidth of least estimated risk, and the noise that smoother leaves.
        var white =
            noise.sigma > 0 && noise.whiteSigma * noise.whiteSigma >= whiteNoiseShare * noise.sigma * noise.sigma
        var left: Double? = nil
        var noiseMeters = noise.sigma
        // Slow noise: the bandwidth of least estimated risk under the fitted noise model, the noise it leaves, and the
        // profile smoothed at it where choosing it smoothed the line already.
        var slow: (bandwidth: Double, left: Double, smoothed: [Double]?)? = nil
        // Correlated noise known beforehand, whose swings Rice's test can weigh (see below).
        var knownModel: NoiseModel? = nil
        if let knownNoise, knownNoise.isCorrelated {
            // Correlated noise known beforehand: the bandwidth of least risk under its covariance (or the one
            // given), and the noise that smoother leaves.
            white = false
            let model = NoiseModel(
                white: knownNoise.whiteMeters, correlated: knownNoise.correlatedMeters,
                length: knownNoise.correlationLengthMeters)
            knownModel = model
            if let smoothingMeters {
                slow = (smoothingMeters, Self.leftNoise(series, bandwidth: smoothingMeters, model: model), nil)
            } else {
                slow = longHillBandwidth(series, model: model) { Self.leftNoise(series, bandwidth: $0, model: model) }
            }
        } else if knownNoise == nil && noise.sigma > 0 && smoothingMeters == nil, let fit = fitNoiseModel(measured) {
            let model = fit.model
            // White at the first lags, where the walk stopped, but slow noise past them (see
            // ``slowNoiseBehindWhite(_:)``).
            let slowBehindWhite = white && slowNoiseBehindWhite(fit)
            // Noise taken as white because half its level shows at the first lag, though it grew past that: slow noise
            // seen on sparse fixes (GPS in whole metres every 12 m: 1.8 m of white noise read, where 4 m correlated
            // over 78 m lie) as much as white noise with terrain above it. Where the level holds over the lags after
            // the first, the first lag's fall is the scatter of s² there (see ``whitePlateauHolds(_:level:)``): white.
            // Otherwise the fit tells: noise correlated over longer than the first lag, at least
            // `slowNoiseModelMeters` of it, is slow. Either way, noise left white may still be slow where the lags
            // themselves show it (below).
            let grewPastFirstLag =
                white && noise.halfAtFirstLag && !whitePlateauHolds(fit, level: noise.sigma * noise.sigma)
            // The model of slow noise the smoothing and threshold follow, where the noise is slow.
            var slowModel: NoiseModel? = nil
            let walkTookWhite = white
            if white && !grewPastFirstLag && !slowBehindWhite {
                // White noise, unless slow noise behind it shows within the lags themselves (below).
            } else if !fit.followsLags {
                // A model that cannot follow the lags it was fitted on: nothing tells this noise from white
                // at the spacing of the fixes. White at the level seen.
                white = true
                noise.whiteSigma = noise.sigma
            } else if slowBehindWhite
                || model.correlated >= slowNoiseModelMeters
                    && (!grewPastFirstLag || model.length > measured.shortestLag)
            {
                slowModel = model
            } else if !white {
                // Slow noise under `slowNoiseModelMeters` (the rule of thumb's), but the walk up the lags may
                // have followed terrain: hills apart on flat ground, whose chords' share grows with the lag.
                // Where the noise is white up to the lag where the residuals' tails turn heavy, it is white.
                let early = estimateNoise(measured, stoppingWhereTailsTurnHeavy: true)
                if early.sigma > 0 && early.sigma < noise.sigma
                    && early.whiteSigma * early.whiteSigma >= whiteNoiseShare * early.sigma * early.sigma
                {
                    (noise, white, noiseMeters) = (early, true, early.sigma)
                }
            }
            // Noise the walk took as white and the fit did not take as slow: slow where the lags themselves show it
            // (see ``slowNoiseWithinLags(_:)``, which asks a fit that follows its lags: never after the branch above
            // that found it cannot).
            if walkTookWhite && slowModel == nil { slowModel = slowNoiseWithinLags(fit) }
            if let slowModel {
                white = false
                slow = longHillBandwidth(series, model: slowModel) {
                    Self.leftNoise(series, bandwidth: $0, model: slowModel)
                }
                noiseMeters = slowModel.totalMeters
            }
        }
        let bandwidth: Double
        // The profile smoothed at `bandwidth`, when choosing it smoothed the whole line already.
        var alreadySmoothed: [Double]? = nil
        if let slow {
            (bandwidth, alreadySmoothed) = (slow.bandwidth, slow.smoothed)
        } else if let smoothingMeters {
            bandwidth = smoothingMeters
            if white && bandwidth > 0 && thresholdMeters == nil {
                left =
                    Self.smoothingRisk(series, bandwidth: bandwidth, model: NoiseModel(white: noise.whiteSigma))
                    .residual
            }
        } else if white {
            let model = NoiseModel(white: noise.whiteSigma)
            let (wide, wideLeft, smoothed) = longHillBandwidth(series, model: model)
            // Past `maximumSmoothingMeters` only on long hills; there the turning points may narrow it, not widen it.
            let chosen = turningPointBandwidth(
                series, bandwidth: wide, left: wideLeft, model: model,
                upTo: wide > maximumSmoothingMeters ? wide : nil, smoothed: smoothed)
            (bandwidth, left, alreadySmoothed) = (chosen.bandwidth, chosen.left, chosen.smoothed)
        } else if noise.sigma > 0 {
            bandwidth = min(
                maximumSmoothingMeters,
                (smoothingPerNoiseMeter + smoothingPerSquaredNoise * noise.shortSigma) * noise.shortSigma)
        } else {
            // No noise beyond rounding at the level reached: nothing to smooth (the threshold is 0 too).
            bandwidth = 0
        }
        let smoothed =
            alreadySmoothed ?? (bandwidth > 0 ? Self.smooth(series, bandwidth: bandwidth) : series.elevations)
        var threshold: Double
        // White noise: the noise the smoother leaves, which the extremes are corrected for, and whether the
        // extremes on long flat stretches are too (the swings past the threshold are the noise's; false once they
        // are found to be the terrain's).
        var correction: (left: Double, flatStretches: Bool)? = nil
        if let thresholdMeters {
            threshold = thresholdMeters
        } else if let slow {
            threshold = whiteThresholdPerNoise * slow.left
        } else if let left {
            threshold = whiteThresholdPerNoise * left
            correction = (left, true)
        } else if white {
            threshold = whiteThresholdPerNoise * noise.whiteSigma
        } else {
            // Noise left after averaging the independent fixes within the bandwidth: one per twice the
            // correlation length, per `independenceMeters`, or per fix when they are further apart.
            let spacing = Self.meanSpacing(series, dropoutRatio: dropoutSpacingRatio)
            let samples = max(1, bandwidth * 2.5 / max(spacing, independenceMeters, 2 * noise.correlationMeters))
            threshold = thresholdPerNoise * noise.sigma / samples.squareRoot()
        }
        var turns = Self.extremes(smoothed, threshold: threshold)
        // Rice's test weighs the swings past the threshold: for white noise at the smoother's bandwidth; for correlated
        // noise known beforehand at the bandwidth whose smoothed white noise turns as often as this noise smoothed. Not
        // for slow noise read from the lags: read too weak (slow noise on rolling hills, 2.6 m for 4 m), its own swings
        // past the threshold look like the terrain's.
        let rice: (bandwidth: Double, left: Double)? =
            if let left = correction?.left {
                (bandwidth, left)
            } else if let slow, let knownModel, thresholdMeters == nil, slow.bandwidth > 0,
                case let equivalent = Self.equivalentBandwidth(series, bandwidth: slow.bandwidth, model: knownModel),
                equivalent > 0
            {
                (equivalent, slow.left)
            } else {
                nil
            }
        if let rice, !swingsAreNoise(smoothed, turns: turns, series: series, bandwidth: rice.bandwidth, left: rice.left)
        {
            // The swings past the threshold are the terrain's: count those just under it too, and leave the
            // extremes of flat stretches as they are (several local extremes there are the terrain's turns back).
            threshold = terrainSwingThresholdPerNoise * rice.left
            turns = Self.extremes(smoothed, threshold: threshold)
            correction?.flatStretches = false
        }
        var counted = turns.map { (index: $0, height: smoothed[$0]) }
        var swing = threshold
        if let correction {
            let corrected = Self.correctedExtremes(
                smoothed, turns: turns, series: series, threshold: threshold, bandwidth: bandwidth,
                left: correction.left, correctingFlatStretches: correction.flatStretches)
            // A swing that its corrected extremes bring under `correctedSwingPerNoise` × σ′ is the noise's where the
            // flat extremes were moved back; elsewhere one brought under the threshold.
            if correction.flatStretches { swing = correctedSwingPerNoise * correction.left }
            counted = Self.extremes(corrected, threshold: swing).map { (index: turns[$0], height: corrected[$0]) }
        } else if bandwidth == 0 && threshold == 0 && smoothingMeters == nil && thresholdMeters == nil,
            let quantum = measured.quantum
        {
            // Exact elevations rounded to a lattice: the extremes read from where the steps fall. An extreme moves
            // by at most q/2 and only with three levels to the next, so they still alternate as the levels did.
            let heights = Self.steppedExtremes(series, turns: turns, quantum: quantum)
            counted = zip(turns, heights).map { (index: $0, height: $1) }
        }
        let (up, down) = Self.risesAndFalls(counted.map(\.height))
        let result = AscentDescent(
            ascentMeters: up, descentMeters: down, noiseMeters: noiseMeters, smoothingMeters: bandwidth,
            thresholdMeters: threshold)
        return (result, smoothed, counted, swing)
    }

    /// Whether the swings of white noise past the threshold ``whiteThresholdPerNoise`` × σ′ are the noise's, σ′ the
    /// noise the smoother of `bandwidth` leaves. By Rice's formula the smoothed noise rises through its mean
    /// N = L·√(λ₂/λ₀)/2π times over a length L (λ₂/λ₀ = 55/54b² for the local quadratic: see
    /// ``smoothedNoiseFrequency``; 1/2b² for a plain Gaussian moving average, 30 % fewer), and passes from −t/2 to +t/2
    /// about N·e^(−t²/8σ′²) times: a spurious swing of about t each, which a threshold of σ′√(8 ln(N/α)) would leave to
    /// α = 0.5 on the whole line. L is the length of the stretches where the noise can turn the line back: where the
    /// smoothed profile changes by less than t over ``noiseRiseLength`` (on a climb it changes by more, and the noise
    /// only ripples the slope), not the whole line's, which on hilly tracks put the noise's swings where there are none
    /// and took small hills past t for noise. The terrain's swings between the two thresholds are estimated as those
    /// just above the higher one (up to twice it, less the noise's α), spread evenly. The swings are the noise's when
    /// its expected ones between the two are more than three times the terrain's: an estimate from a handful of swings
    /// (a barometer: σ′ of 0.1 m, hills far above it); not where the terrain's swings crowd the threshold (3 m of GPS
    /// noise on hills of 2–10 m). Where they are the noise's, the extremes on long flat stretches are corrected for it
    /// too (see ``correctedExtremes(_:turns:series:threshold:bandwidth:left:correctingFlatStretches:)``), which takes
    /// most of a spurious swing's height; the higher threshold only measures: it would drop real swings between the two
    /// (3–5 m hills on long climbs, 0.5–0.7 m after smoothing). For correlated noise known beforehand, `bandwidth` is
    /// the one whose smoothed white noise turns as often (see ``equivalentBandwidth(_:bandwidth:model:)``), which sets
    /// both the rate of crossings and the rise length, and `left` the σ′ of the smoother actually used.
    func swingsAreNoise(
        _ smoothed: [Double], turns: [Int], series: ElevationSeries, bandwidth: Double, left: Double
    ) -> Bool {
        let threshold = whiteThresholdPerNoise * left
        guard bandwidth > 0, left > 0 else { return false }
        let spurious = 0.5
        let x = series.distances
        let rise = Self.noiseRiseLength * bandwidth
        var length = 0.0
        // The slope over each gap, times the rise, against the threshold (multiplied out: a gap of 0 adds nothing).
        for j in x.indices.dropFirst() {
            let gap = x[j] - x[j - 1]
            if abs(smoothed[j] - smoothed[j - 1]) * rise < threshold * gap { length += gap }
        }
        let crossings = length * Self.smoothedNoiseFrequency / (2 * Double.pi * bandwidth)
        guard crossings > spurious else { return false }
        let raised = left * (8 * Glibc.log(crossings / spurious)).squareRoot()
        guard raised > threshold else { return false }
        var near = 0.0
        // Each swing that ends in a turn (not the last, which the line's end cuts off).
        for k in turns.indices.dropFirst().dropLast() {
            let swing = abs(smoothed[turns[k]] - smoothed[turns[k - 1]])
            if swing >= raised && swing < 2 * raised { near += 1 }
        }
        let noise = crossings * (-threshold * threshold / (8 * left * left)).exponential - spurious
        let terrain = max(0, near - spurious) * (raised - threshold) / raised
        return noise > 3 * terrain
    }

    /// The bandwidth of least estimated risk for white noise of `model` counted only on the fixes within one
    /// `bandwidth` of the turning points that the smoother of `bandwidth` (leaving `left`) shows past
    /// ``whiteThresholdPerNoise`` × `left`, with the noise it leaves; `bandwidth` and `left` when it is the
    /// same. The risk over the whole line is mostly that of slopes and flat stretches, where a wide smoother
    /// costs nothing; the ascent is made at the extremes, where it flattens hills of a few metres over
    /// 100–150 m (a cosine of wavelength λ keeps (1 + ω²b²/2)·e^(−ω²b²/2) of its amplitude, ω = 2π/λ: for
    /// λ = 100 m, 0.89 at 17 m and 0.97 at 12 m). A narrower smoother leaves more noise, whose flat extremes
    /// ``correctedExtremes(_:turns:series:threshold:bandwidth:left:correctingFlatStretches:)`` takes off. On long lines
    /// the risk is counted around evenly spread turning points, at most about ``turningPointFixes`` fixes, as
    /// ``smoothingRisk(_:bandwidth:model:)`` counts it on about 10,000. Also gives the profile smoothed at
    /// `bandwidth` when that stays the choice (nil otherwise). The bandwidths tried go up to `maximum` (by default
    /// ``maximumSmoothingMeters``); `smoothed` is the profile smoothed at `bandwidth`, where the caller has it.
    func turningPointBandwidth(
        _ series: ElevationSeries, bandwidth: Double, left: Double, model: NoiseModel, upTo maximum: Double? = nil,
        smoothed: [Double]? = nil
    ) -> (bandwidth: Double, left: Double, smoothed: [Double]?) {
        guard bandwidth > 0, left > 0 else { return (bandwidth, left, nil) }
        let smoothed = smoothed ?? Self.smooth(series, bandwidth: bandwidth)
        let turns = Self.extremes(smoothed, threshold: whiteThresholdPerNoise * left)
        guard !turns.isEmpty else { return (bandwidth, left, smoothed) }
        let x = series.distances
        // The fixes within one bandwidth of a turning point, as runs along the line.
        var runs: [Range<Int>] = []
        for i in turns {
            var lo = i
            var hi = i
            while lo > 0 && x[i] - x[lo - 1] <= bandwidth { lo -= 1 }
            while hi + 1 < x.count && x[hi + 1] - x[i] <= bandwidth { hi += 1 }
            if let last = runs.last, lo <= last.upperBound {
                runs[runs.count - 1] = last.lowerBound..<max(last.upperBound, hi + 1)
            } else {
                runs.append(lo..<(hi + 1))
            }
        }
        let total = runs.reduce(0) { $0 + $1.count }
        if total > Self.turningPointFixes {
            // Pieces of at most 1,000 fixes (turning points a bandwidth or two apart merge into long runs),
            // evenly spread.
            runs = runs.flatMap { run in
                stride(from: run.lowerBound, to: run.upperBound, by: 1_000).map { start in
                    start..<min(start + 1_000, run.upperBound)
                }
            }
            let kept = max(1, runs.count * Self.turningPointFixes / total)
            runs = (0..<kept).map { runs[$0 * runs.count / kept] }
        }
        let (chosen, _) = riskMinimizingBandwidth(series, model: model, runs: runs, upTo: maximum)
        guard chosen != bandwidth else { return (bandwidth, left, smoothed) }
        guard chosen > 0 else { return (0, model.white, nil) }
        return (chosen, Self.smoothingRisk(series, bandwidth: chosen, model: model).residual, nil)
    }

    /// The most fixes around turning points that ``turningPointBandwidth(_:bandwidth:left:model:upTo:smoothed:)``
    /// counts the risk on for each candidate bandwidth.
    static let turningPointFixes = 10_000

    /// The indices of the extremes the hysteresis of `threshold` counts from, in order along the line: the
    /// first low or high it starts from, each one a swing ends at, and the last (the line's end cuts it off).
    /// Empty when the line never swings past the threshold.
    package static func extremes(_ e: [Double], threshold: Double) -> [Int] {
        extremes(e, thresholdAt: { _ in threshold })
    }

    /// The extremes of ``extremes(_:threshold:)`` with a threshold of its own at each sample: a line measured
    /// stretch by stretch, each with the threshold its noise needs. A swing from sample `j` to sample `i` counts
    /// past the greater of `threshold(j)` and `threshold(i)`, so a swing that starts or ends on a noisy stretch
    /// is held to its threshold where it meets a quieter one: a wiggle of the noisy stretch is not counted, nor is
    /// a real one of the quieter stretch under that threshold that starts from the noisy stretch's last extreme.
    @inline(__always)
    static func extremes(_ e: [Double], thresholdAt thresholdOf: (Int) -> Double) -> [Int] {
        func threshold(_ i: Int, _ j: Int) -> Double { max(thresholdOf(i), thresholdOf(j)) }
        guard let first = e.first else { return [] }
        var out: [Int] = []
        var low = (value: first, index: 0)
        var high = low
        // 0: undecided, 1: climbing (tracking a high), -1: descending (tracking a low)
        var direction = 0
        for (i, v) in e.enumerated().dropFirst() {
            switch direction {
            case 1:
                if v > high.value {
                    high = (v, i)
                } else if high.value - v > threshold(i, high.index) {
                    out.append(high.index)
                    low = (v, i)
                    direction = -1
                }
            case -1:
                if v < low.value {
                    low = (v, i)
                } else if v - low.value > threshold(i, low.index) {
                    out.append(low.index)
                    high = (v, i)
                    direction = 1
                }
            default:
                if v - low.value > threshold(i, low.index) && v > high.value {
                    out.append(low.index)
                    high = (v, i)
                    direction = 1
                } else if high.value - v > threshold(i, high.index) && v < low.value {
                    out.append(high.index)
                    low = (v, i)
                    direction = -1
                } else {
                    if v < low.value { low = (v, i) }
                    if v > high.value { high = (v, i) }
                }
            }
        }
        if direction == 1 { out.append(high.index) }
        if direction == -1 { out.append(low.index) }
        return out
    }

    /// The heights of the hysteresis' extremes `turns` (see ``extremes(_:threshold:)``), each corrected for the white
    /// noise the smoother of `bandwidth` leaves (σ′ = `left`). An extreme is the least (or greatest) of the smoothed
    /// values on the stretch around it that stays within `threshold` of it: at a hill's top or a hollow's bottom a
    /// stretch of one extreme, whose noise is one value's, but on a long flat stretch between hills the least of many
    /// values of smoothed noise (measured −0.20 m, about 2.3σ′, at the lows on a barometer's flat tracks, against
    /// +0.04 m at the tops). Such a stretch shows more than one local extreme of its kind, each parted from the next by
    /// a turn back of σ′/2 (on a hill's slope the noise cannot turn the smoothed profile: its slope, σ′/(√2·b), is far
    /// below the hill's; the ripples a smoother leaves on elevations rounded to whole metres are smaller than σ′/2, and
    /// their rounding is the same all along a flat top, not many values); there the extreme is moved back by σ′ times
    /// the expected greatest of n independent standard normal values, n = 1 + L/ℓ for a stretch of length L (only with
    /// `correctingFlatStretches`: where the swings are the terrain's, such stretches are its turns back, and stay).
    /// ℓ = 1.05 b is the length per independent value that gives the smoothed noise's rate of rising past 2σ′ by Rice's
    /// formula (e^(−2)·√(55/54)/2πb, against (1 − Φ(2))/ℓ; ``smoothedNoiseFrequency``); the 1.5 b of a plain Gaussian
    /// moving average left the flat extremes 0.25σ′ too far out on a barometer's flat tracks. Two real tops within the
    /// threshold of each other, parted by a dip of more than σ′/2, are moved back as noise's would be (with
    /// `correctingFlatStretches`). An extreme with a single local extreme in its stretch (a hill's top or a hollow's
    /// bottom) is the smoothed curve's own, which three things move (see
    /// ``hillExtreme(_:smoothed:at:sign:bandwidth:left:most:)``).
    static func correctedExtremes(
        _ e: [Double], turns: [Int], series: ElevationSeries, threshold: Double, bandwidth: Double, left: Double,
        correctingFlatStretches: Bool
    ) -> [Double] {
        guard turns.count >= 2, bandwidth > 0 else { return turns.map { e[$0] } }
        let x = series.distances
        var heights: [Double] = []
        for (k, i) in turns.enumerated() {
            // +1 at a high, −1 at a low; the stretch around it stays within the threshold of it.
            let other = k + 1 < turns.count ? turns[k + 1] : turns[k - 1]
            let sign: Double = e[i] > e[other] ? 1 : -1
            let first = k > 0 ? turns[k - 1] : 0
            let last = k + 1 < turns.count ? turns[k + 1] : e.count - 1
            var a = i
            var c = i
            while a > first && sign * (e[i] - e[a - 1]) <= threshold { a -= 1 }
            while c < last && sign * (e[i] - e[c + 1]) <= threshold { c += 1 }
            // Local extremes of its kind on the stretch, each parted from the next by a turn back of σ′/2.
            let stretch = e[a...c].map { sign * $0 }
            let turnsOn = extremes(stretch, threshold: left / 2)
            var count = 0
            for (m, j) in turnsOn.enumerated() {
                let other = m + 1 < turnsOn.count ? turnsOn[m + 1] : turnsOn[m - 1]  // m > 0: two or more
                if stretch[j] > stretch[other] { count += 1 }
            }
            var height = e[i]
            let most = left * expectedMaximum(of: 1 + (x[c] - x[a]) / (independentValueLength * bandwidth))
            if count >= 2 {
                if correctingFlatStretches { height -= sign * most }
            } else if i > 0 && i < e.count - 1 {
                height = hillExtreme(
                    series, smoothed: e, at: i, sign: sign, bandwidth: bandwidth, left: left, most: most)
            }
            heights.append(height)
        }
        return heights
    }

    /// The heights of the extremes `turns` of exact elevations rounded to a lattice of `quantum` (q), read from where
    /// the steps between levels fall, not from the levels alone. Smooth terrain so rounded steps once for each level it
    /// crosses, and a rounded top's width at each level below it (from the step on one side to the step on the other,
    /// each placed halfway between the fixes it falls between) tells how far the top lies past its level: a top H −
    /// C|d|^p, on a slope or not, has widths whose p-th power falls linearly to 0 at H (p = 2 for a rounded top, 1 for
    /// a cone's tip). At each extreme, the widths at the three levels below a top (above a bottom) are fitted with p of
    /// 1, 1.5 or 2, the one whose widths fall most nearly linearly, and give its height where it lies within q/2 of its
    /// level. Only where the steps of the second and third levels lie at least ``steppedExtremeGaps`` gaps apart on
    /// each side: where the steps fall is then known far better than the rounding, and this test does not choose by the
    /// top's own rounding (a test of the fit's own error would: a fit is surest where the top lies far past its level,
    /// and taking back only rounding that way biases the sum). Elsewhere (small hills, sparse fixes, a turn back within
    /// three levels, the line's ends) an extreme keeps its level, whose rounding is unbiased. What the steps cannot
    /// tell: a flat top or floor between straight flanks reads as a cone's tip and is moved out (by up to q/2), and so
    /// is, by less, a smooth foot that meets a straight grade (0.25 m in a case measured, where its level was 0.05 m
    /// off).
    static func steppedExtremes(_ series: ElevationSeries, turns: [Int], quantum q: Double) -> [Double] {
        let e = series.elevations
        let x = series.distances
        // The first three steps away from the plateau of fix `i` in `direction` (−1, +1) for an extreme of `sign`, each
        // with the gap between the fixes it falls between; nil where the line ends or turns back first.
        func steps(from i: Int, sign: Double, direction: Int) -> [(at: Double, gap: Double)]? {
            var j = i
            var found: [(at: Double, gap: Double)] = []
            while found.count < 3 {
                let next = j + direction
                guard next >= 0 && next < e.count else { return nil }
                let levels = sign * (e[j] - e[next]) / q
                guard levels > -0.5 else { return nil }
                let n = Int(levels.rounded())
                for k in 0..<min(n, 3 - found.count) {
                    found.append((x[j] + (x[next] - x[j]) * (Double(k) + 0.5) / Double(n), abs(x[next] - x[j])))
                }
                j = next
            }
            return found
        }
        return turns.enumerated().map { k, i in
            guard k > 0, k + 1 < turns.count else { return e[i] }
            let sign: Double = e[i] > e[turns[k + 1]] ? 1 : -1
            guard let before = steps(from: i, sign: sign, direction: -1),
                let after = steps(from: i, sign: sign, direction: 1)
            else { return e[i] }
            let widths = zip(before, after).map { $1.at - $0.at }
            // Widths that do not grow away from the extreme (fixes at one distance) tell nothing of its shape.
            guard widths[0] > 0, widths[1] > widths[0], widths[2] > widths[1] else { return e[i] }
            let gaps = [before[1].gap, before[2].gap, after[1].gap, after[2].gap]
            guard gaps.max()! * steppedExtremeGaps <= (widths[2] - widths[1]) / 2 else { return e[i] }
            // Widths to the p-th power against the depth of each step below the level, (m + 1/2)q: a line whose root
            // lies t past the level.
            let depths = [0.5 * q, 1.5 * q, 2.5 * q]
            var best: (misfit: Double, past: Double)? = nil
            for p in [1.0, 1.5, 2.0] {
                let y = widths.map { $0.power(p) }
                let (meanD, meanY) = (depths.reduce(0, +) / 3, y.reduce(0, +) / 3)
                let slope =
                    zip(depths, y).reduce(0.0) { $0 + ($1.0 - meanD) * ($1.1 - meanY) }
                    / depths.reduce(0.0) { $0 + ($1 - meanD) * ($1 - meanD) }
                guard slope > 0 else { continue }
                let intercept = meanY - slope * meanD
                let misfit = zip(depths, y).reduce(0.0) {
                    let r = ($1.1 - intercept - slope * $1.0) / $1.1
                    return $0 + r * r
                }
                if best == nil || misfit < best!.misfit { best = (misfit, intercept / slope) }
            }
            guard let past = best?.past, abs(past) <= q / 2 else { return e[i] }
            return e[i] + sign * past
        }
    }

    /// How many of the gaps around them the steps of the second and third levels below a rounded top must lie
    /// apart on each side for ``steppedExtremes(_:turns:quantum:)`` to read the top from them.
    static let steppedExtremeGaps = 10.0

    /// √(λ₂/λ₀)·b of white noise smoothed by the local quadratic with Gaussian weights of σ b: its equivalent kernel
    /// in the interior, (3 − u²)/2·φ(u), has ∫K′²/∫K² = 55/54 (a plain Gaussian moving average: 1/2). By Rice's
    /// formula the smoothed noise rises through a level u·σ′ e^(−u²/2)·√(55/54)/2πb times per metre.
    static let smoothedNoiseFrequency = (55.0 / 54).squareRoot()

    /// The length, in bandwidths, over which white noise smoothed by the local quadratic rises from its mean to a
    /// crest: a quarter of its mean period between rises through the mean (2π/``smoothedNoiseFrequency``), 1.56. Where
    /// the terrain changes by more than a threshold over it, the noise cannot turn the smoothed line back by that much
    /// (see ``swingsAreNoise(_:turns:series:bandwidth:left:)``). π, about half the period (the whole rise from trough
    /// to crest), counts too little of the line: over the tables and the random draws 0–7, three families (two
    /// barometers, and white GPS noise on near-flat cones) took the noise's swings for the terrain's there and counted
    /// them.
    static let noiseRiseLength = Double.pi / (2 * smoothedNoiseFrequency)

    /// The length per independent value of white noise smoothed at bandwidth 1 that gives its rate of rising past
    /// 2σ′ (e^(−2)·``smoothedNoiseFrequency``/2π) as (1 − Φ(2))/ℓ: 1.05.
    static let independentValueLength =
        Glibc.erfc(2 / 2.0.squareRoot()) / 2 * 2 * Double.pi * 2.0.exponential
        / smoothedNoiseFrequency

    /// The height of the hill's top (`sign` +1) or the hollow's bottom (−1) that the smoothed profile `smoothed` shows
    /// at fix `i`, with nothing else of its kind in its stretch, corrected for what the smoother of `bandwidth`, the
    /// fixes and the noise the smoother leaves (σ′ = `left`) do to it; `most`: σ′ times the expected greatest of the
    /// stretch's independent values of smoothed noise. On a barometer's flat tracks (55 of them, 5–15 m apart, 20 m
    /// bandwidth) such extremes were 0.19σ′ short of the terrain's on average, −0.32σ′ of it the smoother's:
    /// - *the smoother's loss*: a cosine of ω keeps (1 + ω²b²/2)·e^(−ω²b²/2) of its amplitude, 0.81 for a hill of 100 m
    ///   at 20 m. Smoothing the residuals y − ŷ with the same smoother and adding them back (Tukey's twicing) keeps
    ///   1 − (1 − 0.81)² = 0.96; on the exact terrain of those tracks the smoothed sum lost −1.36 %, twiced −0.39 %
    ///   (the plain sum at the fixes −0.33 %);
    /// - *the fixes' gaps*: the smoothed curve peaks between fixes, at the vertex of the local parabola ŷ + a₁u + a₂u²
    ///   (u in bandwidths), taken within half the gap on either side (+0.3 point on those tracks);
    /// - *the noise's gain*: the greatest of the smoothed noise ε near a top of curvature κ = 2|a₂|/b² is about
    ///   ε(0) + ε′²/2κ, the noise's slope moving the vertex; E[ε′²] = σ′²·55/54b², so the vertex gains
    ///   σ′²·55/216|a₂| (0.06σ′ for a hill of 2 m over 100 m, 0.17σ′ for 10 m over 400 m), at most `most`,
    ///   which is taken off; where the fitted curvature is of the other kind, `most` is.
    static func hillExtreme(
        _ series: ElevationSeries, smoothed e: [Double], at i: Int, sign: Double, bandwidth: Double, left: Double,
        most: Double
    ) -> Double {
        let x = series.distances
        let y = series.elevations
        let inverse = 1 / (2 * bandwidth * bandwidth)
        let (window, s) = localMoments(x, at: i, bandwidth: bandwidth)
        let rows = window.count >= 4 ? inverseMoments(s.0, s.1, s.2, s.3, s.4) : nil
        // Twicing: the residuals smoothed at i (with the smoother's weights, as ``weights(_:bandwidth:at:_:)``
        // gives them); t: the moments of the elevations about y[i], for the local parabola.
        var twiced = e[i]
        var t = (0.0, 0.0, 0.0)
        for j in window {
            let d = x[j] - x[i]
            let w = (-d * d * inverse).exponential
            let u = d / bandwidth
            twiced += (rows.map { w * ($0.0.0 + $0.0.1 * u + $0.0.2 * u * u) } ?? w / s.0) * (y[j] - e[j])
            let v = y[j] - y[i]
            t.0 += w * v
            t.1 += w * u * v
            t.2 += w * u * u * v
        }
        guard let (_, r1, r2) = rows else { return twiced - sign * most }
        // The slope and curvature of the local parabola.
        let a1 = r1.0 * t.0 + r1.1 * t.1 + r1.2 * t.2
        let a2 = r2.0 * t.0 + r2.1 * t.1 + r2.2 * t.2
        guard sign * a2 < 0 else { return twiced - sign * most }
        let u = min(max(-a1 / (2 * a2), -(x[i] - x[i - 1]) / (2 * bandwidth)), (x[i + 1] - x[i]) / (2 * bandwidth))
        let gain = min(left * left * 55 / (216 * abs(a2)), most)
        return twiced + a1 * u + a2 * u * u - sign * gain
    }

    /// The expected greatest of `n` independent standard normal values, by Blom's approximation
    /// Φ⁻¹((n − 0.375)/(n + 0.25)) (0 for one value, 0.59 for two, 1.55 for ten, 2.50 for a hundred).
    package static func expectedMaximum(of n: Double) -> Double {
        guard n > 1 else { return 0 }
        let p = (n - 0.375) / (n + 0.25)
        // Φ⁻¹ by bisection on Φ(u) = erfc(−u/√2)/2.
        var lo = -10.0
        var hi = 10.0
        for _ in 0..<80 {
            let mid = (lo + hi) / 2
            if Glibc.erfc(-mid / 2.0.squareRoot()) / 2 < p { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// The noise of the elevations and the lag over which it is correlated.
    struct Noise: Hashable {
        /// Standard deviation, metres.
        var sigma: Double
        /// Standard deviation of its short-range part, metres: the noise at a lag of ``noiseScaleMeters``.
        var shortSigma: Double
        /// The lag at which the noise reaches half its variance, metres.
        var correlationMeters: Double
        /// Standard deviation of its white part (uncorrelated from fix to fix), metres.
        var whiteSigma: Double
        /// Whether the noise is taken as white only because half its level shows at the first lag (see
        /// ``whitePart(first:level:correlation:)``), though it grew past that.
        var halfAtFirstLag = false
    }

    /// The mean spacing of the fixes, metres, not counting dropouts (see ``dropoutLimit(_:ratio:)``): a recording
    /// whose elevations are missing for a kilometre (a tunnel, points without `ele`) is spaced as the rest of it
    /// is. 1 for a line without length.
    static func meanSpacing(_ series: ElevationSeries, dropoutRatio: Double) -> Double {
        meanStep(series, upTo: dropoutLimit(series, ratio: dropoutRatio))
    }

    /// The mean of the steps between consecutive fixes no longer than `limit` metres; the mean of all of them
    /// when none is, and 1 for a line without length.
    static func meanStep(_ series: ElevationSeries, upTo limit: Double) -> Double {
        let x = series.distances
        let n = x.count
        guard n >= 2, x[n - 1] > x[0] else { return 1 }
        var total = 0.0
        var steps = 0
        for k in 1..<n where x[k] - x[k - 1] <= limit {
            total += x[k] - x[k - 1]
            steps += 1
        }
        return total > 0 ? total / Double(steps) : (x[n - 1] - x[0]) / Double(n - 1)
    }

    /// The longest step between consecutive fixes that is spacing, metres: `ratio` times the mean step (see
    /// ``dropoutSpacingRatio``). A longer one is a dropout: no fixes with elevations there, and no chord measures
    /// the noise across it. The mean is taken again without the steps past the first limit, so that a pause of
    /// 30 km does not hide one of a few hundred metres. Infinite for fewer than two fixes.
    static func dropoutLimit(_ series: ElevationSeries, ratio: Double) -> Double {
        guard series.count >= 2 else { return .infinity }
        return ratio * meanStep(series, upTo: ratio * meanStep(series, upTo: .infinity))
    }

    /// The steps longer than `limit` metres (dropouts: see ``dropoutLimit(_:ratio:)``), each by the index of the
    /// fix after it, in order.
    static func dropouts(_ series: ElevationSeries, over limit: Double) -> [Int] {
        let x = series.distances
        return x.count < 2 ? [] : (1..<x.count).filter { x[$0] - x[$0 - 1] > limit }
    }

    /// The noise, followed up the lags as the type's documentation describes. With
    /// `stoppingWhereTailsTurnHeavy`, the walk also stops before the first lag whose residuals' tails are heavier
    /// than a Gaussian's (within ``gaussianTolerance``; see ``heavyTails(_:)``) where those at the shortest lag
    /// are a Gaussian's: noise is Gaussian at every lag, so terrain starts to show there, in s² too, and growth
    /// from there on can be the growing share of chords that reach a hill (hills apart on flat ground) as much
    /// as slow noise. Stopped so at the shortest lag, the noise is white at its level there (no lag shows it
    /// correlated). Tails heavy from the shortest lag on (noise that is not Gaussian, or terrain at every lag)
    /// tell nothing of where terrain starts: the walk is then the usual one.
    func estimateNoise(_ measured: MeasuredElevations, stoppingWhereTailsTurnHeavy: Bool = false) -> Noise {
        let shortest = measured.shortestLag
        // s² at lag shortest·2^k, measured as far as the walk needs them, and whether the tails are heavy there.
        var scales: [(lag: Double, variance: Double, heavy: Bool)] = []
        func variance(at k: Int) -> Double? {
            while scales.count <= k {
                let lag = shortest * Double(1 << scales.count)
                guard lag <= longestNoiseLagMeters,
                    var residuals = Self.residuals(measured.copies, lag: lag, dropouts: measured.dropouts)?
                        .values
                else {
                    return nil
                }
                let s = 1.4826 * Self.medianAbsoluteDeviation(&residuals)
                let heavy =
                    stoppingWhereTailsTurnHeavy && heavyTails(measured.deviationsForTails(residuals, lag: lag))
                scales.append((lag, max(0, s * s - measured.offset), heavy))
            }
            return scales[k].variance
        }
        guard variance(at: 0) != nil else {
            return Noise(sigma: 0, shortSigma: 0, correlationMeters: shortest, whiteSigma: 0)
        }
        var k = 0
        // Whether the walk stopped before a lag whose tails are heavy where the shortest lag's are a Gaussian's.
        var stoppedByTails = false
        // Whether terrain took over from the shortest lag on: s² grew faster than noise can from there, and went on
        // growing over the next lag.
        var terrainFromTheStart = false
        while let next = variance(at: k + 1) {
            if scales[k + 1].heavy && !scales[0].heavy {
                stoppedByTails = true
                break
            }
            // A level of 1 mm is no level: anything above it is growth.
            let base = max(scales[k].variance, 1e-6)
            let growth = next / base
            // Terrain takes over where s² grows faster than noise can and goes on growing over the next lag
            // (one lag's jump alone can be the scatter of the estimate).
            if growth > noiseGrowthLimit {
                guard let after = variance(at: k + 2) else { break }
                guard after / base <= noiseGrowthLimit * noiseGrowthLimit else {
                    terrainFromTheStart = k == 0
                    break
                }
            }
            k += 1
            if growth < noisePlateauRatio { break }
        }
        if terrainFromTheStart {
            // Terrain shows at the shortest lag already (fixes far apart on small hills): s² there is noise and
            // the terrain's curvature. Curvature moves a chord by h², so its s² grows up to 16 times from one lag
            // to the next, double it (less where the lag is no longer short against the hills), and noise's at
            // most doubles: the growth tells the curvature's share at the shortest lag, which is not noise, or a
            // part of it. (Noise that grows too takes a fifteenth of its growth with it: at most 7 % of its s².)
            let curvature = (scales[1].variance - scales[0].variance) / (16 - 1)
            scales[0].variance = max(0, scales[0].variance - curvature)
        }
        let levels = scales[0...k].map { (lag: $0.lag, variance: $0.variance) }
        let level = scales[k].variance
        // The correlation length: the lag at which the noise reaches half its variance (for exponentially
        // correlated noise about its e-folding length), interpolated between the lags around it.
        var correlation = levels[0].lag
        if let half = levels.firstIndex(where: { $0.variance >= level / 2 }), half > 0 {
            let (a, b) = (levels[half - 1], levels[half])
            let t = (level / 2 - a.variance) / max(b.variance - a.variance, 1e-12)
            correlation = a.lag * (b.lag / a.lag).power(t)
        }
        // The noise a chord of `noiseScaleMeters` on either side sees: its short-range part.
        let short = levels.last(where: { $0.lag <= noiseScaleMeters })?.variance ?? levels[0].variance
        return Noise(
            sigma: level.squareRoot(), shortSigma: short.squareRoot(), correlationMeters: correlation,
            whiteSigma: k == 0 && !stoppedByTails
                ? 0 : Self.whitePart(first: levels[0], level: level, correlation: correlation).squareRoot(),
            halfAtFirstLag: k > 0 && level > 0 && levels[0].variance < 0.9 * level && correlation <= levels[0].lag)
    }

    /// The quantum q the elevations are rounded to, when they lie on a lattice: every step between consecutive
    /// fixes a whole multiple, within 1 %, of the smallest one, at least 5 cm.
    static func latticeQuantum(_ series: ElevationSeries) -> Double? {
        let e = series.elevations
        var q = Double.infinity
        for k in e.indices.dropFirst() {
            let d = abs(e[k] - e[k - 1])
            if d > 1e-9 && d < q { q = d }
        }
        guard q.isFinite, q >= 0.05 else { return nil }
        for k in e.indices.dropFirst() {
            let m = abs(e[k] - e[k - 1]) / q
            if abs(m - m.rounded()) > 0.01 * max(1, m) { return nil }
        }
        return q
    }

    /// The elevations the noise is measured on (see ``measuredElevations(_:)``): one or more copies of them, whose
    /// chords' residuals are pooled; the variance to take off every s² measured on them; and the shortest lag,
    /// ``shortestNoiseLagMeters`` or the mean spacing of the fixes when that is longer.
    struct MeasuredElevations {
        var copies: [ElevationSeries]
        var offset: Double
        var shortestLag: Double
        /// The steps between fixes that are dropouts, each by the index of the fix after it (see
        /// ``AscentMethod/dropouts(_:over:)``): found once, for every lag and copy.
        var dropouts: [Int]
        /// Copies of the elevations, each fix moved by uniform dither of up to half a quantum, whose chords'
        /// residuals ``AscentMethod/heavyTails(_:)`` reads where the elevations are measured as they are on a
        /// lattice (see ``AscentMethod/measuredElevations(_:)``); nil where the residuals measured are the ones to
        /// read.
        var tailCopies: [ElevationSeries]? = nil
        /// The quantum the elevations are rounded to, when they lie on a lattice (see
        /// ``AscentMethod/latticeQuantum(_:)``).
        var quantum: Double? = nil

        /// The absolute deviations whose tails tell terrain from noise at `lag`: those of the residuals of
        /// ``tailCopies``, or `deviations` (those of the residuals measured, as
        /// ``AscentMethod/medianAbsoluteDeviation(_:)`` leaves them) without them.
        func deviationsForTails(_ deviations: [Double], lag: Double) -> [Double] {
            guard let tailCopies, var values = AscentMethod.residuals(tailCopies, lag: lag, dropouts: dropouts)?.values
            else { return deviations }
            _ = AscentMethod.medianAbsoluteDeviation(&values)
            return values
        }

        /// s² of chord `residuals` measured on these elevations: their robust spread squared, less the offset
        /// (at least 10⁻¹² m²).
        func variance(_ residuals: [Double]) -> Double {
            var deviations = residuals
            let s = 1.4826 * AscentMethod.medianAbsoluteDeviation(&deviations)
            return max(s * s - offset, 1e-12)
        }
    }

    /// The elevations the noise is measured on, and the variance to take off every s² measured on them (computed
    /// once for the walk up the lags and the joint fit).
    /// - On a lattice of quantum q (see ``latticeQuantum(_:)``) where rounding is at least half of s² at the
    ///   shortest lag: the elevations, and the q²/12 that rounding adds to every chord residual (scaled as for
    ///   white noise). The elevations are then the terrain rounded, with little other noise, and rounding of
    ///   smooth terrain steps only where the terrain crosses a step, never back and forth: it is not noise to
    ///   smooth.
    /// - On a lattice where other noise dominates: that noise makes the rounding errors independent from fix to
    ///   fix, white noise like its own, and they stay in the noise. Where the fixes are closer than
    ///   ``noiseScaleMeters``, the chords' residuals still lie on a lattice (of q/2 on evenly spaced fixes), and
    ///   their median absolute deviation jumps from one lattice value to the next as the lag or the noise grows:
    ///   white noise of 0.7–1.3 m in half metres every 5 m read as 0.85–1.12 times itself, s² of slow noise in
    ///   half metres stood still over three lags and then grew 1.6 times in one (the fit read 1.2 m of noise for
    ///   3.5 m, +54 % of the ascent on rolling terrain), and where the noise is within a quantum (a third of
    ///   consecutive fixes alike for slow GPS noise in whole metres every 1–5 m) the residuals are exactly 0 or a
    ///   step: s² 2.6 times more from 4 m to 8.5 m, past what noise can grow (+40 … +60 %). The elevations are
    ///   measured on four copies (one on lines of over 100,000 fixes, whose residuals are many) with Gaussian
    ///   dither of q/2 added (the same on every run), their residuals pooled: the dither smooths their distribution
    ///   (its ripple at the lattice is e^(−π²/2), under 1 %), and its variance q²/4 is known. Sparser fixes step by
    ///   more than the lattice from one to the next and are measured as they are (dithered, the scatter the dither
    ///   adds flipped the fits of three lags of a barometer every 20–60 m and of a planned route every 23 m). Their
    ///   residuals still crowd near the lattice's values, and the median and the 90th and 99th percentiles step
    ///   from one value to the next as the lag changes. The tails of GPS noise of 3.9 m correlated over 62 m plus
    ///   0.66 m white, in whole metres every 10.8–12.6 m, noise alone, read heavy at 24 of 240 lags (six lags of 40
    ///   tracks), and a track of 25 m of ascent whose walk up the lags stopped so on the third counted 407 m. Their
    ///   tails are read on four copies (one on lines of over 100,000 fixes) with uniform dither of up to q/2, the
    ///   least that fills the lattice's cells: 1 of the 240 lags read heavy, and the track counts 26.6 m. The
    ///   spread too steps there: it is 0 where half the residuals are, and otherwise, on evenly spaced fixes, at
    ///   least the first lattice value, (1.4826 q/√6)² = 0.37 q² (near it on fixes spaced unevenly), never between;
    ///   so where rounding is half of s² or more (q²/6 or less of it), the raw spread does not show it, and exact
    ///   elevations in whole metres every 11 m on steep small hills read as 0.59 m of white noise (−3.6 % of the
    ///   ascent, smoothed). Where the copies' s², less the dither's q²/12, shows rounding to be at least half
    ///   of it, the elevations are measured on the copies, and the rounding's q²/12 and the dither's are taken off
    ///   every s² (0.15 m read, −1.1 %).
    /// - Otherwise the elevations, and 0.
    func measuredElevations(_ series: ElevationSeries) -> MeasuredElevations {
        let limit = Self.dropoutLimit(series, ratio: dropoutSpacingRatio)
        let dropouts = Self.dropouts(series, over: limit)
        let spacing = Self.meanStep(series, upTo: limit)
        let lag = max(shortestNoiseLagMeters, spacing)
        var measured = MeasuredElevations(copies: [series], offset: 0, shortestLag: lag, dropouts: dropouts)
        measured.quantum = Self.latticeQuantum(series)
        guard let q = measured.quantum, let s = Self.residualScale(series, lag: lag, dropouts: dropouts)
        else { return measured }
        if q * q / 12 >= s * s / 2 {
            measured.offset = q * q / 12
            return measured
        }
        // SplitMix64 for uniform values: the sparse fixes' dither as they are, the dense ones' two at a time into
        // Gaussian ones (Box–Muller).
        var state: UInt64 = 0x5DEE_CE66_D1CE_4E5B
        func uniform() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return (Double((z ^ (z >> 31)) >> 11) + 0.5) / 9_007_199_254_740_992
        }
        /// Four copies of the elevations (one on lines of over 100,000 fixes), each moved by `dither`.
        func copies(_ dither: (inout [Double]) -> Void) -> [ElevationSeries] {
            (0..<(series.count > 100_000 ? 1 : 4)).map { _ in
                var copy = series
                dither(&copy.elevations)
                return copy
            }
        }
        guard spacing < noiseScaleMeters else {
            let dithered = copies { e in
                for k in e.indices { e[k] += (uniform() - 0.5) * q }
            }
            // Measured on the copies with rounding and dither taken off, the rest of s² at most the rounding's
            // q²/12: rounding at least half of s², as above.
            let onCopies = MeasuredElevations(
                copies: dithered, offset: q * q / 6, shortestLag: lag, dropouts: dropouts, quantum: q)
            if let residuals = Self.residuals(dithered, lag: lag, dropouts: dropouts)?.values,
                onCopies.variance(residuals) <= q * q / 12
            {
                return onCopies
            }
            measured.tailCopies = dithered
            return measured
        }
        let dithered = copies { e in
            var k = 0
            while k < e.count {
                let radius = (-2 * Glibc.log(uniform())).squareRoot() * q / 2
                let angle = 2 * Double.pi * uniform()
                e[k] += radius * Glibc.cos(angle)
                if k + 1 < e.count { e[k + 1] += radius * Glibc.sin(angle) }
                k += 2
            }
        }
        (measured.copies, measured.offset) = (dithered, q * q / 4)
        return measured
    }

    /// The variance of the white part of noise that is white plus exponentially correlated, from s² at the
    /// first lag, the level σ² and the half-variance lag. A chord's residual at lag h, scaled as for white
    /// noise, has the variance σ𝑤² + σ𝑐²·g(h/L), g(a) = (1.5 − 2e⁻ᵃ + 0.5e⁻²ᵃ)/1.5, which reaches half of
    /// σ𝑐² at h ≈ 0.87 L; so σ𝑤² = (s² − σ²·g)/(1 − g). Noise level from the first lag is white whole.
    /// (Noise seen at one lag only, where terrain takes over at once, is not taken as white: 0.)
    static func whitePart(first: (lag: Double, variance: Double), level: Double, correlation: Double) -> Double {
        // Within the scatter of the estimate of the level at the first lag, or half of it there: white.
        guard level > 0, first.variance < 0.9 * level, correlation > first.lag else { return level }
        let g = chordResponse(first.lag * 0.87 / max(correlation, 1e-9))
        guard g < 1 else { return level }
        return min(level, max(0, (first.variance - level * g) / (1 - g)))
    }

    /// Noise that is white plus exponentially correlated: σ𝑤 (uncorrelated from fix to fix) and σ𝑐 with the
    /// correlation e^(−d/L) between fixes d metres apart.
    struct NoiseModel: Hashable {
        var white: Double
        var correlated: Double = 0
        var length: Double = 0

        /// The standard deviation of the whole noise, white and correlated, metres.
        var totalMeters: Double { (white * white + correlated * correlated).squareRoot() }

        /// The correlated part's share of s² at lag `h`: σ𝑐²·g(h/L) (see ``AscentMethod/chordResponse(_:)``).
        func correlatedVariance(atLag h: Double) -> Double {
            length > 0 ? correlated * correlated * AscentMethod.chordResponse(h / length) : 0
        }
    }

    /// The noise fitted jointly with the terrain's onset over the lags at which the residuals still look
    /// like noise. At lags ``shortestNoiseLagMeters`` (or the mean spacing) × √2ᵏ up to
    /// ``longestNoiseLagMeters`` (a lag whose chords are those of the lag before, on evenly spaced fixes,
    /// is skipped), the chord residuals' robust spread s² is measured with the tails of their
    /// distribution. The lags are followed up (at least three) while the tails stay those of a Gaussian
    /// (within ``gaussianTolerance``: noise is Gaussian at every lag, and terrain, which lifts some
    /// residuals and not others, makes the tails heavy where it starts to show and at every lag after, its share
    /// growing; tails heavy at one lag and a Gaussian's at the next are the test's scatter) and while s² grows no
    /// faster than noise can (``noiseGrowthLimit`` per doubled lag, from the lag nearest half this one:
    /// hills everywhere keep the tails Gaussian but not the growth; a jump the next lag does not carry on, over
    /// half and over a quarter of that lag, is the scatter of the estimate, not terrain). Over those lags
    /// s²(h) = σ𝑤² + σ𝑐²·g(h/L) + τ·h⁴ (g: see ``chordResponse(_:)``; τ·h⁴ the terrain's curvature, which a
    /// chord misses by h², where terrain starts to show) is fitted by least squares in relative terms,
    /// weighted by √(h₀/h) for the fewer independent residuals at long lags, with σ𝑤², σ𝑐², τ ≥ 0 for each L
    /// of h₀ × √2ʲ up to ``correlationPerGaussianLag`` times the longest lag used. Nil when fewer than two
    /// lags can be measured; otherwise the model with the lags it was fitted on and their s² (see ``NoiseFit``).
    /// `followsLags` is false when, without the terrain term, the model explains less than half of s² at the
    /// longest lag: it was then fitted to a growth that noise cannot have (terrain's, at lags that sparse fixes
    /// make long), and it is no model of the noise.
    func fitNoiseModel(_ measured: MeasuredElevations) -> NoiseFit? {
        var lags: [Double] = []
        var variances: [Double] = []
        var lag = measured.shortestLag
        var measuredBefore = 0.0
        // The residuals of the next lag, when they were measured ahead (to tell a jump's or the tails' scatter from
        // terrain), and whether their tails were read as a Gaussian's there.
        var ahead: (lag: Double, chords: (values: [Double], lag: Double), gaussianTails: Bool)? = nil
        // The residuals at `lag`: those measured ahead, or measured now.
        func measuredChords(at lag: Double) -> (values: [Double], lag: Double)? {
            if let ahead, ahead.lag == lag { return ahead.chords }
            return Self.residuals(measured.copies, lag: lag, dropouts: measured.dropouts)
        }
        while lag <= longestNoiseLagMeters, let chords = measuredChords(at: lag) {
            defer { lag *= 2.0.squareRoot() }
            let tailsRead = ahead.map { $0.lag == lag && $0.gaussianTails } ?? false
            // On evenly spaced fixes two nominal lags can take the same chords: measure each once.
            if chords.lag <= 1.05 * measuredBefore { continue }
            measuredBefore = chords.lag
            var residuals = chords.values
            let half = Self.medianAbsoluteDeviation(&residuals)
            // Half the residuals exactly 0 (elevations rounded on even ground): no spread to fit.
            guard half > 0 else { break }
            let variance = max(1.4826 * 1.4826 * half * half - measured.offset, 1e-12)
            // Tails heavy here: terrain, whose share of the residuals only grows with the lag, unless they are a
            // Gaussian's again at the next lag (the test's scatter).
            if lags.count >= 3 && !tailsRead && heavyTails(measured.deviationsForTails(residuals, lag: lag)) {
                let next = lag * 2.0.squareRoot()
                guard next <= longestNoiseLagMeters, let after = measuredChords(at: next),
                    !heavyTails(measured.deviationsForTails(Self.absoluteDeviations(after.values), lag: next))
                else { break }
                ahead = (next, after, true)
            }
            // Faster growth than noise can have (at most `noiseGrowthLimit` per doubled lag) since the lag nearest
            // half this one: terrain, even where its residuals look Gaussian (hills everywhere). Unless that jump
            // is the scatter of the estimate at the lag it is compared with (a handful of independent residuals:
            // slow noise over a few kilometres): terrain goes on growing too fast at the next lag, while noise
            // grows there within the limit over half that lag and over a quarter of it.
            if lags.count >= 3, growsTooFast(to: (lag, variance), since: 2, lags, variances) {
                let next = lag * 2.0.squareRoot()
                guard next <= longestNoiseLagMeters, let after = measuredChords(at: next),
                    case let v = measured.variance(after.values),
                    !growsTooFast(to: (next, v), since: 2, lags + [lag], variances + [variance]),
                    !growsTooFast(to: (next, v), since: 4, lags, variances)
                else { break }
                if ahead?.lag != next { ahead = (next, after, false) }
            }
            lags.append(lag)
            variances.append(variance)
        }
        guard lags.count >= 2,
            let model = bestNoiseModel(
                lags: lags, variances: variances, lengthsPerLongestLag: correlationPerGaussianLag)
        else { return nil }
        // Without the terrain term all growth of s² is put down to the noise. A model that explains less than half
        // of s² at the longest lag has been fitted to growth it cannot follow (noise at most doubles per doubled
        // lag): terrain, the larger part there, not noise.
        guard lags.count < 6 else { return NoiseFit(model: model, followsLags: true, lags: lags, variances: variances) }
        let explained = model.white * model.white + model.correlatedVariance(atLag: lags[lags.count - 1])
        return NoiseFit(
            model: model, followsLags: explained >= variances[variances.count - 1] / 2, lags: lags,
            variances: variances)
    }

    /// The model s²(h) = σ𝑤² + σ𝑐²·g(h/L) + τ·h⁴ fitted to s² at `lags` (at least one; see ``fitNoiseModel(_:)``),
    /// with correlation lengths L from half the first lag times √2ʲ up to `lengthsPerLongestLag` times the longest
    /// lag; nil when no fit can be made.
    func bestNoiseModel(lags: [Double], variances: [Double], lengthsPerLongestLag: Double) -> NoiseModel? {
        guard let first = lags.first, let longest = lags.last else { return nil }
        var best: (error: Double, model: NoiseModel)? = nil
        var length = first / 2
        while length <= lengthsPerLongestLag * longest * 1.000_001 {
            defer { length *= 2.0.squareRoot() }
            // Weighted least squares for (σ𝑤², σ𝑐², τ) on s²/observed = 1, each at least 0; τ·(h/h_last)⁴ is
            // the terrain where it starts to show, through its curvature (a chord misses it by h²). The
            // terrain term is fitted only with two lags to spare beyond the four quantities (σ𝑤, σ𝑐, L, τ).
            var rows: [[Double]] = []
            var target: [Double] = []
            for (h, v) in zip(lags, variances) {
                let w = (lags[0] / h).squareRoot()
                let row = [w / v, w * Self.chordResponse(h / length) / v, w * (h / longest).power(4) / v]
                rows.append(lags.count >= 6 ? row : Array(row.prefix(2)))
                target.append(w)
            }
            guard let fit = Self.nonNegativeLeastSquares(rows, target) else { continue }
            if best == nil || fit.error < best!.error {
                let (white, correlated) = (fit.coefficients[0], fit.coefficients[1])
                best = (
                    fit.error,
                    NoiseModel(
                        white: white.squareRoot(), correlated: correlated.squareRoot(),
                        length: correlated > 0 ? length : 0)
                )
            }
        }
        return best?.model
    }

    /// The noise ``fitNoiseModel(_:)`` fitted, whether it follows the lags it was fitted on, and those lags with
    /// their s² (less the rounding's offset, as ``MeasuredElevations/variance(_:)`` gives them).
    struct NoiseFit {
        var model: NoiseModel
        var followsLags: Bool
        var lags: [Double]
        var variances: [Double]
    }

    /// Whether noise that the walk up the lags took as white is slow noise whose start a white part hid: slow noise
    /// grows past the first lag only slowly at first (its s² as the lag, while the lag is short against its
    /// correlation length), and where a white part is as large as that growth, the walk stops on the white level. GPS
    /// noise of 3.7 m correlated over 124 m plus 0.6 m white, in whole metres every 9.7–10.9 m, grew by 3–8 % from
    /// the first lag to the next and then on as slow noise does: read as 1.2 m of white noise, the ascent came out
    /// +43 … +75 %. It is slow where the joint fit follows its lags (``NoiseFit/followsLags``), over four lags or
    /// more spanning at least two doublings, and finds:
    /// - at least ``slowNoiseModelMeters`` of correlated noise, correlated over longer than four first lags;
    /// - that part's s² at the longest lag at least twice the white part's (in metres, √2 times): 6 m hills every
    ///   500 m under 3 m of white noise read as 5.3 m correlated over 550 m, whose part at the longest lag only
    ///   matched the white part, and lost all the ascent;
    /// - s² above the white part growing no faster than noise can (``noiseGrowthLimit`` per doubled lag) from the
    ///   first lag where it reaches half the white part's to the longest lag, at least a doubling on: terrain whose
    ///   roughness grows with the scale as slow noise's does grows faster (fractal relief as the lag to the 2H, 2.6
    ///   times per doubling for H = 0.7, where white GPS noise on it was read as slow and lost half the ascent).
    func slowNoiseBehindWhite(_ fit: NoiseFit) -> Bool {
        let (model, lags) = (fit.model, fit.lags)
        guard fit.followsLags, lags.count >= 4, case let (first, last) = (lags[0], lags[lags.count - 1]),
            last >= 4 * first, model.correlated >= slowNoiseModelMeters, model.length > 4 * first
        else { return false }
        let whiteVariance = model.white * model.white
        return model.correlatedVariance(atLag: last) >= 2 * whiteVariance
            && growsAsNoise(fit, above: whiteVariance)
    }

    /// Whether s² in `fit` above the white part's `whiteVariance` grows no faster than noise can
    /// (``noiseGrowthLimit`` per doubled lag) from the first lag where it reaches half the white part's to the longest
    /// lag, at least a doubling on.
    func growsAsNoise(_ fit: NoiseFit, above whiteVariance: Double) -> Bool {
        let (lags, variances) = (fit.lags, fit.variances)
        guard let last = lags.last,
            let onset = variances.firstIndex(where: { $0 - whiteVariance >= whiteVariance / 2 }),
            last >= 2 * lags[onset], case let rise = variances[variances.count - 1] - whiteVariance, rise > 0
        else { return false }
        return rise / (variances[onset] - whiteVariance) <= noiseGrowthLimit.power(log2(last / lags[onset]))
    }

    /// Slow noise behind noise the walk took as white, where the lags show it but the fit does not take it as slow
    /// (``slowNoiseBehindWhite(_:)`` asks more, and so does noise that grew past the first lag): the noise model
    /// refitted with correlation lengths no longer than the longest lag, so that its level is the one the lags reach
    /// rather than one extrapolated past them. Taken where the original fit follows its lags (``NoiseFit/followsLags``,
    /// four lags or more), the refitted model has a correlated part over longer than four first lags (as
    /// ``slowNoiseBehindWhite(_:)`` asks: a barometer in half metres every 4–6 m on dense hills was read as 0.59 m over
    /// 14 m and lost 3.5 %), whose variance at the longest lag is at least its white part's, and s² above the white
    /// part grows as noise's can (see ``growsAsNoise(_:above:)``); not held to ``slowNoiseModelMeters``, since the
    /// noise would otherwise be white. GPS noise of 1.3 m correlated over 110 m plus 0.55 m white, every 1–2 m on
    /// Gaussian hills of 15–41 m over 0.7–2.5 km (`scripts/ascent-eval`'s draw 2, s49), grows past the white part from
    /// about 16 m on, but by the 45–64 m where the hills show, its correlated part's variance at the longest lag is
    /// 1.2–1.5 times the white part's, not twice: taken as white (0.59 m), +40.3 %. On the same noise over raised
    /// cosines (the unit test's), 27 of 40 tracks were so read (+27 … +82 %); 17 of them are now seen slow within the
    /// lags (0.9–1.2 m in all): −1.4 … +10.5 %. Nil where it is not so.
    func slowNoiseWithinLags(_ fit: NoiseFit) -> NoiseModel? {
        guard fit.followsLags, fit.lags.count >= 4, let first = fit.lags.first, let last = fit.lags.last,
            let model = bestNoiseModel(lags: fit.lags, variances: fit.variances, lengthsPerLongestLag: 1),
            model.length > 4 * first,
            model.correlatedVariance(atLag: last) >= model.white * model.white,
            growsAsNoise(fit, above: model.white * model.white)
        else { return nil }
        return model
    }

    /// Whether the level `level` the walk up the lags stopped at holds over the lags of the joint fit after the first,
    /// up to ``plateauFirstLags`` times the first lag and ``plateauLeastLags`` of them at least: s² between 1/r and r
    /// times the level at each, r being ``noisePlateauRatio``. Noise the walk takes as white whose s² at the first lag
    /// is at least half the level but under 0.9 of it (``Noise/halfAtFirstLag``) is then white (unless the lags show
    /// slow noise behind it: see ``slowNoiseWithinLags(_:)``): on 1,500 fixes the
    /// ratio of s² at two lags scatters by about 9 %, and white noise alone falls under 0.9 of the level on about one
    /// track in eight, where slow noise grows on over the lags after the first. White GPS noise of 6 m every 9–11 m on
    /// hills of 6–21 m over 340–870 m, so read as 5.6 m white and 7.8 m correlated over 640 m (the terrain's growth
    /// from 160 m on, the longest correlation length the fit allows), was smoothed over 226 m: −80 %.
    func whitePlateauHolds(_ fit: NoiseFit, level: Double) -> Bool {
        guard let first = fit.lags.first else { return false }
        let after = zip(fit.lags, fit.variances).dropFirst().filter { $0.0 <= Self.plateauFirstLags * first * 1.001 }
        return after.count >= Self.plateauLeastLags
            && after.allSatisfy { $0.1 <= noisePlateauRatio * level && $0.1 * noisePlateauRatio >= level }
    }

    /// The longest lag, in first lags, over which ``whitePlateauHolds(_:level:)`` follows the level.
    static let plateauFirstLags = 8.0

    /// The fewest lags after the first on which ``whitePlateauHolds(_:level:)`` sees the level hold.
    static let plateauLeastLags = 4

    /// Whether s² grows faster than noise can (``noiseGrowthLimit`` per doubled lag) from the lag among `lags`
    /// nearest 1/`since` of `to`'s (when shorter than 0.8 of it) to `to`.
    func growsTooFast(
        to scale: (lag: Double, variance: Double), since: Double, _ lags: [Double], _ variances: [Double]
    ) -> Bool {
        let target = scale.lag / since
        guard let j = lags.indices.min(by: { abs(log(lags[$0] / target)) < abs(log(lags[$1] / target)) }),
            lags[j] < 0.8 * scale.lag
        else { return false }
        return scale.variance / variances[j] > noiseGrowthLimit.power(log2(scale.lag / lags[j]))
    }

    /// The variance of a chord residual at lag h (scaled as for white noise) of unit exponentially correlated
    /// noise with correlation length L, as a function of a = h/L: g(a) = (1.5 − 2e⁻ᵃ + 0.5e⁻²ᵃ)/1.5.
    static func chordResponse(_ a: Double) -> Double {
        (1.5 - 2 * (-a).exponential + 0.5 * (-2 * a).exponential) / 1.5
    }

    /// The least-squares solution of rows·c ≈ target with every coefficient at least 0, and its squared
    /// error: the best over the subsets of the columns whose unconstrained solution is non-negative (few
    /// columns: each subset solved by Gaussian elimination of its normal equations).
    static func nonNegativeLeastSquares(
        _ rows: [[Double]], _ target: [Double]
    ) -> (coefficients: [Double], error: Double)? {
        guard let k = rows.first?.count, k > 0 else { return nil }
        var best: (coefficients: [Double], error: Double)? = nil
        for mask in 1..<(1 << k) {
            let columns = (0..<k).filter { mask & (1 << $0) != 0 }
            let m = columns.count
            // Normal equations [AᵀA | Aᵀb] for the chosen columns.
            var a = [[Double]](repeating: [Double](repeating: 0, count: m + 1), count: m)
            for (row, b) in zip(rows, target) {
                for (r, i) in columns.enumerated() {
                    for (c, j) in columns.enumerated() { a[r][c] += row[i] * row[j] }
                    a[r][m] += row[i] * b
                }
            }
            var solvable = true
            for col in 0..<m {
                guard let pivot = (col..<m).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }),
                    abs(a[pivot][col]) > 1e-12 * max(abs(a[col][col]), 1e-300)
                else {
                    solvable = false
                    break
                }
                a.swapAt(col, pivot)
                for r in 0..<m where r != col {
                    let f = a[r][col] / a[col][col]
                    for c in col...m { a[r][c] -= f * a[col][c] }
                }
            }
            guard solvable else { continue }
            var coefficients = [Double](repeating: 0, count: k)
            for (r, i) in columns.enumerated() { coefficients[i] = a[r][m] / a[r][r] }
            guard coefficients.allSatisfy({ $0 >= 0 }) else { continue }
            var error = 0.0
            for (row, b) in zip(rows, target) {
                var d = -b
                for i in 0..<k { d += row[i] * coefficients[i] }
                error += d * d
            }
            if best == nil || error < best!.error { best = (coefficients, error) }
        }
        return best
    }

    /// The bandwidth of least estimated risk under noise of `model` (see
    /// ``riskMinimizingBandwidth(_:model:runs:upTo:)``) up to ``longHillSmoothingMeters`` where the turning points that
    /// smoother shows (past ``whiteThresholdPerNoise`` times the noise it leaves, the line's ends among them) lie at
    /// least ``longHillTurnsPerBandwidth`` bandwidths apart in the median (the upper one of an even count; the line's
    /// length where it shows fewer than two), and otherwise up to ``maximumSmoothingMeters``; with the noise that
    /// smoother leaves (the risk's own estimate, for white noise; `left` gives it where the noise is not white, for the
    /// gate's threshold too) and the profile smoothed at the wider bandwidth where it is taken (nil otherwise). Noise
    /// shrinks only slowly under a wider smoother where it is slow or strong, and on a few low hills kilometres long,
    /// 150 m left so much of it that its own swings on the long flat stretches were counted: GPS noise of 2.5 m
    /// correlated over 50 m plus 0.9 m white, in whole metres every 5–5.7 m, on hills of 6.7–24 m over 6.5–15 km, had a
    /// median absolute error of 23 % (worst 43 %), and 12 % (worst 41 %) where 172–487 m are taken; white noise of
    /// 6.7 m on one or two cones of 2.4–8.8 m over 8–15 km, 55 % (worst 87 %), and 10.5 % (worst 58 %) at about 550 m.
    /// A raised cosine of wavelength λ keeps (1 + x)·e^(−x) of its height under bandwidth b, x = 2π²b²/λ²: turning
    /// points 8 bandwidths apart (λ = 16 b) keep 99.7 %. On hills closer than that the wider smoother takes more than
    /// it gives: cones 25–90 m high over 0.7–1.5 km went from −11 to −17 % in the median at 213 m, their turning points
    /// 4–6 bandwidths apart.
    func longHillBandwidth(
        _ series: ElevationSeries, model: NoiseModel, left: ((Double) -> Double)? = nil
    ) -> (bandwidth: Double, left: Double, smoothed: [Double]?) {
        let walk = leastRiskBandwidths(series, model: model, upTo: max(longHillSmoothingMeters, maximumSmoothingMeters))
        // The noise a bandwidth leaves: `left`'s, or the walk's own estimate of it.
        func leaves(_ choice: (Double, Double)) -> Double { left?(choice.0) ?? choice.1 }
        let wide = walk.least.0
        let wideLeft = leaves(walk.least)
        guard wide > maximumSmoothingMeters else { return (wide, wideLeft, nil) }
        let smoothed = Self.smooth(series, bandwidth: wide)
        let turns = Self.extremes(smoothed, threshold: whiteThresholdPerNoise * wideLeft)
        let x = series.distances
        var gaps = zip(turns.dropFirst(), turns).map { x[$0] - x[$1] }.sorted()
        if gaps.isEmpty { gaps = [x[x.count - 1] - x[0]] }
        if gaps[gaps.count / 2] >= longHillTurnsPerBandwidth * wide { return (wide, wideLeft, smoothed) }
        return (walk.withinMaximum.0, leaves(walk.withinMaximum), nil)
    }

    /// The bandwidth, among the mean fix spacing times powers of √2 up to `maximum` (by default
    /// ``maximumSmoothingMeters``), whose
    /// smoother has the least estimated risk (Stein's unbiased estimate of the mean squared error against
    /// the terrain, for noise of covariance Σ: mean squared residual − tr Σ/n + 2 tr(HΣ)/n; for white noise
    /// of σ𝑤 that is − σ𝑤² + 2σ𝑤²·mean hat weight), with the noise that smoother leaves if white. For white
    /// noise no smoothing (bandwidth 0, risk σ𝑤², leaving σ𝑤) is a candidate too. The walk up the bandwidths
    /// stops once the risk has grown twice in a row. The risk is counted on `runs` of fixes (by default
    /// ``evenRuns(_:)``).
    func riskMinimizingBandwidth(
        _ series: ElevationSeries, model: NoiseModel, runs: [Range<Int>]? = nil, upTo maximum: Double? = nil
    ) -> (Double, Double) {
        leastRiskBandwidths(series, model: model, runs: runs, upTo: maximum).least
    }

    /// The walk of ``riskMinimizingBandwidth(_:model:runs:upTo:)``: the bandwidth of least risk among all it tried,
    /// and among those up to ``maximumSmoothingMeters`` (what the walk stopped there gives), each with the white noise
    /// it leaves.
    func leastRiskBandwidths(
        _ series: ElevationSeries, model: NoiseModel, runs: [Range<Int>]? = nil, upTo maximum: Double? = nil
    ) -> (least: (Double, Double), withinMaximum: (Double, Double)) {
        let spacing = Self.meanSpacing(series, dropoutRatio: dropoutSpacingRatio)
        // For white noise, no smoothing is a candidate too: its risk is σ𝑤², and it leaves σ𝑤.
        let unsmoothed = model.correlated == 0 ? model.white * model.white : Double.infinity
        var best = (bandwidth: 0.0, risk: unsmoothed, residual: model.white)
        var within = best
        var rises = 0
        var previous = Double.infinity
        var bandwidth = spacing
        while bandwidth <= (maximum ?? maximumSmoothingMeters) && rises < 2 {
            let estimate = Self.smoothingRisk(series, bandwidth: bandwidth, model: model, runs: runs)
            if estimate.risk < best.risk { best = (bandwidth, estimate.risk, estimate.residual) }
            if bandwidth <= maximumSmoothingMeters && estimate.risk < within.risk {
                within = (bandwidth, estimate.risk, estimate.residual)
            }
            rises = estimate.risk > previous ? rises + 1 : 0
            previous = estimate.risk
            bandwidth *= 2.0.squareRoot()
        }
        return ((best.bandwidth, best.residual), (within.bandwidth, within.residual))
    }

    /// The fixes the smoother's risk is counted on by default: at most about 10,000 (10 evenly placed runs of
    /// 1,000 on long lines).
    static func evenRuns(_ series: ElevationSeries) -> [Range<Int>] {
        let n = series.count
        guard n > 10_000 else { return [0..<n] }
        return (0..<10).map { r in r * (n / 10)..<(r * (n / 10) + 1_000) }
    }

    /// The estimated risk of the smoother of `bandwidth` under noise of `model`, and the standard deviation
    /// of the white part of the noise it leaves (σ𝑤 times the root of the mean sum of squared weights),
    /// counted on `runs` of fixes (by default ``evenRuns(_:)``).
    static func smoothingRisk(
        _ series: ElevationSeries, bandwidth: Double, model: NoiseModel, runs: [Range<Int>]? = nil
    ) -> (risk: Double, residual: Double) {
        var squared = 0.0
        var hat = 0.0
        var weights = 0.0
        var shared = 0.0
        var count = 0
        for run in runs ?? evenRuns(series) {
            Self.fit(series, bandwidth: bandwidth, range: run, correlation: model.length) {
                i, value, own, norm, correlated in
                let d = series.elevations[i] - value
                squared += d * d
                hat += own
                weights += norm
                shared += correlated
                count += 1
            }
        }
        guard count > 0 else { return (.infinity, model.white) }
        let white = model.white * model.white
        let slow = model.correlated * model.correlated
        let m = Double(count)
        let risk = squared / m - white - slow + 2 * (white * hat + slow * shared) / m
        return (risk, model.white * (weights / m).squareRoot())
    }

    /// The standard deviation of the noise of `model` left by the smoother of `bandwidth`: the root of the
    /// mean over up to 64 evenly spread fixes of hᵀΣh, h the smoother's weights at the fix (the correlated
    /// part summed along the line in one pass, as e^(−d/L) factors over consecutive fixes).
    static func leftNoise(_ series: ElevationSeries, bandwidth: Double, model: NoiseModel) -> Double {
        let x = series.distances
        let n = x.count
        guard bandwidth > 0 else {
            return model.totalMeters
        }
        let samples = min(n, 64)
        var total = 0.0
        for k in 0..<samples {
            let i = samples == 1 ? n / 2 : k * (n - 1) / (samples - 1)
            var form = NoiseForm(model: model)
            Self.weights(series, bandwidth: bandwidth, at: i) { j, h in form.add(h, at: x[j]) }
            total += form.variance
        }
        return (total / Double(samples)).squareRoot()
    }

    /// hᵀΣh for weights h on fixes in order along the line and Σ the covariance of `model`: the correlated part summed
    /// in one pass, as e^(−d/L) factors over consecutive fixes.
    struct NoiseForm {
        let model: NoiseModel
        var squares = 0.0
        var cross = 0.0
        var carried = 0.0
        var previous: (x: Double, h: Double)? = nil

        init(model: NoiseModel) { self.model = model }

        /// Adds the weight `h` of the fix at `x` metres along the line, past the fixes added before.
        mutating func add(_ h: Double, at x: Double) {
            squares += h * h
            if let p = previous, model.length > 0 {
                carried = (-(x - p.x) / model.length).exponential * (carried + p.h)
                cross += h * carried
            }
            previous = (x, h)
        }

        var variance: Double {
            model.white * model.white * squares + model.correlated * model.correlated * (squares + 2 * cross)
        }
    }

    /// The bandwidth at which white noise smoothed by the local quadratic turns as often as the noise of `model`
    /// smoothed at `bandwidth`: by Rice's formula the rate of rising through a level goes with √(λ₂/λ₀), the ratio of
    /// the smoothed noise's slope variance to its own (55/54b² for white noise). Both are averaged over up to 64 evenly
    /// spread pairs of neighbouring fixes, the slope's as the variance of the difference of their smoothed values over
    /// the gap squared (summed over the pairs, each part apart: fixes a millimetre apart, as at a stop, where a fix
    /// entering the window moves the smoothed value by its weight whatever the gap, would otherwise outweigh the
    /// rest), on pairs three bandwidths or more from the line's ends where there are any. White noise comes
    /// out at 0.97 bandwidths (the window's cut at three bandwidths adds a little slope); slow noise smoothed turns
    /// less often than white noise at the same bandwidth (4 m correlated over 30 m with 0.5 m white, smoothed at 60 m,
    /// as white noise at 66 m). 0 where it cannot tell (fewer than two fixes, or fixes that do not move).
    static func equivalentBandwidth(_ series: ElevationSeries, bandwidth: Double, model: NoiseModel) -> Double {
        let x = series.distances
        let n = x.count
        guard n >= 2, bandwidth > 0 else { return 0 }
        // Pairs three bandwidths or more from the line's ends, where there are any: a fit at an end extrapolates, and
        // its slope swings far more than the line's.
        let reach = 3 * bandwidth
        var lower = x.firstIndex { $0 >= x[0] + reach } ?? n
        var upper = (x.lastIndex { $0 <= x[n - 1] - reach } ?? -1) - 1
        if lower > upper { (lower, upper) = (0, n - 2) }
        let samples = min(upper - lower + 1, 64)
        var level = 0.0
        var slope = 0.0
        var squaredGaps = 0.0
        var pairs = 0
        for k in 0..<samples {
            let i = lower + (samples == 1 ? (upper - lower) / 2 : k * (upper - lower) / (samples - 1))
            let gap = x[i + 1] - x[i]
            guard gap > 0 else { continue }
            var here: [(index: Int, weight: Double)] = []
            var next: [(index: Int, weight: Double)] = []
            var own = NoiseForm(model: model)
            Self.weights(series, bandwidth: bandwidth, at: i) { j, h in
                here.append((index: j, weight: h))
                own.add(h, at: x[j])
            }
            Self.weights(series, bandwidth: bandwidth, at: i + 1) { next.append((index: $0, weight: $1)) }
            // The two windows are runs of consecutive fixes: their difference, fix by fix in order.
            func weight(_ w: [(index: Int, weight: Double)], _ j: Int) -> Double {
                guard let start = w.first?.index, j >= start, j - start < w.count else { return 0 }
                return w[j - start].weight
            }
            var difference = NoiseForm(model: model)
            if let first = here.first?.index, let last = next.last?.index, first <= last {
                for j in first...last { difference.add(weight(next, j) - weight(here, j), at: x[j]) }
            }
            level += own.variance
            slope += difference.variance
            squaredGaps += gap * gap
            pairs += 1
        }
        guard pairs > 0, level > 0, slope > 0 else { return 0 }
        return (55.0 / 54 * level / Double(pairs) / (slope / squaredGaps)).squareRoot()
    }

    /// The robust spread of the residuals of the elevations from the chords through the fixes nearest
    /// `lag` metres before and after them, as the standard deviation of white noise that would give it;
    /// nil with too few chords.
    static func residualScale(_ series: ElevationSeries, lag: Double, dropouts: [Int]) -> Double? {
        guard var residuals = residuals(series, lag: lag, dropouts: dropouts)?.values else { return nil }
        return 1.4826 * medianAbsoluteDeviation(&residuals)
    }

    /// The absolute deviations of `values` from their median, as ``medianAbsoluteDeviation(_:)`` leaves them.
    static func absoluteDeviations(_ values: [Double]) -> [Double] {
        var deviations = values
        _ = medianAbsoluteDeviation(&deviations)
        return deviations
    }

    /// The median absolute deviation of `values` from their median; `values` are left as those deviations.
    static func medianAbsoluteDeviation(_ values: inout [Double]) -> Double {
        let center = median(values)
        for k in values.indices { values[k] = abs(values[k] - center) }
        return median(values)
    }

    /// Whether absolute deviations from the median (as ``medianAbsoluteDeviation(_:)`` leaves them) have tails
    /// heavier than a Gaussian's: the 90th percentile more than ``gaussianTolerance`` above 2.439 times the
    /// median, or the 99th more than one and a half times it above 3.819 times the median (|z| of a Gaussian).
    func heavyTails(_ deviations: [Double]) -> Bool {
        var deviations = deviations
        let half = Self.median(deviations)
        let tail90 = Self.select(&deviations, Int(0.9 * Double(deviations.count - 1)))
        let tail99 = Self.select(&deviations, Int(0.99 * Double(deviations.count - 1)))
        return tail90 > 2.439 * (1 + gaussianTolerance) * half || tail99 > 3.819 * (1 + 1.5 * gaussianTolerance) * half
    }

    /// The residuals of the elevations from the chords through the fixes nearest `lag` metres before and
    /// after them, each scaled to the standard deviation of white noise, and the chords' mean half-span
    /// (the lag they measure, which on evenly spaced fixes is a multiple of the spacing); nil with fewer
    /// than 30 chords. No chord crosses one of the `dropouts` (see ``dropouts(_:over:)``). At most about 100,000
    /// fixes are used (evenly spread) on long lines.
    static func residuals(
        _ series: ElevationSeries, lag: Double, dropouts: [Int]
    ) -> (values: [Double], lag: Double)? {
        let x = series.distances
        let e = series.elevations
        let n = x.count
        guard n >= 3, x[n - 1] - x[0] > 2 * lag else { return nil }
        let stride = max(1, n / 100_000)
        var spans = 0.0
        var residuals: [Double] = []
        residuals.reserveCapacity(n / stride + 1)
        var before = 0
        var after = 0
        var i = 0
        while i < n {
            defer { i += stride }
            let left = x[i] - lag
            let right = x[i] + lag
            guard left >= x[0], right <= x[n - 1] else { continue }
            // The fixes nearest `left` (before i) and `right` (after i).
            while before + 1 < i && x[before + 1] <= left { before += 1 }
            var j = before
            if j + 1 < i && x[j + 1] - left < left - x[j] { j += 1 }
            if after < i + 1 { after = i + 1 }
            while after + 1 < n && x[after] < right { after += 1 }
            var k = after
            if k - 1 > i && right - x[k - 1] < x[k] - right { k -= 1 }
            let span = x[k] - x[j]
            guard j < i, k > i, k < n, span > 0 else { continue }
            if !dropouts.isEmpty {
                // The first dropout after fix j: the chord crosses it when it comes at or before fix k.
                var lo = 0
                var hi = dropouts.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if dropouts[mid] <= j { lo = mid + 1 } else { hi = mid }
                }
                if lo < dropouts.count && dropouts[lo] <= k { continue }
            }
            let wj = (x[k] - x[i]) / span
            let wk = 1 - wj
            // For white noise σ the residual has σ·√(1 + wj² + wk²): scale it to σ.
            residuals.append((e[i] - wj * e[j] - wk * e[k]) / (1 + wj * wj + wk * wk).squareRoot())
            spans += span
        }
        return residuals.count >= 30 ? (residuals, spans / Double(2 * residuals.count)) : nil
    }

    /// The residuals of ``residuals(_:lag:dropouts:)`` of every copy (all at the same distances), pooled (the lag
    /// of the first).
    static func residuals(
        _ copies: [ElevationSeries], lag: Double, dropouts: [Int]
    ) -> (values: [Double], lag: Double)? {
        guard var pooled = residuals(copies[0], lag: lag, dropouts: dropouts) else { return nil }
        for copy in copies.dropFirst() {
            pooled.values += residuals(copy, lag: lag, dropouts: dropouts)?.values ?? []
        }
        return pooled
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
        var out = [Double](repeating: 0, count: series.count)
        fit(series, bandwidth: bandwidth, range: 0..<series.count, norms: false) { i, value, _, _, _ in
            out[i] = value
        }
        return out
    }

    /// The rows of the inverse of the weighted moment matrix [s0 s1 s2; s1 s2 s3; s2 s3 s4]: with the first
    /// (c0, c1, c2) the weight of elevation j in the fitted value is w_j (c0 + c1·u_j + c2·u_j²); the second and
    /// third give the local parabola's slope and curvature terms alike. Nil when the matrix is too near singular
    /// (then the fit is a weighted mean). Inlined, the rows a caller does not use are not computed.
    @inline(__always)
    static func inverseMoments(
        _ s0: Double, _ s1: Double, _ s2: Double, _ s3: Double, _ s4: Double
    ) -> ((Double, Double, Double), (Double, Double, Double), (Double, Double, Double))? {
        let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
        guard abs(det) > 1e-9 * max(s0 * s2 * s4, 1e-300) else { return nil }
        let (c01, c02, c12) = ((s3 * s2 - s1 * s4) / det, (s1 * s3 - s2 * s2) / det, (s1 * s2 - s0 * s3) / det)
        return (
            ((s2 * s4 - s3 * s3) / det, c01, c02), (c01, (s0 * s4 - s2 * s2) / det, c12),
            (c02, c12, (s0 * s2 - s1 * s1) / det)
        )
    }

    /// The local quadratic fit at each fix of `range` (its neighbours taken from the whole series): calls
    /// `body` with the index, the fitted value, the weight of the fix's own elevation in it (the hat
    /// matrix's diagonal), when `norms` the sum of the squared weights of all elevations in it, and when
    /// `correlation` > 0 the sum of the weights times e^(−d/correlation), d the distance to the fix (the
    /// row of HΣ on the diagonal for unit exponentially correlated noise).
    static func fit(
        _ series: ElevationSeries, bandwidth: Double, range: Range<Int>, norms: Bool = true,
        correlation: Double = 0, _ body: (Int, Double, Double, Double, Double) -> Void
    ) {
        let x = series.distances
        let e = series.elevations
        let n = x.count
        guard !range.isEmpty else { return }
        let reach = 3 * bandwidth
        let inverse = 1 / (2 * bandwidth * bandwidth)
        let decay = correlation > 0 ? 1 / correlation : 0
        var lo = range.lowerBound
        var hi = range.lowerBound
        while lo > 0 && x[range.lowerBound] - x[lo - 1] <= reach { lo -= 1 }
        for i in range {
            while x[i] - x[lo] > reach { lo += 1 }
            while hi + 1 < n && x[hi + 1] - x[i] <= reach { hi += 1 }
            // Weighted moments, in units of the bandwidth for conditioning, elevations relative to e[i];
            // q: the moments of the squared weights; r: of the weights times the noise's correlation.
            var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, t0 = 0.0, t1 = 0.0, t2 = 0.0
            var q0 = 0.0, q1 = 0.0, q2 = 0.0, q3 = 0.0, q4 = 0.0
            var r0 = 0.0, r1 = 0.0, r2 = 0.0
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
                if norms {
                    q0 += w * w
                    q1 += w * wu
                    q2 += w * wu2
                    q3 += wu2 * wu
                    q4 += wu2 * wu2
                }
                if decay > 0 {
                    let rho = (-abs(d) * decay).exponential
                    r0 += w * rho
                    r1 += wu * rho
                    r2 += wu2 * rho
                }
            }
            if hi - lo >= 3, let ((c0, c1, c2), _, _) = inverseMoments(s0, s1, s2, s3, s4) {
                let a = c0 * t0 + c1 * t1 + c2 * t2
                let norm =
                    norms
                    ? c0 * c0 * q0 + 2 * c0 * c1 * q1 + (c1 * c1 + 2 * c0 * c2) * q2 + 2 * c1 * c2 * q3 + c2 * c2 * q4
                    : 0
                body(i, e[i] + a, c0, norm, c0 * r0 + c1 * r1 + c2 * r2)
            } else {
                body(i, e[i] + t0 / s0, 1 / s0, norms ? q0 / (s0 * s0) : 0, r0 / s0)
            }
        }
    }

    /// The weights of the elevations in the local quadratic fit at fix `i`, in order along the line:
    /// calls `body` with each neighbour's index and weight.
    static func weights(_ series: ElevationSeries, bandwidth: Double, at i: Int, _ body: (Int, Double) -> Void) {
        let x = series.distances
        let inverse = 1 / (2 * bandwidth * bandwidth)
        let (window, s) = localMoments(x, at: i, bandwidth: bandwidth)
        let row = window.count >= 4 ? inverseMoments(s.0, s.1, s.2, s.3, s.4)?.0 : nil
        for j in window {
            let d = x[j] - x[i]
            let w = (-d * d * inverse).exponential
            guard let (c0, c1, c2) = row else {
                body(j, w / s.0)
                continue
            }
            let u = d / bandwidth
            body(j, w * (c0 + c1 * u + c2 * u * u))
        }
    }

    /// The fixes within three bandwidths of fix `i`, and the moments Σ w·uᵏ (k = 0…4) of their Gaussian weights w
    /// (σ = `bandwidth`), u the distance from fix `i` in bandwidths.
    static func localMoments(
        _ x: [Double], at i: Int, bandwidth: Double
    ) -> (window: ClosedRange<Int>, moments: (Double, Double, Double, Double, Double)) {
        let reach = 3 * bandwidth
        let inverse = 1 / (2 * bandwidth * bandwidth)
        var lo = i
        var hi = i
        while lo > 0 && x[i] - x[lo - 1] <= reach { lo -= 1 }
        while hi + 1 < x.count && x[hi + 1] - x[i] <= reach { hi += 1 }
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0
        for j in lo...hi {
            let d = x[j] - x[i]
            let w = (-d * d * inverse).exponential
            let u = d / bandwidth
            let wu2 = w * u * u
            s0 += w
            s1 += w * u
            s2 += wu2
            s3 += wu2 * u
            s4 += wu2 * u * u
        }
        return (lo...hi, (s0, s1, s2, s3, s4))
    }

    /// Sum of rises and falls larger than `threshold`, each counted whole from extreme to extreme (the last one
    /// whatever its size: the line ends there).
    package static func hysteresis(_ e: [Double], threshold: Double) -> (up: Double, down: Double) {
        risesAndFalls(extremes(e, threshold: threshold).map { e[$0] })
    }

    /// Sum of the rises and of the falls from each of `heights` to the next.
    static func risesAndFalls(_ heights: [Double]) -> (up: Double, down: Double) {
        var up = 0.0
        var down = 0.0
        for (a, b) in zip(heights, heights.dropFirst()) {
            up += max(0, b - a)
            down += max(0, a - b)
        }
        return (up, down)
    }
}

extension Double {
    /// e raised to this power.
    @inline(__always) var exponential: Double { Glibc.exp(self) }
    /// This number raised to the power `y`.
    @inline(__always) func power(_ y: Double) -> Double { Glibc.pow(self, y) }
}
