import RouteKit
import Testing

@Suite struct DetailsTests {
    @Test func gpxAbbreviationsAreReadIntoPlainWords() throws {
        let gpx = """
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Etapa 1</name><cmt>by road</cmt>\
            <desc>Ljubljana – Medvode</desc><src>STKP</src><link href="https://example.org/etapa-1"><text>page</text>\
            <type>text/html</type></link><number>7</number><type>MTB</type><trkseg><trkpt lat="46" lon="14"/>\
            <trkpt lat="46.1" lon="14"/></trkseg></trk><wpt lat="46" lon="14"><name>KT 1</name><sym>Flag</sym></wpt></gpx>
            """
        let document = try GPXReader().document(bytes: Array(gpx.utf8))
        let details = try #require(document.tracks.first?.details)
        #expect(details.name == "Etapa 1")
        #expect(details.comment == "by road")
        #expect(details.description == "Ljubljana – Medvode")
        #expect(details.source == "STKP")
        #expect(details.links == [Link(href: "https://example.org/etapa-1", text: "page", type: "text/html")])
        #expect(details.number == 7)
        #expect(details.type == "MTB")
        #expect(document.waypoints.first?.details.symbol == "Flag")
    }

    @Test func emptyMeansNoFieldOfItsOwnWhateverWasInherited() {
        var details = Details()
        #expect(details.isEmpty)
        details.inherited.name = "from a point"
        #expect(details.isEmpty)
        for filled in [
            Details(name: "n"), Details(comment: "c"), Details(description: "d"), Details(source: "s"),
            Details(links: [Link(href: "https://example.org")]), Details(symbol: "Flag"), Details(type: "t"), Details(number: 0),
        ] {
            #expect(!filled.isEmpty, "\(filled)")
        }
    }
}

@Suite struct SensorReadingsTests {
    @Test func eachKindReadsAndWritesItsOwnField() {
        for (index, kind) in SensorReadings.Kind.allCases.enumerated() {
            var readings = SensorReadings()
            #expect(readings.isEmpty)
            readings[kind] = Double(index + 1)
            #expect(!readings.isEmpty)
            #expect(SensorReadings.Kind.allCases.map { readings[$0] } == SensorReadings.Kind.allCases.map { $0 == kind ? Double(index + 1) : nil })
        }
        let garmin = SensorReadings(heartRate: 120, cadence: 85, power: 250)
        #expect(garmin[.heartRate] == 120 && garmin[.cadence] == 85 && garmin[.power] == 250 && garmin[.speed] == nil)
    }
}

@Suite struct CoordinateTests {
    @Test(arguments: [
        (90.0, 180.0, true), (-90.0, -180.0, true), (0.0, 0.0, true), (90.000001, 0.0, false), (0.0, -180.5, false),
        (Double.nan, 0.0, false), (0.0, Double.infinity, false),
    ])
    func validMeansFiniteAndInRange(latitude: Double, longitude: Double, valid: Bool) {
        #expect(Coordinate(latitude: latitude, longitude: longitude).isValid == valid)
    }
}
