import Foundation
import RouteKit
import Testing

@Suite struct GeoJSONReaderTests {
    func read(_ text: String, strict: Bool = false) throws -> (GPXDocument, [ReadWarning]) {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Fixture.write(text.utf8Bytes, name: "in.geojson", in: folder)
        var warnings: [ReadWarning] = []
        let builder = GPXDocumentBuilder()
        try GeoJSONReader(strict: strict) { warnings.append($0) }.read(InputFile(path: path), handler: builder)
        return (builder.document, warnings)
    }

    @Test func readsLinesPointsAndTheirPerPointValues() throws {
        let text = """
            {"type": "FeatureCollection", "name": "x", "features": [
              {"type": "Feature", "geometry": {"type": "MultiLineString", \
            "coordinates": [[[14, 46, 300], [14.1, 46.1]], [[15, 47], [15.1, 47.1, 5]]]},
               "properties": {"name": "T", "desc": "d", "number": 3, "links": [{"href": "h", "text": "t"}],
                 "coordinateProperties": {"times": [["2026-01-01T00:00:00Z", null], \
            [null, "2026-01-01T01:00:00.5+01:00"]],
                   "heart": [[100, 101], [null, 103]], "powers": [[null, null], [200, 210]]}}},
              {"properties": {"_gpxType": "rte", "name": "R"}, "type": "Feature",
               "geometry": {"coordinates": [[1, 2], [3, 4]], "type": "LineString"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [14.5, 46.05, 295]},
               "properties": {"name": "Ljubljana", "time": "2026-07-04T10:15:00+02:00", "sym": "City", "cmt": "c"}}
            ]}
            """
        let (document, warnings) = try read(text)
        #expect(warnings.isEmpty)
        let track = try #require(document.tracks.first)
        #expect(track.name == "T")
        #expect(track.details.description == "d")
        #expect(track.details.number == 3)
        #expect(track.details.links == [Link(href: "h", text: "t")])
        #expect(track.segments.map(\.points.count) == [2, 2])
        #expect(track.segments[0].points[0].elevation == 300)
        #expect(track.segments[0].points[1].elevation == nil)
        #expect(track.segments[0].points[0].time?.description == "2026-01-01T00:00:00Z")
        #expect(track.segments[1].points[1].time?.description == "2026-01-01T01:00:00.5+01:00")
        #expect(track.segments[1].points[1].sensors == SensorReadings(heartRate: 103, power: 210))
        #expect(document.routes.map(\.name) == ["R"])
        #expect(
            document.routes[0].points.map(\.coordinate) == [
                Coordinate(latitude: 2, longitude: 1), Coordinate(latitude: 4, longitude: 3),
            ])
        let point = try #require(document.waypoints.first)
        #expect(point.name == "Ljubljana")
        #expect(point.details.symbol == "City")
        #expect(point.details.comment == "c")
        #expect(point.time?.utcOffsetMinutes == 120)
    }

    @Test func readsASingleFeatureABareGeometryAndTextSequences() throws {
        #expect(
            try read(#"{"type":"Feature","properties":null,"geometry":{"type":"Point","coordinates":[1,2]}}"#).0
                .waypoints.count == 1)
        #expect(try read(#"{"type":"LineString","coordinates":[[1,2],[3,4]]}"#).0.tracks.count == 1)
        let sequence =
            "\u{1E}{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},\"properties\":{}}\n"
            + "\u{1E}{\"type\":\"Feature\",\"geometry\":{\"type\":\"MultiPoint\",\"coordinates\":[[1,2],[3,4]]},"
            + "\"properties\":{}}\n"
        #expect(try read(sequence).0.waypoints.count == 3)
        let lines =
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},\"properties\":{}}\n"
            + "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[3,4]},\"properties\":{}}\n"
        #expect(try read(lines).0.waypoints.map(\.coordinate.longitude) == [1, 3])
    }

    @Test func leavesOutWhatGPXCannotHoldWithAWarning() throws {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},
            {"type":"Feature","properties":{},"geometry":null},
            {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[200,95]}},
            {"type":"Feature","properties":{"time":"yesterday"},"geometry":{"type":"Point","coordinates":[1,2]}}]}
            """
        let (document, warnings) = try read(text)
        #expect(document.waypoints.count == 1)
        #expect(document.waypoints[0].time == nil)
        #expect(warnings.map(\.line) == [2, 3, 4, 5])
        #expect(warnings[0].message == "feature 1 is a Polygon, which is no track, route or waypoint; left out")
        #expect(warnings[1].message == "feature 2 has no geometry; left out")
        #expect(warnings[2].message.contains("out of range"))
        #expect(throws: GeoJSONError.self) { try read(text, strict: true) }
    }

    @Test(arguments: [
        ("", "not GeoJSON: the file is empty"),
        ("[1, 2]", "1:1: not GeoJSON: expected an object at the top"),
        (
            "{\"type\": \"FeatureCollection\", \"features\": [",
            "1:44: not valid JSON: the file ends early (expected a value): is it truncated?"
        ),
        (
            "{\"type\": \"Feature\",\n \"geometry\": {\"type\": \"Point\", \"coordinates\": [1, NaN]}}",
            "2:51: not valid JSON: expected a value, found 'N'"
        ),
        ("{\"a\": \"\\x\"}", "not valid JSON: invalid escape '\\x'"),
        ("{\"a\": 1,}", "not valid JSON: expected a string, found '}'"),
        ("{\"features\": []}", "not GeoJSON: the object has no \"type\""),
    ])
    func reportsBrokenInputWithLineAndColumn(text: String, message: String) throws {
        do {
            _ = try read(text)
            Issue.record("no error for \(text)")
        } catch let error as GeoJSONError {
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test func refusesNestingDeeperThanItsLimit() throws {
        let deep = "{\"type\":\"Feature\",\"properties\":" + String(repeating: "[", count: 100_000) + "}"
        #expect(throws: GeoJSONError.self) { try read(deep) }
    }

    @Test func readsEscapesAndUnicode() throws {
        let text =
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"#
            + #""properties":{"name":"Vr\u0161i\u010d \"pass\" \ud83d\udeb2 \/ \\"}}"#
        #expect(try read(text).0.waypoints.first?.name == "Vršič \"pass\" 🚲 / \\")
    }
}
