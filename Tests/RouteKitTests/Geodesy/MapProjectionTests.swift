import Foundation
import FoundationXML
import RouteKit
import Testing

@Suite struct SearchMapTests {
    @Test func theProjectionIsTrueAlongTheCentralMeridian() throws {
        let center = Coordinate(latitude: 49.1951, longitude: 16.6068)
        let projection = try MapProjection(center: center)
        let origin = try #require(projection.project(center))
        #expect(abs(origin.x) < 1e-6 && abs(origin.y) < 1e-6)
        let north = try #require(
            projection.project(Geodesic.wgs84.destination(from: center, azimuthDegrees: 0, distanceMeters: 10_000)))
        #expect(abs(north.x) < 1e-6)
        #expect(abs(north.y - 10_000) < 0.001)
    }

    @Test func drawsTheCircleThePlacesAndAScaleBar() throws {
        // Twelve clubrooms on a ring of 4 km around the centre, 30° apart, inside a 5 km search circle. The map
        // (800 × 800 px, 700 × 666 px inside its margins) spans the circle's 10 km: 0.0666 px/m. Neighbours on the
        // ring are 2 · 4 km · sin 15° = 2,071 m = 138 px apart; a label (10 px type) is at most 15 × 5.6 = 84 px
        // wide and 12 px high and starts 7 px right of its square, so no label can touch another label or
        // square: all twelve are drawn right of their squares, none is left out.
        let center = Coordinate(latitude: 49.1951, longitude: 16.6068)
        let places = (0..<12).map { k in
            TrackMap.Marker(
                label: "Klubovna \(k) <&>",
                coordinate: Geodesic.wgs84.destination(
                    from: center, azimuthDegrees: Double(k) * 30, distanceMeters: 4000))
        }
        let svg = try TrackMap(width: 800, height: 800).render(
            title: "Test", lines: [], markers: [], clubrooms: places,
            search: TrackMap.Search(center: center, radiusMeters: 5000))
        #expect(XMLParser(data: Data(svg.utf8)).parse())
        let circle = try #require(svg.split(separator: "\n").first { $0.contains("stroke-dasharray=\"6 4\"") })
        #expect(circle.filter { $0 == "L" }.count == 360)
        let labels = svg.split(separator: "\n").filter { $0.contains(">Klubovna ") }
        #expect(labels.count == 12)
        #expect(labels.allSatisfy { $0.contains("text-anchor=\"start\"") })
        #expect(!svg.contains("left out where they would overlap"))
        // The scale bar aims at a sixth of the width, 133.3 px = 2,002 m: the largest 1, 2 or 5 × 10ⁿ m below
        // that is 2 km.
        #expect(svg.contains(">2 km</text>"))
        #expect(!svg.contains(">1 km</text>") && !svg.contains(">5 km</text>"))
        #expect(svg.contains("Klubovna 11 &lt;&amp;&gt;"))
    }

    @Test func labelsThatFindNoFreePlaceAreLeftOutAndCounted() throws {
        // Twelve clubrooms at one place: the first label goes right of the squares, the second left; above and
        // below touch the squares or the first label, which counts as overlapping. Ten are left out, and said so.
        let center = Coordinate(latitude: 49.1951, longitude: 16.6068)
        let here = Geodesic.wgs84.destination(from: center, azimuthDegrees: 45, distanceMeters: 1000)
        let places = (0..<12).map { k in TrackMap.Marker(label: "Klubovna \(k)", coordinate: here) }
        let svg = try TrackMap(width: 800, height: 800).render(
            title: "Test", lines: [], markers: [], clubrooms: places,
            search: TrackMap.Search(center: center, radiusMeters: 5000))
        let labels = svg.split(separator: "\n").filter { $0.contains(">Klubovna ") }
        #expect(labels.count == 2)
        #expect(
            labels.first?.contains(">Klubovna 0</text>") == true
                && labels.first?.contains("text-anchor=\"start\"") == true)
        #expect(
            labels.last?.contains(">Klubovna 1</text>") == true && labels.last?.contains("text-anchor=\"end\"") == true)
        #expect(svg.contains(">10 labels left out where they would overlap</text>"))
    }
}

@Suite struct WebMercatorTests {
    @Test func webMercatorHasStraightMeridiansAndTheWebScale() throws {
        let center = Coordinate(latitude: 46, longitude: 14)
        let projection = try MapProjection(center: center, kind: .webMercator)
        let a = try #require(projection.project(Coordinate(latitude: 45, longitude: 14)))
        let b = try #require(projection.project(Coordinate(latitude: 47, longitude: 14)))
        #expect(abs(a.x - b.x) < 1e-6)
        // EPSG:3857 northing of 45° N: R·ln(tan(π/4 + φ/2)) with R = 6,378,137 m.
        #expect(abs(a.y - 5_621_521.486) < 0.01)
    }
}
