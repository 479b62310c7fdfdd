/// Computes ``TrackStatistics`` for each track of the GPX content streamed through it (and for each
/// route, kept apart, for files that hold planned routes only).
///
/// Lengths are geodesics on WGS84 (``Geodesic/stepDistance(from:to:)``), summed within segments. Ascent and descent use
/// ``method`` on each segment's elevations, measured when the line ends; where some of a segment's points kept
/// recorded elevations among exact ones (``recordedElevationKept()``), ``methodForRecordedElevations`` on those
/// stretches, each hung between the exact heights at its ends, and the whole segment counted in one pass (see
/// ``AscentMethod/shortestMeasuredRecordedMeters``). Elevation jumps (``ElevationJump``) and the elevations settling at
/// a recording's start (``ElevationSettling``) are taken out of each segment first, but for one whose recorded
/// stretches are hung between the exact heights (where they meet is no jump). Memory: three numbers and a position per
/// point of the current track with an elevation (four numbers where it has jumps, settling or several segments), and
/// the position in it of each point that kept a recorded elevation.
public final class StatisticsCollector: GPXHandler {
    /// The ascent method.
    public let method: AscentMethod
    /// The ascent method for the stretches of a line whose points kept their recorded elevations where the others
    /// took an elevation model's (``recordedElevationKept()``); nil: ``method`` for every point. With ``method`` for
    /// exact data (``AscentMethod/exact``), this is the one for recorded data, whose noise it measures.
    public var methodForRecordedElevations: AscentMethod?
    /// One summary per track, in file order.
    public private(set) var tracks: [TrackStatistics] = []
    /// One summary per route, in file order.
    public private(set) var routes: [TrackStatistics] = []
    /// The file's lines, as ``GPXDocument/lines()`` chooses them: the tracks when one has a point, else the
    /// routes.
    public var lines: [TrackStatistics] { tracks.contains { $0.points > 0 } || routes.isEmpty ? tracks : routes }
    /// The elevation series of each track and route, when ``keepSeries`` is set (for profiles).
    public private(set) var trackSeries: [ElevationSeries] = []
    public private(set) var routeSeries: [ElevationSeries] = []
    /// The smoothed elevations of each track and route, aligned with its series, when ``keepSeries`` is set: at the
    /// recorded levels, a line's elevation jumps and its segments' settling (``ElevationJump``, ``ElevationSettling``)
    /// kept as they were recorded.
    private(set) var trackSmoothed: [[Double]] = []
    private(set) var routeSmoothed: [[Double]] = []
    /// For each track, what was taken off each smoothed elevation for the elevations the ascent counts (its jumps, its
    /// segments' settling at their start, and the steps between one segment's end and the next one's start), when
    /// ``keepSeries`` is set; empty for a track with none.
    private(set) var trackCountedOffsets: [[Double]] = []
    /// Keep each line's elevation series for a profile.
    public var keepSeries = false

    private var current = TrackStatistics()
    private var series = ElevationSeries()
    /// Where each point of the series is, for the climbs' start and top.
    private var seriesCoordinates: [Coordinate] = []
    /// When each point of the series was recorded, seconds from the line's first timed fix (NaN for none), for the
    /// elevations settling at a recording's start (``ElevationSettling``).
    private var seriesSeconds: [Double] = []
    /// The time of the current line's first timed fix.
    private var lineFirstTime: Timestamp?
    /// A segment starting this long after the fix before it, seconds (or before it: recordings out of order), or a
    /// line's first, starts a recording (its elevations may settle: ``ElevationSettling``), unless it starts where the
    /// one before ended, in place and height; one after a shorter pause goes on with the receiver's level.
    static let recordingGapSeconds = 300.0
    /// A climb runs on across a segment break whose ends are at most this far apart, metres (a pause); a break
    /// further apart (recordings joined in one line, a stretch not recorded) ends it.
    static let pauseGapMeters = 100.0
    private var segmentStart = 0
    private var previous: TrackPoint?
    private var distance = 0.0
    private var pointsInSegment = 0
    // The current run of timed fixes (a segment's, restarted where time goes back): seconds since its first
    // fix, and distance, for speeds.
    private var times: [Double] = []
    private var timeDistances: [Double] = []
    private var runFirstTime: Timestamp?
    private var lastTime: Timestamp?
    private var smoothedParts: [Double] = []
    /// What is taken off each of `smoothedParts` for the elevations counted (``trackCountedOffsets``); nil while
    /// nothing is.
    private var countedOffsets: [Double]?
    /// Points of the longest part (segment) of the current line measured so far.
    private var longestPart = 0
    private var ascent = AscentDescent()
    private var hasElevation = false
    /// The current line's segments with elevations, as ranges of `series`, measured when the line ends.
    private var parts: [Range<Int>] = []
    /// The samples of `series` that kept recorded elevations among an elevation model's, ascending.
    private var recordedSamples: [Int] = []
    /// Whether the next point keeps its recorded elevation.
    private var nextKeepsRecorded = false

