import Dispatch

/// Hands GPX content on to another handler on a second thread, so that reading (libxml2 and number
/// parsing) and writing (number formatting and output) run on two cores at once.
///
/// Track points travel in plain arrays (a `TrackPoint` holds no references, so a batch costs no
/// reference counting); everything else travels beside them, marked with its place among the points.
/// Memory stays bounded: at most ``batchesInFlight`` batches of ``batchSize`` points wait at any time, and
/// the reading thread waits when the writer falls behind. The target's first error stops the reading (the
/// next call here throws it) and comes out of ``finish()``.
package final class GPXPipeline: GPXHandler, @unchecked Sendable {
    private enum Control {
        case waypoint(Waypoint)
        case beginRoute
        /// A route point, and whether it keeps its recorded elevation (``GPXHandler/recordedElevationKept()``).
        case routePoint(Waypoint, keepsRecorded: Bool)
        case endRoute(Details)
        case beginTrack
        case beginSegment
        case endSegment
        case endTrack(Details)
    }

    private struct Batch {
        var points: [TrackPoint] = []
        /// Each control event with the number of points that come before it in this batch.
        var controls: [(before: Int, event: Control)] = []
        /// The track points (indices in ``points``) that keep recorded elevations, ascending: one number each,
        /// where an event would cost a track off its elevation model one per point.
        var recorded: [Int] = []
    }

    /// Track points per batch.
    package let batchSize = 8192
    /// Batches that may wait for the writing thread.
    package let batchesInFlight = 4

    private let target: GPXHandler
    private let queue = DispatchQueue(label: "routekit.gpx-pipeline")
    private let slots: DispatchSemaphore
    private let lock = DispatchSemaphore(value: 1)
    private var batch = Batch()
    private var failure: Error?
    /// Whether the next point keeps its recorded elevation (``recordedElevationKept()``).
    private var nextKeepsRecorded = false

    /// A pipeline into `target`; all of `target`'s methods run on the pipeline's thread.
    package init(into target: GPXHandler) {
        self.target = target
        slots = DispatchSemaphore(value: batchesInFlight)
        batch.points.reserveCapacity(batchSize)
    }

    private func control(_ event: Control) throws {
        // Said of a point, and of no other event.
        nextKeepsRecorded = false
        batch.controls.append((batch.points.count, event))
        if batch.controls.count >= batchSize { try send() }
    }

    private func send() throws {
        if let error = currentFailure() { throw error }
        guard !batch.points.isEmpty || !batch.controls.isEmpty else { return }
        let work = batch
        batch = Batch()
        batch.points.reserveCapacity(batchSize)
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard currentFailure() == nil else { return }
            do {
                try deliver(work)
            } catch {
                lock.wait()
                if failure == nil { failure = error }
                lock.signal()
            }
        }
    }

    private func deliver(_ work: Batch) throws {
        var next = 0
        var kept = 0
        func deliverPoint() throws {
            if kept < work.recorded.count && work.recorded[kept] == next {
                try target.recordedElevationKept()
                kept += 1
            }
            try target.trackPoint(work.points[next])
            next += 1
        }
        for (before, event) in work.controls {
            while next < before { try deliverPoint() }
            switch event {
            case .waypoint(let w): try target.waypoint(w)
            case .beginRoute: try target.beginRoute()
            case .routePoint(let p, let keepsRecorded):
                if keepsRecorded { try target.recordedElevationKept() }
                try target.routePoint(p)
            case .endRoute(let d): try target.endRoute(d)
            case .beginTrack: try target.beginTrack()
            case .beginSegment: try target.beginSegment()
            case .endSegment: try target.endSegment()
            case .endTrack(let d): try target.endTrack(d)
            }
        }
        while next < work.points.count { try deliverPoint() }
    }

    private func currentFailure() -> Error? {
        lock.wait()
        defer { lock.signal() }
        return failure
    }

    /// Hands on what is left and waits until the target has taken everything.
    ///
    /// - Throws: the target's first error.
    package func finish() throws {
        try? send()  // send throws only a failure the target already recorded: it is thrown below
        queue.sync {}
        if let error = currentFailure() { throw error }
    }

    package func trackPoint(_ point: TrackPoint) throws {
        if nextKeepsRecorded {
            batch.recorded.append(batch.points.count)
            nextKeepsRecorded = false
        }
        batch.points.append(point)
        if batch.points.count >= batchSize { try send() }
    }

    package func waypoint(_ waypoint: Waypoint) throws { try control(.waypoint(waypoint)) }
    package func beginRoute() throws { try control(.beginRoute) }
    package func routePoint(_ point: Waypoint) throws {
        try control(.routePoint(point, keepsRecorded: nextKeepsRecorded))
    }
    package func endRoute(_ details: Details) throws { try control(.endRoute(details)) }
    package func beginTrack() throws { try control(.beginTrack) }
    package func beginSegment() throws { try control(.beginSegment) }
    package func endSegment() throws { try control(.endSegment) }
    package func endTrack(_ details: Details) throws { try control(.endTrack(details)) }
    package func recordedElevationKept() throws { nextKeepsRecorded = true }
}
