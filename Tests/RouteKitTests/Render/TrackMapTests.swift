import Foundation
import FoundationXML
import RouteKit
import Testing

@Suite struct TrackMapTests {
    static let line: [Coordinate] = (0...20_000).map { k in
        Coordinate(latitude: 46 + Double(k) * 2e-5, longitude: 14 + 0.01 * sin(Double(k) / 300))
    }

    @Test func simplifiesToAQuarterPixelAndStaysSmall() throws {
        let svg = try TrackMap(width: 800, height: 600).render(
            title: "T & t", lines: [TrackMap.Line(name: "one", segments: [Self.line])],
            markers: [TrackMap.Marker(label: "KT <1>", coordinate: Self.line[5000])])
        #expect(XMLParser(data: Data(svg.utf8)).parse())
        #expect(svg.utf8.count < 60_000)
        #expect(svg.contains(">KT &lt;1&gt;</text>"))
        #expect(svg.contains("°N</text>") && svg.contains("°E</text>"))
        #expect(svg.contains(" km</text>") || svg.contains(" m</text>"))
    }

    @Test func theLegendSaysHowManyLinesItLeavesOut() throws {
        // Twelve stages with long names: a few fit in the legend, and it says how many more there are.
        let lines = (0..<12).map { n in
            TrackMap.Line(
                name: "\(n + 1): Koča na hribu – Dom v dolini",
                segments: [
                    (0...50).map { Coordinate(latitude: 46 + Double(n) * 0.01, longitude: 14 + Double($0) * 1e-3) }
                ])
        }
        let svg = try TrackMap(width: 1000, height: 700).render(title: "Route", lines: lines, markers: [])
        let shown = (1...12).filter { svg.contains(">\($0) \($0): Koča na hribu") }.count
        #expect(shown >= 2 && shown < 12)
        #expect(svg.contains(">+ \(12 - shown) more</text>"))
        let two = try TrackMap(width: 1000, height: 700).render(
            title: "Route", lines: Array(lines.prefix(2)), markers: [])
        #expect(!two.contains(" more</text>"))
    }

    @Test func theGraticuleFillsTheFrameWhenTheDataIsNarrow() throws {
        // A north-south line in a wide map: the meridians must reach both sides of the frame.
        let line = (0...100).map { Coordinate(latitude: 46 + Double($0) * 3e-4, longitude: 14) }
        let svg = try TrackMap(width: 1000, height: 700).render(
            title: "N-S", lines: [TrackMap.Line(name: "one", segments: [line])], markers: [])
        let meridians = svg.components(separatedBy: "\n").filter { $0.contains("stroke=\"#d9d4c7\"") }
            .compactMap { $0.split(separator: "\"")[1].dropFirst().split(separator: " ").first.flatMap { Double($0) } }
        #expect(meridians.contains { $0 < 150 }, "\(meridians)")
        #expect(meridians.contains { $0 > 850 }, "\(meridians)")
    }

    @Test func theSimplifiedLineIsWithinTheTolerance() throws {
        let points: [(Double, Double)] = (0..<2000).map { k -> (Double, Double) in
            let x = Double(k) * 0.5
            let y: Double = 100 + 40 * sin(Double(k) / 50)
            return (x, y)
        }
        let simple = try LineSimplifier().simplify(points, tolerance: 0.25)
        #expect(simple.count < points.count / 4)
        #expect(simple.first!.0 == points.first!.0 && simple.last!.0 == points.last!.0)
        // Every original point is within 0.25 of the simplified polyline.
        for p in points {
            var best = Double.infinity
            for k in 0..<(simple.count - 1) {
                let a = simple[k]
                let b = simple[k + 1]
                let vx: Double = b.0 - a.0
                let vy: Double = b.1 - a.1
                let along: Double = (p.0 - a.0) * vx + (p.1 - a.1) * vy
                let t: Double = max(0, min(1, along / (vx * vx + vy * vy)))
                let dx: Double = a.0 + t * vx - p.0
                let dy: Double = a.1 + t * vy - p.1
                best = min(best, (dx * dx + dy * dy).squareRoot())
            }
            #expect(best <= 0.25 + 1e-9)
        }
    }
}