    public init(method: AscentMethod = .standard) {
        self.method = method
    }

    public func beginTrack() { startLine() }
    public func beginSegment() { startSegment() }
    public func trackPoint(_ point: TrackPoint) { add(point) }
    public func endSegment() { finishSegment() }
    public func recordedElevationKept() { nextKeepsRecorded = true }
    public func endTrack(_ details: Details) {
        tracks.append(finishLine(details))
        if keepSeries {
            trackSeries.append(series)
            trackSmoothed.append(smoothedParts)
            trackCountedOffsets.append(countedOffsets ?? [])
        }
    }

    public func beginRoute() {
        startLine()
        startSegment()
    }
    public func routePoint(_ point: Waypoint) {
        add(TrackPoint(coordinate: point.coordinate, elevation: point.elevation, time: point.time))
    }
    public func endRoute(_ details: Details) {
        finishSegment()
        routes.append(finishLine(details))
        if keepSeries {
            routeSeries.append(series)
            routeSmoothed.append(smoothedParts)
        }
    }

    // MARK: Accumulation

    private func startLine() {
        current = TrackStatistics()
        series = ElevationSeries()
        seriesCoordinates.removeAll(keepingCapacity: true)
        seriesSeconds.removeAll(keepingCapacity: true)
        lineFirstTime = nil
        distance = 0
        ascent = AscentDescent()
        hasElevation = false
        smoothedParts = []
        countedOffsets = nil
        longestPart = 0
        segmentMaxima = (nil, nil)
        parts.removeAll(keepingCapacity: true)
        recordedSamples.removeAll(keepingCapacity: true)
        nextKeepsRecorded = false
    }

    private func startSegment() {
        // A mark is said of the next point, never across a segment's start or end.
        nextKeepsRecorded = false
        previous = nil
        pointsInSegment = 0
        segmentStart = series.count
        times.removeAll(keepingCapacity: true)
        timeDistances.removeAll(keepingCapacity: true)
        runFirstTime = nil
        lastTime = nil
    }

    private var segmentMaxima: (climb: Double?, descent: Double?) = (nil, nil)

    private func add(_ point: TrackPoint) {
        current.points += 1
        pointsInSegment += 1
        if let c = current.bounds {
            var b = c
            b.include(point.coordinate)
            current.bounds = b
        } else {
            current.bounds = Bounds(point.coordinate)
        }
        if let p = previous {
            let step = Geodesic.wgs84.stepDistance(from: p.coordinate, to: point.coordinate)
            distance += step
            current.length2DMeters += step
            if let a = p.elevation, let b = point.elevation {
                current.length3DMeters += (step * step + (b - a) * (b - a)).squareRoot()
            } else {
                current.length3DMeters += step
            }
        }
        if let e = point.elevation {
            if nextKeepsRecorded { recordedSamples.append(series.count) }
            series.append(distance: distance, elevation: e)
            seriesCoordinates.append(point.coordinate)
            if let t = point.time, lineFirstTime == nil { lineFirstTime = t }
            seriesSeconds.append(point.time.flatMap { t in lineFirstTime.map { $0.seconds(to: t) } } ?? .nan)
            current.minElevationMeters = min(current.minElevationMeters ?? e, e)
            current.maxElevationMeters = max(current.maxElevationMeters ?? e, e)
        }
        if let t = point.time {
            if current.startTime.map({ t < $0 }) ?? true { current.startTime = t }
            if current.endTime.map({ t > $0 }) ?? true { current.endTime = t }
            addTime(t)
        }
        previous = point
        nextKeepsRecorded = false
    }

