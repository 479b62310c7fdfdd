import RouteKit
import Testing

@Suite struct GPXPipelineTests {
    /// Records what arrives, in order.
    final class Recorder: GPXHandler, @unchecked Sendable {
        var log: [String] = []
        var failAfter: Int?
        struct Stop: Error, Equatable {}
        func beginTrack() { log.append("trk") }
        func beginSegment() { log.append("seg") }
        func trackPoint(_ point: TrackPoint) throws {
            log.append("\(point.coordinate.latitude)")
            if let failAfter, log.count >= failAfter { throw Stop() }
        }
        func endSegment() { log.append("/seg") }
        func endTrack(_ details: Details) { log.append("/trk \(details.name ?? "")") }
        func waypoint(_ waypoint: Waypoint) { log.append("wpt \(waypoint.name ?? "")") }
        func beginRoute() { log.append("rte") }
        func routePoint(_ point: Waypoint) { log.append("r\(point.coordinate.latitude)") }
        func endRoute(_ details: Details) { log.append("/rte") }
        func recordedElevationKept() { log.append("kept") }
    }

    func document(points: Int) -> [UInt8] {
        var gpx = "<gpx><wpt lat=\"1\" lon=\"1\"><name>a</name></wpt><trk><name>t</name><trkseg>"
        for i in 0..<points { gpx += "<trkpt lat=\"\(Double(i) * 1e-4)\" lon=\"0\"/>" }
        gpx +=
            "</trkseg><trkseg><trkpt lat=\"-1\" lon=\"0\"/></trkseg></trk>"
            + "<wpt lat=\"2\" lon=\"2\"><name>b</name></wpt></gpx>"
        return Array(gpx.utf8)
    }

    @Test func deliversEverythingInOrderAcrossBatches() throws {
        let direct = Recorder()
        try GPXReader().read(bytes: document(points: 20_000), handler: direct)
        let recorder = Recorder()
        let pipeline = GPXPipeline(into: recorder)
        try GPXReader().read(bytes: document(points: 20_000), handler: pipeline)
        try pipeline.finish()
        #expect(recorder.log == direct.log)
        #expect(recorder.log.count == 20_000 + 9)
    }

    @Test func theRecordedElevationsKeptReachEachTheirPoint() throws {
        // Every third track point keeps its recorded elevation; every odd route point, among more route points
        // than a batch holds events; one mark with no point after it, which the segment's end drops.
        func feed(_ handler: GPXHandler) throws {
            try handler.beginTrack()
            try handler.beginSegment()
            for i in 0..<20_000 {
                if i % 3 == 0 { try handler.recordedElevationKept() }
                try handler.trackPoint(TrackPoint(coordinate: Coordinate(latitude: Double(i) * 1e-4, longitude: 0)))
            }
            try handler.recordedElevationKept()
            try handler.endSegment()
            try handler.endTrack(Details())
            try handler.beginRoute()
            for i in 0..<10_000 {
                if i % 2 == 1 { try handler.recordedElevationKept() }
                try handler.routePoint(Waypoint(coordinate: Coordinate(latitude: Double(i) * 1e-4, longitude: 1)))
            }
            try handler.endRoute(Details())
        }
        let direct = Recorder()
        try feed(direct)
        let recorder = Recorder()
        let pipeline = GPXPipeline(into: recorder)
        try feed(pipeline)
        try pipeline.finish()
        // The mark with no point after it goes; everything else arrives as sent.
        let sent = direct.log.indices.filter { !(direct.log[$0] == "kept" && direct.log[$0 + 1] == "/seg") }
        let same = recorder.log == sent.map { direct.log[$0] }
        #expect(same)
        #expect(recorder.log.filter { $0 == "kept" }.count == 6_667 + 5_000)
    }

    @Test func theTargetsErrorStopsTheReadingAndComesOut() throws {
        let recorder = Recorder()
        recorder.failAfter = 10_000
        let pipeline = GPXPipeline(into: recorder)
        #expect(throws: Recorder.Stop.self) {
            do {
                try GPXReader().read(bytes: document(points: 200_000), handler: pipeline)
            } catch {
                try? pipeline.finish()
                throw error
            }
            try pipeline.finish()
        }
        #expect(recorder.log.count == 10_000)
    }
}
