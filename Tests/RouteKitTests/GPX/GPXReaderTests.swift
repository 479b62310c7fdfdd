import Foundation
import RouteKit
import Testing

@Suite struct GPXReaderTests {
    let reader = GPXReader()

    @Test func readsTracksSegmentsAndSensorExtensionsByNamespace() throws {
        let document = try reader.document(bytes: Fixture.bytes("garmin-tpe.gpx"))
        #expect(document.tracks.count == 1)
        let track = try #require(document.tracks.first)
        #expect(track.name == "Vršič loop")
        #expect(track.details.comment == "Morning ride")
        #expect(track.details.description == "Kranjska Gora – Vršič – Trenta & back")
        #expect(track.details.source == "Edge 540")
        #expect(
            track.details.links == [Link(href: "https://example.org/rides/1", text: "Ride page", type: "text/html")])
        #expect(track.details.number == 7)
        #expect(track.details.type == "cycling")
        #expect(track.segments.map(\.points.count) == [3, 2, 1])

        let first = track.segments[0].points[0]
        #expect(first.coordinate == Coordinate(latitude: 46.4856123456789, longitude: 13.7856987654321))
        #expect(first.elevation == 810.4)
        #expect(first.time?.description == "2026-07-04T07:00:00.250Z")
        #expect(first.sensors == SensorReadings(heartRate: 112, cadence: 80, airTemperature: 14.5, power: 180))
        // A point without elevation has none: never zero.
        #expect(track.segments[0].points[2].elevation == nil)
        // TrackPointExtension v2 under another prefix, and a bare <power>.
        #expect(track.segments[1].points[0].sensors == SensorReadings(heartRate: 150, speed: 3.25, course: 271))
        #expect(track.segments[1].points[1].sensors.power == 240)
    }

    @Test func keepsTimeFractionsAndOffsetsAsWritten() throws {
        let document = try reader.document(bytes: Fixture.bytes("garmin-tpe.gpx"))
        let second = document.tracks[0].segments[0].points[1]
        #expect(second.time?.description == "2026-07-04T09:00:01.5+02:00")
        #expect(second.time?.utcOffsetMinutes == 120)
        // 09:00:01.5+02:00 is 07:00:01.5Z: 1.25 s after the first point.
        let first = try #require(document.tracks[0].segments[0].points[0].time)
        #expect(first.seconds(to: try #require(second.time)) == 1.25)
    }

    @Test func readsWaypointsAndRoutesWithEveryDetail() throws {
        let document = try reader.document(bytes: Fixture.bytes("routes-waypoints.gpx"))
        #expect(document.waypoints.count == 2)
        let kt = document.waypoints[0]
        #expect(kt.name == "KT 1.1 Vršič")
        #expect(kt.details.comment == "Stamp in the box by the hut door")
        #expect(kt.details.description == "Erjavčeva koča <na Vršiču>")  // CDATA
        #expect(kt.details.source == "survey")
        #expect(kt.details.links == [Link(href: "https://example.org/kt/1.1", text: "KT 1.1")])
        #expect(kt.details.symbol == "Flag, Blue")
        #expect(kt.details.type == "control point")
        #expect(kt.elevation == 1611)
        #expect(kt.time?.description == "2026-07-04T10:15:00+02:00")
        #expect(document.routes.map(\.name) == ["Planned: Bovec – Tolmin", "One point is no line"])
        #expect(document.routes[0].details.number == 2)
        #expect(document.routes[0].points.map(\.name) == ["Bovec", "Kobarid", "Tolmin"])
        #expect(document.routes[0].points[1].elevation == nil)
    }

    @Test func readsGPX10URLsSpeedAndCourse() throws {
        let document = try reader.document(bytes: Fixture.bytes("gpx10.gpx"))
        #expect(
            document.waypoints[0].details.links == [Link(href: "https://example.org/postojna", text: "Postojna cave")])
        let points = document.tracks[0].segments[0].points
        #expect(points[0].sensors.speed == 5.5)
        #expect(points[0].sensors.course == 90.5)
        #expect(points[1].elevation == 556.25)
    }

    @Test func skipsBadValuesWithAWarningNamingTheLine() throws {
        var warnings: [ReadWarning] = []
        let reader = GPXReader { warnings.append($0) }
        let builder = GPXDocumentBuilder()
        let summary = try reader.read(bytes: Fixture.bytes("bad-values.gpx"), handler: builder)
        let points = builder.document.tracks[0].segments[0].points
        #expect(points.map(\.coordinate.latitude) == [46.1, 46.3, 46.4, 46.6])
        #expect(points.map(\.elevation) == [nil, nil, nil, 301.5])
        #expect(points[1].time == nil)
        #expect(points[3].time?.description == "2026-07-04T07:00:06Z")
        #expect(summary.skippedPoints == 4)
        #expect(summary.warnings == 8)
        #expect(warnings.map(\.line) == [6, 7, 8, 9, 10, 10, 11, 12])
        #expect(warnings[0].message == "latitude 'undefined' is not a number; point skipped")
        #expect(warnings[1].message == "elevation 'bad data' is not a number; left out")
        #expect(warnings[2].message == "latitude 91 is outside −90…90; point skipped")
        #expect(warnings[3].message == "longitude 181 is outside −180…180; point skipped")
        #expect(warnings[5].message.contains("2021-13-45T25:61:00Z"))
        #expect(warnings[6].message == "elevation '1e999' is not a number; left out")
        #expect(warnings[7].message == "the point has no lon attribute; point skipped")
    }

    @Test func strictMakesTheFirstBadValueAnError() throws {
        let reader = GPXReader(strict: true)
        #expect(
            throws: GPXError.invalidValue(
                line: 6, column: 45, reason: "latitude 'undefined' is not a number; point skipped")
        ) {
            try reader.document(bytes: Fixture.bytes("bad-values.gpx"))
        }
    }

    @Test(arguments: [
        ("", 1, "the file is empty"),
        ("this is not XML", 1, "Document is empty"),
        ("<gpx><trk></gpx>", 1, "mismatch"),
        ("<?xml version=\"1.0\"?>\n<gpx>\n  <trk>\n", 3, "the file ends inside <trk>: is it truncated?"),
        ("\u{0}\u{1}\u{2}binary", 1, ""),
    ])
    func rejectsWhatIsNotWellFormedXML(text: String, line expectedLine: Int, reason: String) throws {
        do {
            _ = try reader.document(bytes: text.utf8Bytes)
            Issue.record("no error for \(text)")
        } catch let GPXError.malformed(line, column, message) {
            #expect(line == expectedLine && column >= 1)
            #expect(!message.isEmpty)
            if !reason.isEmpty { #expect(message.localizedCaseInsensitiveContains(reason), "\(message)") }
        }
    }

    @Test func rejectsARootOtherThanGPX() throws {
        #expect(throws: GPXError.notGPX(line: 2, column: 22, root: "kml")) {
            try reader.document(bytes: "<?xml version=\"1.0\"?>\n<kml xmlns=\"http://x\"><a/></kml>".utf8Bytes)
        }
    }

    @Test func readsUTF16WithAByteOrderMarkAndUTF8WithOne() throws {
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?>"
            + "<gpx><wpt lat=\"46.05\" lon=\"14.5\"><name>Ljubljana – Šiška</name></wpt></gpx>"
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try reader.document(bytes: utf16).waypoints.first?.name == "Ljubljana – Šiška")
        let utf8 = [0xEF, 0xBB, 0xBF] + text.replacingOccurrences(of: "UTF-16", with: "UTF-8").utf8Bytes
        #expect(try reader.document(bytes: utf8).waypoints.first?.name == "Ljubljana – Šiška")
    }

    @Test func neverLoadsAnExternalEntity() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = try Fixture.write("TOP-SECRET-CONTENT".utf8Bytes, name: "secret.txt", in: folder)
        let hostile = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [ <!ENTITY xxe SYSTEM "file://\(secret)"> ]>
            <gpx version="1.1"><wpt lat="1" lon="2"><name>&xxe;</name><desc>x&xxe;y</desc></wpt></gpx>
            """
        var leaked = false
        do {
            let document = try reader.document(bytes: hostile.utf8Bytes)
            leaked = "\(document)".contains("TOP-SECRET")
        } catch {
            leaked = "\(error)".contains("TOP-SECRET")
        }
        #expect(!leaked)
        // And through the whole conversion: nothing of the file in the output or the messages.
        let result = try? convertToGeoJSON(hostile.utf8Bytes)
        #expect(result.map { !$0.text.contains("TOP-SECRET") && !$0.warnings.joined().contains("TOP-SECRET") } ?? true)
    }

    @Test func doesNotExpandInternalEntities() throws {
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [ <!ENTITY a "aaaaaaaaaa"> <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"> <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"> ]>
            <gpx version="1.1"><wpt lat="1" lon="2"><name>&d;</name></wpt></gpx>
            """
        let document = try? reader.document(bytes: bomb.utf8Bytes)
        #expect((document?.waypoints.first?.name?.count ?? 0) < 100)
    }

    @Test func handlesCommentsCDATAAndOddWhitespace() throws {
        let text = """
            <?xml version="1.0"?><!-- c --><gpx xmlns="http://www.topografix.com/GPX/1/1">
            <wpt lat="  46.1  " lon="
            14.2"><!-- inside --><name>  <![CDATA[a & b]]>  </name><ele>
            300
            </ele></wpt></gpx>
            """
        let waypoint = try #require(try reader.document(bytes: text.utf8Bytes).waypoints.first)
        #expect(waypoint.name == "a & b")
        #expect(waypoint.elevation == 300)
        #expect(waypoint.coordinate == Coordinate(latitude: 46.1, longitude: 14.2))
    }

    @Test func streamsALargeFileThroughTheHandlerInChunks() throws {
        // 200,000 points (about 14 MB): more than many read chunks, checked point by point at a few places.
        var text = "<gpx><trk><trkseg>\n"
        for i in 0..<200_000 {
            text += "<trkpt lat=\"\(Double(i) * 1e-5)\" lon=\"14\"><ele>\(i % 1000)</ele></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>"
        final class Counter: GPXHandler {
            var count = 0
            var last: TrackPoint?
            func trackPoint(_ point: TrackPoint) {
                count += 1
                last = point
            }
        }
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Fixture.write(text.utf8Bytes, in: folder)
        let counter = Counter()
        try reader.read(InputFile(path: path), handler: counter)
        #expect(counter.count == 200_000)
        #expect(counter.last?.elevation == 999)
        #expect(counter.last?.coordinate.latitude == 199_999 * 1e-5)
    }
}