    /// Time-based values come only from steps forward in time: a step back (tracks stitched from recordings
    /// of different days) is counted, adds no time, and ends the run over which speeds are measured.
    private func addTime(_ t: Timestamp) {
        if let last = lastTime {
            let dt = last.seconds(to: t)
            current.timeSteps += 1
            if dt < 0 {
                current.backwardTimeSteps += 1
                current.largestBackwardStepSeconds = max(current.largestBackwardStepSeconds, -dt)
                finishSpeedRun()
            } else {
                current.durationSeconds = (current.durationSeconds ?? 0) + dt
                let step = distance - (timeDistances.last ?? distance)
                current.timedLengthMeters += step
                if dt > 0 && step / dt >= TrackStatistics.movingSpeedMetersPerSecond {
                    current.movingTimeSeconds = (current.movingTimeSeconds ?? 0) + dt
                }
            }
        } else {
            current.durationSeconds = current.durationSeconds ?? 0
        }
        let first = runFirstTime ?? t
        runFirstTime = first
        times.append(first.seconds(to: t))
        timeDistances.append(distance)
        lastTime = t
    }

    /// The highest speed of the run of timed fixes that ends here; a new run starts.
    private func finishSpeedRun() {
        if let top = maximumSpeed() {
            current.maxSpeedMetersPerSecond = max(current.maxSpeedMetersPerSecond ?? top, top)
        }
        times.removeAll(keepingCapacity: true)
        timeDistances.removeAll(keepingCapacity: true)
        runFirstTime = nil
    }

    private func finishSegment() {
        nextKeepsRecorded = false
        guard pointsInSegment > 0 else { return }
        current.segments += 1
        finishSpeedRun()
        if series.count > segmentStart { parts.append(segmentStart..<series.count) }
        previous = nil
    }

    /// Ascent, descent, smoothed elevations and grades of the current line's parts, with the method for their
    /// elevations.
    private func measureParts() {
        var nextRecorded = recordedSamples.startIndex
        // Where the elevations counted ended on the part before: each part's start there, so that a climb never takes
        // the step between the end of one segment and the start of the next (a pause's, next to none; between two
        // recordings joined in one line, whatever lies between them), as the ascent does not.
        var lastCounted: Double?
        // When the part before ended, for whether the next one starts a recording.
        var previousEnd: Double?
        for range in parts {
            let whole = ElevationSeries(
                distances: Array(series.distances[range]), elevations: Array(series.elevations[range]))
            hasElevation = true
            var recorded: [Int] = []
            while nextRecorded < recordedSamples.endIndex && recordedSamples[nextRecorded] < range.upperBound {
                recorded.append(recordedSamples[nextRecorded] - range.lowerBound)
                nextRecorded += 1
            }
            // Where recorded stretches are hung between an elevation model's heights, their offset from the model is
            // taken out there: a step where they meet is no jump.
            let mixed = methodForRecordedElevations != nil && !recorded.isEmpty
            let seconds = seriesSeconds[range]
            // A recording starts with the line, after a gap in time (or a step back: recordings out of order) and not
            // where the receiver picks up where it left off (the same place and height).
            var startsRecording = true
            if range.lowerBound > 0 {
                let gap = seconds.first.flatMap { first in previousEnd.map { first - $0 } }
                let pickedUp =
                    startsNearPreviousEnd(range)
                    && abs(series.elevations[range.lowerBound] - series.elevations[range.lowerBound - 1])
                        < method.elevationJumpMeters ?? 0
                startsRecording = (gap.map { $0 >= Self.recordingGapSeconds || $0 < 0 } ?? true) && !pickedUp
            }
            previousEnd = seconds.last(where: \.isFinite) ?? previousEnd
            let level =
                mixed
                ? LeveledElevations(series: whole, jumps: [], offsets: [])
                : method.leveled(whole, seconds: startsRecording ? Array(seconds) : [])
            let part = level.series
            let (result, smoothed) =
                if let recordedMethod = methodForRecordedElevations, mixed {
                    method.analyze(part, recorded: recorded, recordedMethod: recordedMethod)
                } else {
                    method.analyze(part)
                }
            ascent.ascentMeters += result.ascentMeters
            ascent.descentMeters += result.descentMeters
            ascent.elevationJumps += level.jumps
            if let settling = level.settling { ascent.elevationSettlings.append(settling) }
            // Report the parameters of the longest part.
            if part.count >= longestPart {
                longestPart = part.count
                ascent.noiseMeters = result.noiseMeters
                ascent.smoothingMeters = result.smoothingMeters
                ascent.thresholdMeters = result.thresholdMeters
            }
            // What the counted elevations of this part are moved by besides its own jumps and settling.
            let moved = lastCounted.flatMap { last in smoothed.first.map { $0 - last } } ?? 0
            if countedOffsets == nil && (!level.offsets.isEmpty || moved != 0) {
                countedOffsets = [Double](repeating: 0, count: smoothedParts.count)
            }
            let offsets = level.offsets.isEmpty ? [Double](repeating: 0, count: smoothed.count) : level.offsets
            countedOffsets? += offsets.map { $0 + moved }
            lastCounted = smoothed.last.map { $0 - moved } ?? lastCounted
            smoothedParts.append(contentsOf: level.recordedLevels(smoothed))
            grades(part.distances, smoothed)
        }
    }

