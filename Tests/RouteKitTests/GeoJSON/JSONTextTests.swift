import Foundation
import Testing

@testable import RouteKit

@Suite struct JSONTextTests {
    func json(_ text: String) -> String {
        var buffer = ByteBuffer()
        JSONText.appendString(text, to: &buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    @Test func escapesWhatRFC8259RequiresAndNothingElse() {
        #expect(json("") == "\"\"")
        #expect(json("Žiri \"A\" \\ /") == #""Žiri \"A\" \\ /""#)
        #expect(json("\n\r\t\u{8}\u{C}") == #""\n\r\t\b\f""#)
        #expect(json("\u{0}\u{1}\u{1F}") == #""\u0000\u0001\u001f""#)
        #expect(json("\u{7F} \u{2028} 🚲") == "\"\u{7F} \u{2028} 🚲\"")
    }

    @Test func everyCharacterReadsBackThroughAnIndependentParser() throws {
        // All of ASCII, including every control character, and some beyond: Foundation's JSON reader gives back
        // the string written.
        let text = String(String.UnicodeScalarView((0..<128).compactMap(Unicode.Scalar.init))) + "é☃🚲\u{FEFF}"
        let written = "[" + json(text) + "]"
        let array = try #require(try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String])
        #expect(array == [text])
        #expect(try JSONValue.read(InputFile(name: "t.json", bytes: Array(written.utf8))) == .array([.string(text)]))
    }

    @Test func writesAKeyWithItsColon() {
        var buffer = ByteBuffer()
        JSONText.appendKey("coordinates", to: &buffer)
        #expect(buffer.bytes == Array("\"coordinates\":".utf8))
    }
}
