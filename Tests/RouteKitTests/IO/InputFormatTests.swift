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

    @Test(arguments: ["", "   \n", "hello", "PK\u{3}\u{4}", "\u{FEFF}"])
    func anythingElseIsNoFormat(text: String) throws {
        #expect(try InputFormat.detect(InputFile(name: "x", bytes: Array(text.utf8))) == nil)
    }
}
