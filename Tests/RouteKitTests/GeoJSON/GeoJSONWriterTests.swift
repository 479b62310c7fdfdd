import Foundation
import RouteKit
import Testing

@Suite struct GeoJSONWriterTests {
    /// Golden pairs: Fixtures/NAME.gpx converts to exactly Fixtures/NAME.geojson. Set
    /// ROUTEKIT_UPDATE_GOLDEN=1 to rewrite them after a deliberate change (and review the diff).
    @Test(arguments: ["garmin-tpe", "routes-waypoints", "gpx10", "bad-values"])
    func matchesTheGoldenFile(name: String) throws {
        let (text, _) = try convertToGeoJSON(Fixture.bytes("\(name).gpx"))
        let golden = Fixture.folder.appendingPathComponent("\(name).geojson")
        if ProcessInfo.processInfo.environment["ROUTEKIT_UPDATE_GOLDEN"] == "1" {
            try text.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(text == (try String(contentsOf: golden, encoding: .utf8)))
    }

    @Test func outputIsValidJSONWithTheTogeojsonStructure() throws {
        let (text, warnings) = try convertToGeoJSON(Fixture.bytes("garmin-tpe.gpx"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["type"] as? String == "FeatureCollection")
        let features = try #require(json["features"] as? [[String: Any]])
        #expect(features.count == 1)
        let geometry = try #require(features[0]["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "MultiLineString")
        let properties = try #require(features[0]["properties"] as? [String: Any])
        let perPoint = try #require(properties["coordinateProperties"] as? [String: Any])
        let times = try #require(perPoint["times"] as? [[Any]])
        let coordinates = try #require(geometry["coordinates"] as? [[[Double]]])
        #expect(times.map(\.count) == coordinates.map(\.count))
        #expect(
            warnings == [
                "track 'Vršič loop': 1 segment of a single point left out, since a GeoJSON line needs two positions"
            ])
    }

    @Test func writesTextSequencesWithRecordSeparators() throws {
        let (text, _) = try convertToGeoJSON(Fixture.bytes("routes-waypoints.gpx"), layout: .textSequence)
        let records = text.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(records.count == 3)
        for record in records {
            #expect(record.first == "\u{1E}")
            let object = try JSONSerialization.jsonObject(with: Data(record.dropFirst().utf8)) as? [String: Any]
            #expect(object?["type"] as? String == "Feature")
        }
        let (lines, _) = try convertToGeoJSON(Fixture.bytes("routes-waypoints.gpx"), layout: .lineDelimited)
        #expect(!lines.contains("\u{1E}"))
        #expect(lines.split(separator: "\n").count == 3)
    }

    @Test func roundsWithAPrecisionAndKeepsOnlyTheKindsAsked() throws {
        let (text, _) = try convertToGeoJSON(Fixture.bytes("garmin-tpe.gpx"), precision: 5)
        #expect(text.contains("[13.7857,46.48561,810.4]"))
        let (waypoints, _) = try convertToGeoJSON(Fixture.bytes("routes-waypoints.gpx"), kinds: .waypoints)
        #expect(!waypoints.contains("\"rte\""))
        #expect(waypoints.contains("KT 1.1 Vršič"))
    }

    @Test func ordersTracksThenRoutesThenWaypoints() throws {
        let gpx = """
            <gpx><wpt lat="1" lon="1"><name>w</name></wpt>
            <rte><name>r</name><rtept lat="1" lon="1"/><rtept lat="2" lon="2"/></rte>
            <trk><name>t</name><trkseg><trkpt lat="1" lon="1"/><trkpt lat="2" lon="2"/></trkseg></trk></gpx>
            """
        let (text, _) = try convertToGeoJSON(gpx.utf8Bytes)
        let t = try #require(text.range(of: "\"t\""))
        let r = try #require(text.range(of: "\"r\""))
        let w = try #require(text.range(of: "\"w\""))
        #expect(t.lowerBound < r.lowerBound && r.lowerBound < w.lowerBound)
    }

    @Test func escapesStringsForJSON() throws {
        let gpx = "<gpx><wpt lat=\"1\" lon=\"1\"><name>quote \" backslash \\ tab \t ☃</name></wpt></gpx>"
        let (text, _) = try convertToGeoJSON(gpx.utf8Bytes)
        #expect(text.contains(#""name":"quote \" backslash \\ tab \t ☃""#))
    }

    @Test func keepsMemoryBoundedBySpoolingLongTracksToDisk() throws {
        // A track whose coordinates and times each pass the 4 MB in-memory spool limit (150,000 points of about
        // 40 bytes each: 6 MB per column), so both go through the spool's temporary file, still comes out whole
        // and in order.
        let count = 150_000
        let longitude = 14.123456789012345
        func latitude(_ i: Int) -> Double { 45 + Double(i) * 1e-7 + 1e-13 }
        func time(_ i: Int) -> String {
            let fraction = String(i)
            return "2026-01-01T00:00:00." + String(repeating: "0", count: 9 - fraction.count) + fraction + "+02:00"
        }
        var gpx = "<gpx><trk><trkseg>"
        gpx.reserveCapacity(count * 120)
        for i in 0..<count {
            gpx += "<trkpt lat=\"\(latitude(i))\" lon=\"\(longitude)\"><time>\(time(i))</time></trkpt>"
        }
        gpx += "</trkseg></trk></gpx>"
        let (text, _) = try convertToGeoJSON(gpx.utf8Bytes)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let feature = try #require((json["features"] as? [[String: Any]])?.first)
        let coordinates = try #require((feature["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        #expect(coordinates.allSatisfy { $0.count == 2 })
        let times =
            try #require((feature["properties"] as? [String: Any])?["coordinateProperties"] as? [String: Any])["times"]
            as? [String]
        #expect(coordinates.count == count)
        #expect(times?.count == count)
        #expect(text.utf8.count > 2 * (4 << 20))
        // Numbers are written in their shortest form that reads back (Swift's own description of a Double), so the
        // whole arrays can be compared as text (Foundation's JSON reader rounds some 17-digit numbers).
        let expectedCoordinates = (0..<count).map { "[\(longitude),\(latitude($0))]" }.joined(separator: ",")
        #expect(text.contains("\"coordinates\":[" + expectedCoordinates + "]"))
        let expectedTimes = (0..<count).map { "\"\(time($0))\"" }.joined(separator: ",")
        #expect(text.contains("\"times\":[" + expectedTimes + "]"))
    }
}
