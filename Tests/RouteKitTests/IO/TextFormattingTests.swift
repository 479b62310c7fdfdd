import Testing

@testable import RouteKit

/// The one JSON escaper, the one XML escaper and the family of number formatters every output uses.
@Suite struct TextFormattingTests {
    func json(_ text: String) -> String {
        var buffer = ByteBuffer()
        JSONText.appendString(text, to: &buffer)
        return buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    @Test func jsonStringsEscapeQuotesBackslashesAndControlCharacters() {
        #expect(json("a\"b\\c") == #""a\"b\\c""#)
        #expect(json("line\nnext\r\ttab") == #""line\nnext\r\ttab""#)
        #expect(json("\u{08}\u{0C}\u{01}\u{1F}") == #""\b\f\u0001\u001f""#)
        #expect(json("Jelovški vrh – 1. KT ✓") == "\"Jelovški vrh – 1. KT ✓\"")
    }

    @Test func xmlTextEscapesMarkupAndDropsWhatXMLForbids() {
        #expect(XMLText.escaped("<a href=\"x\">R&D</a>") == "&lt;a href=&quot;x&quot;&gt;R&amp;D&lt;/a&gt;")
        #expect(XMLText.escaped("a\u{01}b\u{1B}c\td\ne\rf") == "abc\td\ne\rf")
        #expect(XMLText.escaped("Šmarna gora 'top'") == "Šmarna gora 'top'")
        #expect(SVGWriter.escape("<&>") == XMLText.escaped("<&>"))
    }

    @Test(arguments: [
        (12.5, 1, "12.5"), (3.0, 1, "3"), (-0.25, 2, "-0.25"), (-0.04, 1, "0"), (-0.0, 3, "0"),
        (1234.5678, 3, "1234.568"),
        (0.1 + 0.2, 3, "0.3"), (99.95, 0, "100"),
    ])
    func compactNumbersHaveNoTrailingZerosAndNoNegativeZero(value: Double, decimals: Int, text: String) {
        #expect(DecimalText.compact(value, decimals: decimals) == text)
        #expect(SVGWriter.number(value, decimals: decimals) == text)
    }

    @Test(arguments: [
        (1234.5, 2, "1,234.50"), (-1234.5, 1, "-1,234.5"), (0.004, 2, "0.00"), (-0.004, 2, "0.00"),
        (999.995, 2, "1,000.00"),
        (1_753_123.4, 0, "1,753,123"), (7.0, 3, "7.000"), (0.05, 1, "0.1"),
    ])
    func fixedNumbersForPeople(value: Double, decimals: Int, text: String) {
        #expect(DecimalText.fixed(value, decimals: decimals) == text)
    }

    @Test func groupedWholeNumbers() {
        #expect(DecimalText.grouped(0) == "0")
        #expect(DecimalText.grouped(999) == "999")
        #expect(DecimalText.grouped(-1200) == "-1,200")
        #expect(DecimalText.grouped(12_345_678) == "12,345,678")
        #expect(DecimalText.grouped(1234.5) == "1,235")
        #expect(DecimalText.grouped(Double.infinity) == "inf")
        #expect(DecimalText.fixed(.nan, decimals: 1) == "nan")
    }
}
