import Glibc

/// Elevation against distance along a track, as riders read it: the distance runs on across segment
/// breaks (without counting the gap), the elevations are smoothed as for the ascent, and every sample has
/// the grade of the road around it.
public struct ElevationProfile: Sendable {
    /// One sample of the profile.
    public struct Sample: Hashable, Sendable {
        /// Distance from the start in metres.
        public var distanceMeters: Double
        /// Elevation as recorded, metres.
        public var elevationMeters: Double
        /// Elevation as the ascent counts it, metres, at the recorded level (the line's elevation jumps and its
        /// segments' settling at their start, which the ascent leaves out, kept as they were recorded:
        /// ``ElevationJump``, ``ElevationSettling``): after the method's smoothing; on a line partly on an
        /// elevation model, a recorded stretch's smoothed elevations shifted to meet the model's at its ends (or the
        /// model's at a line's end shifted to meet it, where they run less than
        /// ``AscentMethod/shortestMeasuredRecordedMeters``), or bridged straight between the model's where the stretch
        /// is too short to measure.
        public var smoothedElevationMeters: Double
        /// Grade in percent over ``ElevationProfile/gradeWindowMeters`` centred on the sample (positive up).
        public var gradePercent: Double
    }

    /// The track's name.
    public var name: String?
    /// The samples, by distance.
    public var samples: [Sample]
    /// The track's numbers (length, ascent, …), computed with the same method.
    public var statistics: TrackStatistics
    /// A point of the track with its distance along it.
    public struct Position: Hashable, Sendable {
        /// Distance from the start in metres (segment gaps not counted).
        public var distanceMeters: Double
        /// Where the point is.
        public var coordinate: Coordinate
    }

    /// The distance along the track of each point, with its position, for placing waypoints.
    public var positions: [Position]
    /// The index in ``positions`` where each segment starts.
    public var segmentStarts: [Int]
    /// The smoothed elevation of each sample as the ascent counts it: less the track's elevation jumps
    /// (``ElevationJump``) and its segments' settling (``ElevationSettling``), and running on across segment breaks;
    /// empty where that is nothing, and the samples' smoothed elevations are these.
    private(set) var countedElevations: [Double] = []

    /// The stretch over which a sample's grade is taken, metres.
    public static let gradeWindowMeters = 100.0

    /// The profile of `track` with `method`'s smoothing. `recorded` are the points (positions among the track's
    /// points counted across its segments, ascending) that kept recorded elevations where the others took an
    /// elevation model's (as ``ElevationModel/apply(to:mode:tally:)`` returns them): `recordedMethod` measures
    /// those stretches, and `method` the others. Without `recordedMethod`, `recorded` is not used: `method` measures
    /// every point.
    public init(
        track: Track, method: AscentMethod = .standard, recorded: [Int] = [], recordedMethod: AscentMethod? = nil
    ) {
        let collector = StatisticsCollector(method: method)
        collector.keepSeries = true
        collector.methodForRecordedElevations = recordedMethod
        collector.measure(track, recorded: recorded)
        // Each point's distance along the track: running on across segment breaks, the gap not counted.
        var positions: [Position] = []
        var segmentStarts: [Int] = []
        var distance = 0.0
        for segment in track.segments where !segment.points.isEmpty {
            segmentStarts.append(positions.count)
            var previous: Coordinate?
            for point in segment.points {
                if let previous { distance += Geodesic.wgs84.stepDistance(from: previous, to: point.coordinate) }
                positions.append(Position(distanceMeters: distance, coordinate: point.coordinate))
                previous = point.coordinate
            }
        }
        self.name = track.name
        self.statistics = collector.tracks[0]
        self.positions = positions
        self.segmentStarts = segmentStarts
        let series = collector.trackSeries[0]
        let smoothed = collector.trackSmoothed[0]
        // The elevations the ascent counts, for the grades: without the line's jumps, settling and segment steps.
        let counted = StatisticsCollector.countedElevations(smoothed, collector.trackCountedOffsets[0])
        var samples: [Sample] = []
        samples.reserveCapacity(series.count)
        for i in 0..<series.count {
            samples.append(
                Sample(
                    distanceMeters: series.distances[i], elevationMeters: series.elevations[i],
                    smoothedElevationMeters: i < smoothed.count ? smoothed[i] : series.elevations[i], gradePercent: 0))
        }
        // Grades from the smoothed elevations half a window either side (clamped at the ends), jumps not counted.
        let levels = counted.count == samples.count ? counted : samples.map(\.smoothedElevationMeters)
        var lo = 0
        var hi = 0
        let half = Self.gradeWindowMeters / 2
        for i in samples.indices {
            let x = samples[i].distanceMeters
            while samples[lo].distanceMeters < x - half { lo += 1 }
            while hi + 1 < samples.count && samples[hi].distanceMeters < x + half { hi += 1 }
            let run = samples[hi].distanceMeters - samples[lo].distanceMeters
            if run > 0 { samples[i].gradePercent = (levels[hi] - levels[lo]) / run * 100 }
        }
        self.samples = samples
        if !collector.trackCountedOffsets[0].isEmpty && levels.count == samples.count { countedElevations = levels }
    }

