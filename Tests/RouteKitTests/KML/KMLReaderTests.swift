import Foundation
import Testing

@testable import RouteKit

/// Features of a KML file as text, one FeatureCollection, as `routekit convert` writes them.
func featureText(_ read: (@escaping (JSONValue, Int, Int) throws -> Void) throws -> Void) throws -> String {
    var buffer = ByteBuffer()
    buffer.append("{\"type\":\"FeatureCollection\",\"features\":[")
    var first = true
    try read { feature, _, _ in
        buffer.append(first ? "\n" : ",\n")
        first = false
        try feature.append(to: &buffer)
    }
    buffer.append("\n]}\n")
    return buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
}

/// Compares `text` with the golden file `name` in Fixtures; ROUTEKIT_UPDATE_GOLDEN=1 rewrites it.
func expectGolden(_ text: String, _ name: String) throws {
    let path = Fixture.path(name)
    if ProcessInfo.processInfo.environment["ROUTEKIT_UPDATE_GOLDEN"] == "1" {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
    #expect(text == (try String(contentsOfFile: path, encoding: .utf8)))
}

@Suite struct KMLReaderTests {
    static func document(_ bytes: [UInt8], warnings: inout [String]) throws -> GPXDocument {
        let builder = GPXDocumentBuilder()
        var heard: [String] = []
        try KMLReader { heard.append($0.description) }.read(InputFile(name: "x.kml", bytes: bytes), handler: builder)
        warnings = heard
        return builder.document
    }

    static func kml(_ body: String) -> [UInt8] {
        Array(
            ("<kml xmlns=\"http://www.opengis.net/kml/2.2\" xmlns:gx=\"http://www.google.com/kml/ext/2.2\">"
                + body + "</kml>").utf8)
    }

    @Test func readsPlacemarksStylesDataAndOverlaysInTogeojsonsShape() throws {
        let text = try featureText { body in
            try KMLReader().features(InputFile(path: Fixture.path("places.kml")), body: body)
        }
        try expectGolden(text, "places.kml.geojson")
        // What the golden file shows, spelled out.
        let features = try #require(
            JSONValue.read(InputFile(name: "x", bytes: Array(text.utf8)))["features"]?.elements)
        #expect(features.count == 8)
        let hut = features[0]["properties"] ?? .null
        #expect(features[0]["id"]?.string == "vrsic")
        #expect(hut["description"]?["@type"]?.string == "html")
        #expect(hut["beds"]?.number == 52 && hut["warden"]?.string == "Ana" && hut["open"] == .bool(true))
        #expect(hut["icon"]?.string == "https://example.org/hut.png" && hut["icon-color"]?.string == "#ffff00")
        #expect(features[1]["properties"]?["visibility"] == .bool(false))
        // A StyleMap, and a style defined after the Placemark that uses it.
        #expect(features[2]["properties"]?["stroke"]?.string == "#ff0000")
        #expect(features[5]["properties"]?["stroke"]?.string == "#00ff00")
        // The polygon's outer ring is closed; the ground overlay comes last, with its box.
        #expect(features[3]["geometry"]?["coordinates"]?.elements?[0].elements?.count == 5)
        #expect(features[7]["properties"]?["@geometry-type"]?.string == "groundoverlay")
        #expect(features[7]["bbox"] == .numbers([13.6, 46.3, 13.9, 46.5]))
    }

    @Test func readsLinesAsTracksAndPointsAsWaypoints() throws {
        var warnings: [String] = []
        let document = try Self.document(try Fixture.bytes("places.kml"), warnings: &warnings)
        #expect(document.tracks.map(\.name) == ["Trenta trail", "Pass and its road", "Morning ride"])
        #expect(document.tracks.map { $0.segments.map(\.points.count) } == [[4], [2, 2], [3, 3]])
        let ride = document.tracks[2]
        #expect(ride.segments[0].points[0].time == Timestamp("2026-07-04T06:00:00Z"))
        #expect(ride.segments[1].points[2].elevation == 853)
        #expect(document.waypoints.map(\.name) == ["Erjavčeva koča", "Hidden hut", "Pass and its road"])
        #expect(document.waypoints[0].time == Timestamp("2026-07-04T10:15:00+02:00"))
        #expect(document.waypoints[0].details.description == "<b>Open</b> June to September")
        // The tuple with a latitude that is no number, the lake, the feature without geometry, the overlay.
        #expect(warnings.count == 4, "\(warnings)")
        #expect(
            warnings[0] == "49:68: <coordinates> has a tuple that is not a position (the first: 'bad,46.1'); left out")
        #expect(warnings.contains { $0.contains("Polygon, which is no track, route or waypoint") })
    }

    /// A gx:Track and a LineString long enough to be held in a temporary file read back whole and in order,
    /// as GeoJSON and as a track with its times.
    @Test func aLongTrackIsReadWholeFromItsTemporaryFile() throws {
        let n = 70_000
        func lon(_ i: Int) -> String { "13.\(100_000 + i)" }
        let whens = (0..<n).map { "<when>2026-07-04T06:\(String(format: "%02d:%02d", $0 / 60 % 60, $0 % 60))Z</when>" }
        let coords = (0..<n).map { "<gx:coord>\(lon($0)) 46.5 \($0 % 900)</gx:coord>" }
        let line = (0..<n).map { "\(lon($0)),46.4,\($0 % 500)" }.joined(separator: " ")
        let bytes = Self.kml(
            "<Placemark><gx:Track>" + whens.joined() + coords.joined() + "</gx:Track></Placemark>"
                + "<Placemark><LineString><coordinates>" + line + "</coordinates></LineString></Placemark>")
        var features: [JSONValue] = []
        try KMLReader().features(InputFile(name: "x.kml", bytes: bytes)) { feature, _, _ in features.append(feature) }
        let track = try #require(features.first?["geometry"]?["coordinates"]?.elements)
        let times = try #require(features.first?["properties"]?["coordinateProperties"]?["times"]?.elements)
        #expect(track.count == n && times.count == n)
        #expect(track[n - 1] == .numbers([Double(lon(n - 1))!, 46.5, Double((n - 1) % 900)]))
        #expect(times[n - 1].string == "2026-07-04T06:\(String(format: "%02d:%02d", (n - 1) / 60 % 60, (n - 1) % 60))Z")
        let other = try #require(features.last?["geometry"]?["coordinates"]?.elements)
        #expect(other.count == n && other[12_345] == .numbers([Double(lon(12_345))!, 46.4, 345]))
        var warnings: [String] = []
        let document = try Self.document(bytes, warnings: &warnings)
        let points = document.tracks.flatMap { $0.segments.flatMap(\.points) }
        #expect(points.count == 2 * n && warnings.isEmpty)
        #expect(points[n - 1].time == Timestamp(times[n - 1].string!) && points[n - 1].elevation == 699)
    }

    /// Coordinates as real files write them: any white space (and commas) in a gx:coord, spaces after commas,
    /// several tuples in a Point, values too large for a double; what is no position is left out with a
    /// warning (with its time), and never written as a null.
    @Test func readsCoordinatesAsWrittenInTheWildAndWarnsAboutTheRest() throws {
        let bytes = Self.kml(
            """
            <Placemark><name>t</name><gx:Track><when>2026-07-04T06:00:00Z</when><when>2026-07-04T06:00:01Z</when>\
            <when>2026-07-04T06:00:02Z</when><when>2026-07-04T06:00:03Z</when><when>2026-07-04T06:00:04Z</when>\
            <gx:coord>7  45  100</gx:coord><gx:coord> 7.1\t45.001\n101 </gx:coord><gx:coord/>\
            <gx:coord>7.2,45.002,102</gx:coord><gx:coord>7.3 Infinity</gx:coord></gx:Track></Placemark>
            <Placemark><name>l</name><LineString><coordinates>1.5, 2.5, 10   3.5 ,4.5,1e400 no,no</coordinates>\
            </LineString></Placemark>
            <Placemark><name>p</name><Point><coordinates>1,2 3,4</coordinates></Point></Placemark>
            <Placemark><name>two</name><gx:Track><when>2026-07-04T07:00:00Z</when><when>2026-07-04T07:00:09Z</when>\
            <gx:coord>8 46</gx:coord><gx:coord>8.1 46.1</gx:coord></gx:Track></Placemark>
            """)
        var warnings: [ReadWarning] = []
        var features: [JSONValue] = []
        try KMLReader { warnings.append($0) }.features(InputFile(name: "x.kml", bytes: bytes)) { feature, _, _ in
            features.append(feature)
        }
        #expect(
            features[0]["geometry"]?["coordinates"]
                == .array([
                    .numbers([7, 45, 100]), .numbers([7.1, 45.001, 101]), .numbers([7.2, 45.002, 102]),
                ]))
        let times = features[0]["properties"]?["coordinateProperties"]?["times"]?.elements?.compactMap(\.string)
        #expect(times == ["2026-07-04T06:00:00Z", "2026-07-04T06:00:01Z", "2026-07-04T06:00:03Z"])
        #expect(features[1]["geometry"]?["coordinates"] == .array([.numbers([1.5, 2.5, 10]), .numbers([3.5, 4.5])]))
        #expect(features[2]["geometry"]?["coordinates"] == .numbers([1, 2]))
        // togeojson 7.1.2 makes a gx:Track of two positions a Point; the track model keeps it a line.
        #expect(features[3]["geometry"]?["type"]?.string == "Point")
        #expect(
            warnings.map(\.message) == [
                "<gx:coord></gx:coord> is not a position; left out with its time and sensor values",
                "<gx:coord>7.3 Infinity</gx:coord> is not a position; left out with its time and sensor values",
                "<coordinates> has a tuple that is not a position (the first: 'no,no'); left out",
            ])
        var heard: [String] = []
        let document = try Self.document(bytes, warnings: &heard)
        #expect(document.tracks.map(\.name) == ["t", "l", "two"])
        #expect(
            document.tracks[2].segments[0].points.map(\.time) == [
                Timestamp("2026-07-04T07:00:00Z"), Timestamp("2026-07-04T07:00:09Z"),
            ])
        #expect(throws: XMLFormatError.self) {
            try KMLReader(strict: true).read(InputFile(name: "x.kml", bytes: bytes), handler: GPXDocumentBuilder())
        }
    }

    /// In the track model every line of a MultiTrack keeps its own times and sensor values, also when only
    /// some tracks have them; a second array of a kind (`hr` after `heartrate`) is passed over.
    @Test func eachLineOfAMultiTrackKeepsItsOwnTimesAndSensors() throws {
        let bytes = Self.kml(
            """
            <Placemark><gx:MultiTrack><gx:Track><gx:coord>13 46 1</gx:coord><gx:coord>13.1 46 2</gx:coord>\
            <gx:coord>13.2 46 3</gx:coord></gx:Track><LineString><coordinates>14,46 14.1,46</coordinates></LineString>\
            <gx:Track><when>2026-07-04T06:00:00Z</when><when>2026-07-04T06:00:01Z</when><gx:coord>15 46 1</gx:coord>\
            <gx:coord>15.1 46 2</gx:coord><ExtendedData><SchemaData><gx:SimpleArrayData name="heartrate">\
            <gx:value>100</gx:value><gx:value>101</gx:value></gx:SimpleArrayData><gx:SimpleArrayData name="hr">\
            <gx:value>7</gx:value><gx:value>8</gx:value></gx:SimpleArrayData></SchemaData></ExtendedData>\
            </gx:Track></gx:MultiTrack></Placemark>
            """)
        var warnings: [String] = []
        let document = try Self.document(bytes, warnings: &warnings)
        let segments = try #require(document.tracks.first?.segments)
        #expect(segments.map(\.points.count) == [3, 2, 2])
        #expect(segments[0].points.allSatisfy { $0.time == nil } && segments[1].points.allSatisfy { $0.time == nil })
        #expect(
            segments[2].points.map(\.time) == [Timestamp("2026-07-04T06:00:00Z"), Timestamp("2026-07-04T06:00:01Z")])
        #expect(segments[2].points.map(\.sensors.heartRate) == [100, 101])
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test func strictMakesWhatGPXCannotHoldAnError() throws {
        let bytes = Self.kml(
            "<Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,0"
                + "</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>")
        #expect(throws: XMLFormatError.self) {
            try KMLReader(strict: true).read(InputFile(name: "x", bytes: bytes), handler: GPXDocumentBuilder())
        }
    }

    @Test func coordinatesAreReadAsTogeojsonReadsThem() throws {
        var warnings: [String] = []
        let document = try Self.document(
            Self.kml(
                "<Placemark><LineString><coordinates>\n 1,2,3,4\t5,6\n7 x,y 8,9e1,z </coordinates></LineString>"
                    + "</Placemark>"), warnings: &warnings)
        let points = document.tracks[0].segments[0].points
        #expect(points.map(\.coordinate.longitude) == [1, 5, 8])
        #expect(points.map(\.coordinate.latitude) == [2, 6, 90])
        #expect(points.map(\.elevation) == [3, nil, nil])
    }

    @Test func readsADocumentWithoutItsKMLRoot() throws {
        let bytes = Array(
            ("<Document xmlns=\"http://www.opengis.net/kml/2.2\"><Placemark><name>p</name>"
                + "<Point><coordinates>14,46</coordinates></Point></Placemark></Document>").utf8)
        let builder = GPXDocumentBuilder()
        try KMLReader().read(InputFile(name: "x", bytes: bytes), handler: builder)
        #expect(builder.document.waypoints.map(\.name) == ["p"])
    }

    @Test func refusesWhatIsNotKML() throws {
        let reader = KMLReader()
        #expect(throws: XMLFormatError.wrongRoot(line: 1, column: 5, format: "KML", expected: "kml", root: "gpx")) {
            try reader.read(InputFile(name: "x", bytes: Array("<gpx/>".utf8)), handler: GPXDocumentBuilder())
        }
        let cut = Array(Self.kml("<Placemark><name>cut").dropLast(6))
        #expect {
            try reader.read(InputFile(name: "x", bytes: cut), handler: GPXDocumentBuilder())
        } throws: {
            "\($0)".contains("the file ends inside <name>: is it truncated?")
        }
    }
}
