import Foundation
import Testing

@testable import RouteKit

@Suite struct TCXReaderTests {
    @Test func readsLapsAndCoursesInTogeojsonsShape() throws {
        let text = try featureText { body in
            try TCXReader().features(InputFile(path: Fixture.path("ride.tcx")), body: body)
        }
        try expectGolden(text, "ride.tcx.geojson")
        let features = try #require(
            JSONValue.read(InputFile(name: "x", bytes: Array(text.utf8)))["features"]?.elements)
        #expect(features.count == 3)
        let lap = features[0]["properties"] ?? .null
        #expect(lap["totalTimeSeconds"]?.number == 20 && lap["avgHeartRate"]?.number == 121)
        #expect(lap["avgWatts"]?.number == 220 && lap["maxSpeed"]?.number == 9.5)
        // One value per Trackpoint: none where the Trackpoint has no position.
        #expect(lap["cadences"] == .array([.number(80), .null, .number(82)]))
        #expect(features[1]["geometry"]?["type"]?.string == "MultiLineString")
        #expect(features[2]["properties"]?["name"]?.string == "Vršič")
        #expect(features[2]["properties"]?["distanceMeters"]?.number == 12000)
    }

    @Test func readsLapsAsTracksWithTheirSensors() throws {
        let builder = GPXDocumentBuilder()
        try TCXReader().read(InputFile(path: Fixture.path("ride.tcx")), handler: builder)
        let tracks = builder.document.tracks
        #expect(tracks.map { $0.segments.map(\.points.count) } == [[2], [2, 2], [2]])
        let first = tracks[0].segments[0].points
        #expect(first[0].sensors == SensorReadings(heartRate: 120, cadence: 80, speed: 8.5, power: 210))
        #expect(first[1].sensors == SensorReadings(cadence: 82, power: 230))  // a heart rate of 0 is none
        #expect(first[1].time == Timestamp("2026-07-04T06:00:20Z") && first[1].elevation == 805)
        #expect(tracks[2].name == "Vršič")
    }

    /// A lap long enough for its per-point series to be held in temporary files keeps every value in place.
    @Test func aLongLapIsReadWholeFromItsTemporaryFiles() throws {
        let n = 60_000
        var text = #"<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">"#
        text += "<Activities><Activity><Lap><Track>"
        for i in 0..<n {
            text += "<Trackpoint><Time>2026-07-04T06:00:00.\(i)Z</Time><Position><LatitudeDegrees>46.\(i)"
            text += "</LatitudeDegrees><LongitudeDegrees>13.5</LongitudeDegrees></Position>"
            text += i % 3 == 0 ? "" : "<HeartRateBpm><Value>\(100 + i % 90)</Value></HeartRateBpm>"
            text += "<Cadence>\(i % 120)</Cadence></Trackpoint>"
        }
        text += "</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
        var features: [JSONValue] = []
        try TCXReader().features(InputFile(name: "x.tcx", bytes: Array(text.utf8))) { feature, _, _ in
            features.append(feature)
        }
        let lap = try #require(features.first)
        let per = lap["properties"]?["coordinateProperties"]
        #expect(lap["geometry"]?["coordinates"]?.elements?.count == n)
        #expect(per?["heart"]?.elements?[n - 1] == .number(Double(100 + (n - 1) % 90)))
        #expect(per?["heart"]?.elements?[n - 3] == .null)
        #expect(lap["properties"]?["cadences"]?.elements?[n - 1] == .number(Double((n - 1) % 120)))
        let builder = GPXDocumentBuilder()
        try TCXReader().read(InputFile(name: "x.tcx", bytes: Array(text.utf8)), handler: builder)
        let points = try #require(builder.document.tracks.first?.segments.first?.points)
        #expect(points.count == n)
        #expect(
            points[n - 2].sensors
                == SensorReadings(heartRate: Double(100 + (n - 2) % 90), cadence: Double((n - 2) % 120)))
        #expect(points[n - 1].coordinate.latitude == Double("46.\(n - 1)"))
    }

    /// A position or altitude that is no number is left out with a warning (an error when strict); a
    /// Trackpoint without a position (an indoor activity's) is no fix and no warning; RunCadence is cadence.
    @Test func warnsAboutValuesThatAreNoNumbers() throws {
        let text = """
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" \
            xmlns:x="http://www.garmin.com/xmlschemas/ActivityExtension/v2"><Activities><Activity><Lap><Track>\
            <Trackpoint><Time>2026-07-04T06:00:00Z</Time><Position><LatitudeDegrees>46</LatitudeDegrees>\
            <LongitudeDegrees>13</LongitudeDegrees></Position><AltitudeMeters>abc</AltitudeMeters>\
            <Extensions><x:TPX><x:RunCadence>88</x:RunCadence></x:TPX></Extensions></Trackpoint>\
            <Trackpoint><Time>2026-07-04T06:00:01Z</Time><Position><LatitudeDegrees>undefined</LatitudeDegrees>\
            <LongitudeDegrees>13</LongitudeDegrees></Position></Trackpoint>\
            <Trackpoint><Time>2026-07-04T06:00:02Z</Time><DistanceMeters>3</DistanceMeters></Trackpoint>\
            <Trackpoint><Time>2026-07-04T06:00:03Z</Time><Position><LatitudeDegrees>46.001</LatitudeDegrees>\
            <LongitudeDegrees>13.001</LongitudeDegrees></Position><AltitudeMeters>1e400</AltitudeMeters>\
            </Trackpoint></Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """
        var warnings: [String] = []
        let builder = GPXDocumentBuilder()
        try TCXReader { warnings.append($0.message) }.read(
            InputFile(name: "x.tcx", bytes: Array(text.utf8)), handler: builder)
        let points = try #require(builder.document.tracks.first?.segments.first?.points)
        #expect(points.count == 2 && points.allSatisfy { $0.elevation == nil })
        #expect(points[0].sensors == SensorReadings(cadence: 88))
        #expect(
            warnings == [
                "a Trackpoint's altitude 'abc' is not a number; left out",
                "a Trackpoint's position (undefined, 13) is not a latitude and longitude; left out",
                "a Trackpoint's altitude '1e400' is not a number; left out",
            ])
        #expect(throws: XMLFormatError.self) {
            try TCXReader(strict: true).read(
                InputFile(name: "x.tcx", bytes: Array(text.utf8)), handler: GPXDocumentBuilder())
        }
    }

    /// A course's CoursePoints are waypoints of the track model (togeojson's GeoJSON leaves them out).
    @Test func coursePointsAreWaypoints() throws {
        let text = """
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Courses>\
            <Course><Name>Vršič</Name><Track><Trackpoint><Position><LatitudeDegrees>46.48</LatitudeDegrees>\
            <LongitudeDegrees>13.78</LongitudeDegrees></Position></Trackpoint><Trackpoint><Position>\
            <LatitudeDegrees>46.43</LatitudeDegrees><LongitudeDegrees>13.74</LongitudeDegrees></Position>\
            </Trackpoint></Track><CoursePoint><Name>Pass</Name><Time>2026-07-04T08:00:00Z</Time><Position>\
            <LatitudeDegrees>46.433</LatitudeDegrees><LongitudeDegrees>13.743</LongitudeDegrees></Position>\
            <AltitudeMeters>1611</AltitudeMeters><PointType>Summit</PointType><Notes>Top</Notes></CoursePoint>\
            <CoursePoint><Name>Lost</Name></CoursePoint></Course></Courses></TrainingCenterDatabase>
            """
        var warnings: [String] = []
        let builder = GPXDocumentBuilder()
        try TCXReader { warnings.append($0.message) }.read(
            InputFile(name: "x.tcx", bytes: Array(text.utf8)), handler: builder)
        let document = builder.document
        #expect(document.tracks.map(\.name) == ["Vršič"])
        #expect(document.waypoints.count == 1)
        let pass = try #require(document.waypoints.first)
        #expect(pass.name == "Pass" && pass.details.description == "Top" && pass.details.type == "Summit")
        #expect(pass.elevation == 1611 && pass.time == Timestamp("2026-07-04T08:00:00Z"))
        #expect(warnings == ["a CoursePoint 'Lost' has no latitude and longitude; left out"])
        var features: [JSONValue] = []
        try TCXReader().features(InputFile(name: "x.tcx", bytes: Array(text.utf8))) { feature, _, _ in
            features.append(feature)
        }
        #expect(features.count == 1)
    }

    @Test func refusesWhatIsNotTCX() throws {
        #expect {
            try TCXReader().read(InputFile(name: "x", bytes: Array("<kml/>".utf8)), handler: GPXDocumentBuilder())
        } throws: {
            "\($0)".contains("not a TCX file: the root element is <kml>, expected <TrainingCenterDatabase>")
        }
    }
}
