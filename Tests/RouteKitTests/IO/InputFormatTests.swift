import Foundation
import RouteKit
import Testing

@Suite struct InputFormatTests {
    @Test(arguments: [
        ("<?xml version=\"1.0\"?><gpx/>", InputFormat.gpx), ("\u{FEFF}  \n<gpx/>", .gpx),
        ("{\"type\":\"FeatureCollection\"}", .geojson), ("\r\n\t[1]", .geojson),
        ("\u{1E}{\"type\":\"Feature\"}", .geojson),
    ])
    func knowsAFormatByItsFirstCharacter(text: String, format: InputFormat) throws {
        #expect(try InputFormat.detect(InputFile(name: "x", bytes: Array(text.utf8))) == format)
    }

    @Test func readsUTF16WithOrWithoutAByteOrderMark() throws {
        let xml = "  <gpx/>"
        for encoding in [String.Encoding.utf16, .utf16LittleEndian, .utf16BigEndian] {
            let bytes = Array(try #require(xml.data(using: encoding)))
            #expect(try InputFormat.detect(InputFile(name: "x", bytes: bytes)) == .gpx, "\(encoding)")
        }
    }

    @Test(arguments: [
        ("<kml xmlns=\"http://www.opengis.net/kml/2.2\"/>", InputFormat.kml),
        ("<?xml version=\"1.0\"?>\n<!-- made by hand -->\n<kml:kml xmlns:kml=\"k\"/>", .kml),
        ("<!DOCTYPE kml [<!ENTITY a \"<gpx>\">]><kml>", .kml),
        ("<?xml version=\"1.0\"?><TrainingCenterDatabase>", .tcx),
        ("<?xml version=\"1.0\"?><gpx", .gpx), ("<", .gpx), ("<svg/>", .gpx),
        ("<Document xmlns=\"http://earth.google.com/kml/2.1\">", .kml),
        ("<gpx xmlns:k=\"http://www.opengis.net/kml/2.2\">", .gpx),
    ])
    func tellsXMLFormatsByTheirRootElement(text: String, format: InputFormat) throws {
        #expect(try InputFormat.detect(InputFile(name: "x", bytes: Array(text.utf8))) == format)
    }

    @Test func looksPastALongCommentForTheRoot() throws {
        let text = "<?xml version=\"1.0\"?><!--" + String(repeating: "x", count: 3000) + "--><kml/>"
        #expect(try InputFormat.detect(InputFile(name: "x", bytes: Array(text.utf8))) == .kml)
        let utf16 = Array(try #require("<TrainingCenterDatabase/>".data(using: .utf16)))
        #expect(try InputFormat.detect(InputFile(name: "x", bytes: utf16)) == .tcx)
    }

    @Test(arguments: ["", "   \n", "hello", "PK\u{3}\u{4}", "\u{FEFF}"])
    func anythingElseIsNoFormat(text: String) throws {
        #expect(try InputFormat.detect(InputFile(name: "x", bytes: Array(text.utf8))) == nil)
    }
}
