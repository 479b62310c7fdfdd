import Foundation
import Testing

@testable import RouteKit

@Suite struct KMLWriterTests {
    /// Writes a document through the KML writer into `folder`; returns the file's path.
    static func write(_ document: GPXDocument, to folder: URL, precision: Int? = nil) throws -> String {
        let path = folder.appendingPathComponent("out.kml").path
        let output = try OutputStream.create(path: path)
        let writer = KMLWriter(output: output, precision: precision)
        try writer.begin()
        try send(document, to: writer)
        try writer.finish()
        try output.commit()
        return path
    }

    static let timed = GPXDocument(tracks: [
        Track(
            details: Details(name: "Ride <1>"),
            segments: [
                TrackSegment(points: [
                    TrackPoint(
                        coordinate: Coordinate(latitude: 46.1, longitude: 13.1), elevation: 500,
                        time: Timestamp("2026-07-04T06:00:00Z")),
                    TrackPoint(
                        coordinate: Coordinate(latitude: 46.2, longitude: 13.2), elevation: 510.5,
                        time: Timestamp("2026-07-04T06:00:01.5+02:00")),
                    TrackPoint(
                        coordinate: Coordinate(latitude: 46.25, longitude: 13.25), elevation: 515,
                        time: Timestamp("2026-07-04T06:00:05Z")),
                ]),
                TrackSegment(points: [
                    TrackPoint(
                        coordinate: Coordinate(latitude: 46.3, longitude: 13.3), elevation: 520,
                        time: Timestamp("2026-07-04T06:10:00Z")),
                    TrackPoint(
                        coordinate: Coordinate(latitude: 46.4, longitude: 13.4), elevation: 530,
                        time: Timestamp("2026-07-04T06:10:10Z")),
                    TrackPoint(
                        coordinate: Coordinate(latitude: 46.45, longitude: 13.45), elevation: 540,
                        time: Timestamp("2026-07-04T06:10:20Z")),
                ]),
            ])
    ])