    /// At most `count` samples that draw the same line at that resolution: Largest-Triangle-Three-Buckets
    /// downsampling (each bucket keeps the sample that makes the largest triangle with its neighbours, so
    /// peaks and dips stay), with the highest and lowest samples always kept.
    public func downsampled(to count: Int) -> [Sample] {
        let n = samples.count
        guard count >= 3, n > count else { return samples }
        // n > count ≥ 3: there are samples.
        let highest =
            samples.indices.max { samples[$0].smoothedElevationMeters < samples[$1].smoothedElevationMeters } ?? 0
        let lowest =
            samples.indices.min { samples[$0].smoothedElevationMeters < samples[$1].smoothedElevationMeters } ?? 0
        var chosen = [0]
        let bucketSize = Double(n - 2) / Double(count - 2)
        var a = 0
        for bucket in 0..<(count - 2) {
            let start = Int(Double(bucket) * bucketSize) + 1
            let end = min(Int(Double(bucket + 1) * bucketSize) + 1, n - 1)
            let nextStart = end
            let nextEnd = min(Int(Double(bucket + 2) * bucketSize) + 1, n)
            var avgX = 0.0
            var avgY = 0.0
            for k in nextStart..<max(nextEnd, nextStart + 1) where k < n {
                avgX += samples[k].distanceMeters
                avgY += samples[k].smoothedElevationMeters
            }
            let span = Double(max(nextEnd - nextStart, 1))
            avgX /= span
            avgY /= span
            var best = start
            var bestArea = -1.0
            if (start..<end).contains(highest) {
                best = highest
            } else if (start..<end).contains(lowest) {
                best = lowest
            } else {
                for k in start..<max(end, start + 1) where k < n {
                    let ax = samples[a].distanceMeters
                    let ay = samples[a].smoothedElevationMeters
                    let area = abs(
                        (ax - avgX) * (samples[k].smoothedElevationMeters - ay)
                            - (ax - samples[k].distanceMeters) * (avgY - ay))
                    if area > bestArea {
                        bestArea = area
                        best = k
                    }
                }
            }
            chosen.append(best)
            a = best
        }
        chosen.append(n - 1)
        return chosen.map { samples[$0] }
    }

    /// The track's corridor, its segments kept apart, so that it places positions at the profile's distances.
    public func corridor() -> TrackCorridor {
        TrackCorridor(points: positions.map(\.coordinate), segmentStarts: segmentStarts)
    }

    /// Places `coordinate` on the track: its nearest track position, through ``TrackCorridor``; nil for a
    /// profile without positions. For many waypoints, build one ``corridor()`` and ask it.
    public func place(_ coordinate: Coordinate) -> Placement? {
        guard !positions.isEmpty else { return nil }
        let match = corridor().place(coordinate)
        return Placement(index: 0, line: 0, alongMeters: match.alongMeters, offTrackMeters: match.distanceMeters)
    }

    /// The smoothed elevation at a distance, interpolated; nil for an empty profile.
    public func elevation(atDistance distance: Double) -> Double? {
        interpolated(atDistance: distance) { samples[$0].smoothedElevationMeters }
    }

    /// The elevation the ascent counts at a distance, interpolated: the smoothed elevation less the track's elevation
    /// jumps and its segments' settling (``ElevationJump``, ``ElevationSettling``), run on across segment breaks, for
    /// grades; nil for an empty profile.
    func countedElevation(atDistance distance: Double) -> Double? {
        guard countedElevations.count == samples.count else { return elevation(atDistance: distance) }
        return interpolated(atDistance: distance) { countedElevations[$0] }
    }

    /// `value` of the samples at a distance, interpolated between the samples either side (the first or last
    /// sample's beyond the ends); nil for an empty profile.
    private func interpolated(atDistance distance: Double, _ value: (Int) -> Double) -> Double? {
        guard let first = samples.first else { return nil }
        if distance <= first.distanceMeters { return value(0) }
        var lo = 0
        var hi = samples.count - 1
        if distance >= samples[hi].distanceMeters { return value(hi) }
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if samples[mid].distanceMeters <= distance { lo = mid } else { hi = mid }
        }
        let span = samples[hi].distanceMeters - samples[lo].distanceMeters
        let t = span > 0 ? (distance - samples[lo].distanceMeters) / span : 0
        return value(lo) + t * (value(hi) - value(lo))
    }
}
