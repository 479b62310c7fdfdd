import Foundation
import RouteKit
import Testing

@Suite struct GPXWriterTests {
    /// Writes a document through the GPX writer and reads it back.
    func roundTrip(_ document: GPXDocument) throws -> (GPXDocument, String) {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.gpx").path
        let output = try OutputStream.create(path: path)
        let writer = GPXWriter(output: output)
        try writer.begin()
        try send(document, to: writer)
        try writer.finish()
        try output.commit()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return (try GPXReader(strict: true).document(at: path), text)
    }

    @Test func everyFieldSurvivesWritingAndReading() throws {
        for name in ["garmin-tpe.gpx", "routes-waypoints.gpx", "gpx10.gpx"] {
            var original = try GPXReader().document(bytes: Fixture.bytes(name))
            let (back, _) = try roundTrip(original)
            // Inherited texts are what togeojson shows; once written they are the item's own, so compare
            // the items' own fields.
            func own(_ d: inout GPXDocument) {
                for i in d.tracks.indices { d.tracks[i].details.inherited = InheritedText() }
                for i in d.routes.indices {
                    d.routes[i].details.inherited = InheritedText()
                    for j in d.routes[i].points.indices { d.routes[i].points[j].details.inherited = InheritedText() }
                }
                for i in d.waypoints.indices { d.waypoints[i].details.inherited = InheritedText() }
            }
            var copy = back
            own(&original)
            own(&copy)
            #expect(copy == original, "\(name)")
        }
    }

    @Test func writesValidGPX11InSchemaOrderAndEscapesText() throws {
        let document = GPXDocument(
            waypoints: [
                Waypoint(coordinate: Coordinate(latitude: 46, longitude: 14), details: Details(name: "A & B <C>"))
            ],
            tracks: [
                Track(
                    details: Details(name: "t"),
                    segments: [
                        TrackSegment(points: [
                            TrackPoint(
                                coordinate: Coordinate(latitude: 46.1, longitude: 14.1), elevation: 300.5,
                                sensors: SensorReadings(heartRate: 120, power: 250))
                        ])
                    ])
            ])
        let (back, text) = try roundTrip(document)
        #expect(back.waypoints.first?.name == "A & B <C>")
        #expect(text.contains("<name>A &amp; B &lt;C&gt;</name>"))
        #expect(text.contains("<gpxtpx:hr>120</gpxtpx:hr>"))
        #expect(text.contains("<pwr:PowerInWatts>250</pwr:PowerInWatts>"))
        let wpt = try #require(text.range(of: "<wpt"))
        let trk = try #require(text.range(of: "<trk>"))
        #expect(wpt.lowerBound < trk.lowerBound)
    }

    @Test(.requires(.xmllint)) func xmllintAcceptsTheWrittenGPX() throws {
        // libxml2's own command-line parser, outside RouteKit's reader, finds the output well-formed.
        let document = GPXDocument(
            waypoints: [
                Waypoint(coordinate: Coordinate(latitude: 46, longitude: 14), details: Details(name: "A & B <C> \"'"))
            ],
            tracks: [
                Track(
                    details: Details(name: "t"),
                    segments: [
                        TrackSegment(points: [
                            TrackPoint(
                                coordinate: Coordinate(latitude: 46.1, longitude: 14.1), elevation: 300.5,
                                sensors: SensorReadings(heartRate: 120, power: 250))
                        ])
                    ])
            ])
        let (_, text) = try roundTrip(document)
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Fixture.write(text.utf8Bytes, name: "w.gpx", in: folder)
        let lint = Process()
        lint.executableURL = URL(fileURLWithPath: try Tool.xmllint.requirePath())
        lint.arguments = ["--noout", "--nonet", path]
        let errors = Pipe()
        lint.standardError = errors
        try lint.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        lint.waitUntilExit()
        #expect(lint.terminationStatus == 0, "\(message)")
        #expect(message.isEmpty)
    }
}
