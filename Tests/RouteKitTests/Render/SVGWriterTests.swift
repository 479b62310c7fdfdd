import Foundation
import FoundationXML
import RouteKit
import Testing

@Suite struct SVGWriterTests {
    @Test(
        arguments: [
            (12.5, 1, "12.5"), (3.0, 1, "3"), (-0.25, 2, "-0.25"), (0.04, 1, "0"), (-0.04, 1, "0"),
            (1_000_000, 1, "1000000"),
            (1.25, 1, "1.3"), (-1.25, 1, "-1.3"), (2.5, 0, "3"), (99.96, 1, "100"), (0.001, 3, "0.001"),
            (123.456, 2, "123.46"),
        ] as [(Double, Int, String)])
    func writesNumbersRoundedWithoutTrailingZerosOrNegativeZero(value: Double, decimals: Int, text: String) {
        // Halves away from zero (1.25 is exact in binary, so 1.3); never "-0", never an exponent.
        #expect(SVGWriter.number(value, decimals: decimals) == text)
    }

    @Test func escapesMarkupAndDropsControlCharacters() {
        #expect(SVGWriter.escape("Klubovna <A & B> \"Sever\"") == "Klubovna &lt;A &amp; B&gt; &quot;Sever&quot;")
        #expect(SVGWriter.escape("tab\tnew\nline\u{0}\u{1}\u{1B}end") == "tab\tnew\nlineend")
        #expect(SVGWriter.escape("Žiri ☃ 🚲 'single'") == "Žiri ☃ 🚲 'single'")
    }

    @Test func theDocumentIsWellFormedAndItsTextReadsBackAsWritten() throws {
        var svg = SVGWriter(width: 640, height: 480.4)
        let hostile = "A&B <script>alert(\"x\")</script> \u{7}"
        svg.text(hostile, x: 10.04, y: 20.06, attributes: "font-size=\"12\"")
        svg.path([(0, 0), (10.25, 5.75), (20, 0)], closed: true, attributes: "fill=\"none\"")
        svg.line(0, 1, 2, 3, attributes: "stroke=\"#000\"")
        svg.rect(x: 1, y: 2, width: 3.33, height: 4, attributes: "fill=\"red\"")
        svg.circle(x: 5, y: 6, radius: 0.5, attributes: "fill=\"blue\"")
        let text = svg.document(title: "Etapa 1 & 2")
        #expect(text.contains("<text x=\"10\" y=\"20.1\" font-size=\"12\">"))
        #expect(text.contains("<path d=\"M0 0L10.3 5.8L20 0Z\" fill=\"none\"/>"))
        #expect(text.contains("<line x1=\"0\" y1=\"1\" x2=\"2\" y2=\"3\" stroke=\"#000\"/>"))
        #expect(text.contains("<rect x=\"1\" y=\"2\" width=\"3.3\" height=\"4\" fill=\"red\"/>"))
        #expect(text.contains("<circle cx=\"5\" cy=\"6\" r=\"0.5\" fill=\"blue\"/>"))
        #expect(text.contains("width=\"640\" height=\"480\" viewBox=\"0 0 640 480\""))

        // An independent XML parser reads the title and the text back exactly (less the control character).
        final class Texts: NSObject, XMLParserDelegate {
            var current = ""
            var texts: [String: String] = [:]
            var element = ""
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                element = name
                current = ""
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { current += string }
            func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?)
            {
                if name == "title" || name == "text" { texts[name] = current }
            }
        }
        let parser = XMLParser(data: Data(text.utf8))
        let delegate = Texts()
        parser.delegate = delegate
        #expect(parser.parse())
        #expect(delegate.texts["title"] == "Etapa 1 & 2")
        #expect(delegate.texts["text"] == "A&B <script>alert(\"x\")</script> ")
    }

    @Test func anEmptyPathDrawsNothing() {
        var svg = SVGWriter(width: 10, height: 10)
        svg.path([], attributes: "")
        #expect(!svg.document(title: "t").contains("<path"))
    }

    @Test(
        arguments: [
            (0.0, 100.0, 5, [0.0, 20, 40, 60, 80, 100]),
            (0.3, 1.7, 4, [0.5, 1.0, 1.5]),
            (283.0, 1_462.0, 5, [500.0, 1000]),
            (-12.0, 12.0, 4, [-10.0, 0, 10]),
            (-12.0, 12.0, 5, [-10.0, -5, 0, 5, 10]),
            (5.0, 5.0, 3, [5.0]),
        ] as [(Double, Double, Int, [Double])])
    func ticksAreRoundStepsOfOneTwoOrFive(low: Double, high: Double, count: Int, ticks: [Double]) {
        // The step is the smallest 1, 2 or 5 × 10ⁿ not below (high − low) / count: 20 for 20, 0.5 for 0.35,
        // 500 for 235.8, 10 for 6, 5 for 4.8; the ticks are its multiples within low…high.
        let result = SVGWriter.ticks(from: low, to: high, count: count)
        #expect(result.count == ticks.count)
        for (a, b) in zip(result, ticks) { #expect(abs(a - b) < 1e-9) }
    }
}
