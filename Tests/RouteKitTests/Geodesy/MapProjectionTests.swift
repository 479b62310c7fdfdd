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
        let north = try #require(projection.project(Geodesic.wgs84.destination(from: center, azimuthDegrees: 0, distanceMeters: 10_000)))
        #expect(abs(north.x) < 1e-6)
        #expect(abs(north.y - 10_000) < 0.001)
    }

    @Test func drawsTheCircleThePlacesAndAScaleBar() throws {
        let center = Coordinate(latitude: 49.1951, longitude: 16.6068)
        let places = (0..<12).map { k in
            TrackMap.Marker(label: "Klubovna \(k) <&>", coordinate: Geodesic.wgs84.destination(from: center, azimuthDegrees: Double(k) * 30, distanceMeters: 1000 + Double(k) * 300))
        }
        let svg = try TrackMap(width: 800, height: 800).render(
            title: "Test", lines: [], markers: [], clubrooms: places, search: TrackMap.Search(center: center, radiusMeters: 5000))
        #expect(XMLParser(data: Data(svg.utf8)).parse())
        let circle = try #require(svg.split(separator: "\n").first { $0.contains("stroke-dasharray=\"6 4\"") })
        #expect(circle.filter { $0 == "L" }.count == 360)
        let labels = svg.components(separatedBy: "Klubovna ").count - 1
        let dropped = svg.contains("left out where they would overlap")
        #expect(labels == 12 || dropped)
        #expect(svg.contains(">1 km</text>") || svg.contains(">2 km</text>"))
        #expect(svg.contains("&lt;&amp;&gt;"))
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