    /// Heart rate, cadence and power go into a gx:Track's arrays (a kind first met later is empty before),
    /// and come back from them into the points.
    @Test func sensorValuesRideInTheTracksArraysAndComeBack() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var document = Self.timed
        document.tracks[0].segments[0].points[0].sensors = SensorReadings(heartRate: 120, cadence: 80)
        document.tracks[0].segments[0].points[2].sensors = SensorReadings(heartRate: 124.5, power: 210)
        document.tracks[0].segments[1].points[1].sensors = SensorReadings(speed: 8.25)
        let path = try Self.write(document, to: folder)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#"<gx:SimpleArrayField name="heartrate" type="float"/>"#))
        #expect(
            text.contains(
                ##"<ExtendedData><SchemaData schemaUrl="#sensors"><gx:SimpleArrayData name="heartrate">"##
                    + "<gx:value>120</gx:value><gx:value/><gx:value>124.5</gx:value></gx:SimpleArrayData>"))
        #expect(text.contains(#"<gx:SimpleArrayData name="power"><gx:value/><gx:value/><gx:value>210</gx:value>"#))
        #expect(text.contains(#"<gx:SimpleArrayData name="speed"><gx:value/><gx:value>8.25</gx:value><gx:value/>"#))
        let builder = GPXDocumentBuilder()
        try KMLReader(strict: true).read(InputFile(path: path), handler: builder)
        #expect(builder.document.tracks == document.tracks)
        var features: [JSONValue] = []
        try KMLReader().features(InputFile(path: path)) { feature, _, _ in features.append(feature) }
        let per = features.first?["properties"]?["coordinateProperties"]
        #expect(per?["heart"] == .array([.array([.number(120), .null, .number(124.5)]), .array([])]))
        #expect(per?["speeds"] == .array([.array([]), .array([.null, .number(8.25), .null])]))
    }

    /// Arrays as other writers name them (Google Earth's `heartrate`, `Cadence`, `watts`), inside the track.
    @Test func readsSensorArraysAsOtherWritersNameThem() throws {
        let kml = KMLReaderTests.kml(
            """
            <Placemark><gx:Track><when>2026-07-04T06:00:00Z</when><when>2026-07-04T06:00:01Z</when>\
            <when>2026-07-04T06:00:02Z</when><gx:coord>13 46 500</gx:coord><gx:coord>13.1 46 501</gx:coord>\
            <gx:coord>13.2 46 502</gx:coord><ExtendedData><SchemaData schemaUrl="#s">\
            <gx:SimpleArrayData name="heartrate"><gx:value>101</gx:value><gx:value></gx:value><gx:value>103\
            </gx:value></gx:SimpleArrayData><gx:SimpleArrayData name="Cadence"><gx:value>90</gx:value>\
            </gx:SimpleArrayData><gx:SimpleArrayData name="watts"><gx:value>x</gx:value><gx:value>250</gx:value>\
            <gx:value>251</gx:value></gx:SimpleArrayData><gx:SimpleArrayData name="slope"><gx:value>3</gx:value>\
            </gx:SimpleArrayData></SchemaData></ExtendedData></gx:Track></Placemark>
            """)
        var warnings: [String] = []
        let document = try KMLReaderTests.document(kml, warnings: &warnings)
        let points = try #require(document.tracks.first?.segments.first?.points)
        #expect(
            points.map(\.sensors) == [
                SensorReadings(heartRate: 101, cadence: 90), SensorReadings(power: 250),
                SensorReadings(heartRate: 103, power: 251),
            ])
        #expect(warnings.isEmpty)
    }

    @Test func tracksWithTimesAreGxTracksAndComeBackWithTheirTimes() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.write(Self.timed, to: folder)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("<name>Ride &lt;1&gt;</name><styleUrl>#track</styleUrl><gx:MultiTrack><gx:Track>"))
        #expect(text.contains("<when>2026-07-04T06:00:01.5+02:00</when>"))
        #expect(text.contains("<gx:coord>13.2 46.2 510.5</gx:coord>"))
        let builder = GPXDocumentBuilder()
        try KMLReader(strict: true).read(InputFile(path: path), handler: builder)
        #expect(builder.document.tracks == Self.timed.tracks)
    }

    @Test func everyFixtureComesBackWithItsPositions() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["garmin-tpe.gpx", "routes-waypoints.gpx", "gpx10.gpx"] {
            let original = try GPXReader().document(bytes: Fixture.bytes(name))
            let path = try Self.write(original, to: folder)
            let builder = GPXDocumentBuilder()
            try KMLReader().read(InputFile(path: path), handler: builder)
            let back = builder.document
            // KML has lines, not routes and tracks: routes come back as tracks, after them in the file.
            let lines =
                (original.routes.filter { $0.points.count >= 2 }.map { $0.points.map(\.coordinate) }
                + original.tracks.map {
                    $0.segments.filter { $0.points.count >= 2 }.flatMap(\.points).map(\.coordinate)
                })
                .filter { !$0.isEmpty }
            #expect(back.tracks.map { $0.segments.flatMap(\.points).map(\.coordinate) } == lines, "\(name)")
            #expect(back.waypoints.map(\.coordinate) == original.waypoints.map(\.coordinate), "\(name)")
            #expect(back.waypoints.map(\.name) == original.waypoints.map(\.name), "\(name)")
            #expect(back.waypoints.map(\.time) == original.waypoints.map(\.time), "\(name)")
        }
    }

    @Test func aTwoPointTrackIsALineString() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var document = Self.timed
        document.tracks[0].segments[1].points.removeLast()
        let text = try String(contentsOfFile: Self.write(document, to: folder), encoding: .utf8)
        #expect(!text.contains("gx:Track") && text.contains("<MultiGeometry>"))
    }

    @Test func linesWithoutTimesAreLineStringsAndLonePointsAreLeftOut() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var document = Self.timed
        document.tracks[0].segments[1].points[0].time = nil
        document.tracks[0].segments.append(TrackSegment(points: [document.tracks[0].segments[0].points[0]]))
        let text = try String(contentsOfFile: Self.write(document, to: folder, precision: 0), encoding: .utf8)
        #expect(
            text.contains(
                "<MultiGeometry><LineString><coordinates>13,46,500 13,46,511 13,46,515</coordinates></LineString>"))
        #expect(!text.contains("gx:Track"))
        #expect(text.components(separatedBy: "<LineString>").count == 3)
    }

    /// GDAL's KML driver (or LIBKML, whichever ogr2ogr picks) reads the file to the same coordinates.
    @Test(.requires(.ogr2ogr)) func gdalReadsItBackToTheSameCoordinates() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var document = try GPXReader().document(bytes: Fixture.bytes("routes-waypoints.gpx"))
        document.tracks += Self.timed.tracks
        let path = try Self.write(document, to: folder)
        let json = folder.appendingPathComponent("gdal.geojson").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Tool.ogr2ogr.requirePath())
        process.arguments = ["-f", "GeoJSON", "-lco", "COORDINATE_PRECISION=15", json, path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let features = try #require(JSONValue.read(path: json)["features"]?.elements)
        func positions(_ geometry: JSONValue?) -> [[Double]] {
            guard let coordinates = geometry?["coordinates"] else { return [] }
            if case .numbers(let p) = coordinates { return [p] }
            return (coordinates.elements ?? []).flatMap { value -> [[Double]] in
                if case .numbers(let p) = value { return [p] }
                return (value.elements ?? []).compactMap { if case .numbers(let p) = $0 { p } else { nil } }
            }
        }
        let got = features.map { positions($0["geometry"]) }
        func expected(_ c: Coordinate, _ e: Double?) -> [Double] { [c.longitude, c.latitude] + (e.map { [$0] } ?? []) }
        let want =
            document.waypoints.map { [expected($0.coordinate, $0.elevation)] }
            + document.routes.filter { $0.points.count >= 2 }.map {
                $0.points.map { expected($0.coordinate, $0.elevation) }
            }
            + document.tracks.map {
                $0.segments.filter { $0.points.count >= 2 }.flatMap(\.points).map {
                    expected($0.coordinate, $0.elevation)
                }
            }.filter { !$0.isEmpty }
        try #require(got.count == want.count, "\(got)")
        for (g, w) in zip(got, want) {
            try #require(g.count == w.count, "\(g) \(w)")
            for (a, b) in zip(g, w) {
                // GDAL gives a 2D position of a 3D line a 0 elevation: compare what the point has.
                #expect(zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 }, "\(a) \(b)")
            }
        }
    }
}
