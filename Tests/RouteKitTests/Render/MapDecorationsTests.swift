import Testing

@testable import RouteKit

@Suite struct MapDecorationsTests {
    func scaleBar(pixelsPerMeter: Double, targetPixels: Double) throws -> String {
        let center = Coordinate(latitude: 46.05, longitude: 14.5)
        var svg = SVGWriter(width: 800, height: 600)
        MapDecorations.scaleBar(
            center: center, projection: try MapProjection(center: center), pixelsPerMeter: pixelsPerMeter,
            x: 50, y: 578, targetPixels: targetPixels, into: &svg)
        return svg.document(title: "t")
    }

    @Test(
        arguments: [
            // Target 133.3 px at 0.0666 px/m is 2,002 m: 2 km, drawn 2,000 × 0.0666 = 133.2 px long.
            (0.0666, 133.3, "2 km", "133.2"),
            // 150 px at 1 px/m: 150 m, and the largest 1, 2 or 5 × 10ⁿ below it is 100 m.
            (1.0, 150, "100 m", "100"),
            // 120 px at 0.02 px/m is 6 km: 5 km, 100 px.
            (0.02, 120, "5 km", "100"),
        ] as [(Double, Double, String, String)])
    func theScaleBarIsARoundDistanceDrawnTrue(
        pixelsPerMeter: Double, targetPixels: Double, label: String, width: String
    ) throws {
        // The transverse Mercator is true to scale along the central meridian and within a few parts per million
        // over tens of kilometres from it, so the bar's width is the distance times the map's scale.
        let text = try scaleBar(pixelsPerMeter: pixelsPerMeter, targetPixels: targetPixels)
        #expect(text.contains(">\(label)</text>"), "\(text)")
        #expect(text.contains("<rect x=\"50\" y=\"572\" width=\"\(width)\" height=\"6\" fill=\"#333\"/>"), "\(text)")
    }

    @Test func labelsAvoidEachOtherAndTheEdges() {
        var svg = SVGWriter(width: 200, height: 100)
        var placer = LabelPlacer(bounds: (0, 0, 200, 100))
        placer.reserve(x: 100, y: 50, radius: 5)
        placer.place("first", x: 100, y: 50, fontSize: 10, attributes: "", into: &svg)  // right of the point
        placer.place("second", x: 100, y: 50, fontSize: 10, attributes: "", into: &svg)  // left: right is taken
        placer.place("edge", x: 195, y: 50, fontSize: 10, attributes: "", into: &svg)  // no room right: left
        let text = svg.document(title: "t")
        #expect(
            text.contains("<text x=\"107\" y=\"54\" font-size=\"10\" text-anchor=\"start\" >first</text>"), "\(text)")
        #expect(text.contains("<text x=\"93\" y=\"54\" font-size=\"10\" text-anchor=\"end\" >second</text>"), "\(text)")
        #expect(text.contains("<text x=\"188\" y=\"54\" font-size=\"10\" text-anchor=\"end\" >edge</text>"), "\(text)")
        #expect(placer.dropped == 0)
    }
}