    /// Whether the segment `part` of the series starts within ``pauseGapMeters`` of where the one before it ended (the
    /// parts abut in the series: segments without elevations have none).
    private func startsNearPreviousEnd(_ part: Range<Int>) -> Bool {
        part.lowerBound > 0
            && Geodesic.wgs84.stepDistance(
                from: seriesCoordinates[part.lowerBound - 1], to: seriesCoordinates[part.lowerBound])
                <= Self.pauseGapMeters
    }

    /// `smoothed` elevations at their recorded levels less `offsets` (``trackCountedOffsets``, empty for none): the
    /// elevations the ascent was counted on, run on across segment breaks.
    static func countedElevations(_ smoothed: [Double], _ offsets: [Double]) -> [Double] {
        guard offsets.count == smoothed.count else { return smoothed }
        return zip(smoothed, offsets).map { $0 - $1 }
    }

    /// Highest average speed over a stretch of at least the window, with two pointers.
    private func maximumSpeed() -> Double? {
        var best: Double?
        var j = 0
        for i in 0..<times.count {
            if j < i { j = i }
            while j < times.count && times[j] - times[i] < TrackStatistics.maximumSpeedWindowSeconds { j += 1 }
            guard j < times.count else { break }
            let speed = (timeDistances[j] - timeDistances[i]) / (times[j] - times[i])
            best = max(best ?? speed, speed)
        }
        return best
    }

    /// Steepest climb and descent over stretches of at least the grade window.
    private func grades(_ x: [Double], _ e: [Double]) {
        var j = 0
        for i in 0..<x.count {
            if j < i { j = i }
            while j < x.count && x[j] - x[i] < TrackStatistics.gradeWindowMeters { j += 1 }
            guard j < x.count else { break }
            let grade = (e[j] - e[i]) / (x[j] - x[i]) * 100
            segmentMaxima.climb = max(segmentMaxima.climb ?? grade, grade)
            segmentMaxima.descent = min(segmentMaxima.descent ?? grade, grade)
        }
    }

    private func finishLine(_ details: Details) -> TrackStatistics {
        measureParts()
        var result = current
        result.name = details.name ?? details.inherited.name.flatMap { $0.isEmpty ? nil : $0 }
        if hasElevation { result.ascent = ascent }
        if hasElevation && smoothedParts.count == series.count {
            let coordinates = seriesCoordinates
            let counted = Self.countedElevations(smoothedParts, countedOffsets ?? [])
            // A climb runs on across a pause, not from one recording to another: the line's runs of segments, each
            // starting where the one before ended.
            var runs: [Range<Int>] = []
            for part in parts {
                if let last = runs.last, startsNearPreviousEnd(part) {
                    runs[runs.count - 1] = last.lowerBound..<part.upperBound
                } else {
                    runs.append(part)
                }
            }
            result.climbs = runs.flatMap { run in
                Climb.find(
                    distances: Array(series.distances[run]), elevations: Array(counted[run]),
                    tops: Array(smoothedParts[run])
                ) { coordinates[run.lowerBound + $0] }
            }
        }
        result.checkTimes()
        if result.timeProblem == nil, let moving = result.movingTimeSeconds, moving > 0 {
            result.averageSpeedMetersPerSecond = result.timedLengthMeters / moving
        }
        result.steepestClimbPercent = segmentMaxima.climb.map { max($0, 0) }
        result.steepestDescentPercent = segmentMaxima.descent.map { min($0, 0) }
        return result
    }
}
