import RouteKit
import Testing

@Suite struct DetailsTests {
    @Test func gpxAbbreviationsAreReadIntoPlainWords() throws {
        let gpx = """
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Etapa 1</name><cmt>by road</cmt>\
            <desc>Ljubljana – Medvode</desc><src>STKP</src><link href="https://example.org/etapa-1"><text>page</text>\
            <type>text/html</type></link><number>7</number><type>MTB</type><trkseg><trkpt lat="46" lon="14"/>\
            <trkpt lat="46.1" lon="14"/></trkseg></trk>\
            <wpt lat="46" lon="14"><name>KT 1</name><sym>Flag</sym></wpt></gpx>
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
            Details(links: [Link(href: "https://example.org")]), Details(symbol: "Flag"), Details(type: "t"),
            Details(number: 0),
        ] {
            #expect(!filled.isEmpty, "\(filled)")
        }
    }
}
