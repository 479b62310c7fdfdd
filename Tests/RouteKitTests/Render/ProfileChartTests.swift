import Foundation
import FoundationXML
import Testing

@testable import RouteKit

@Suite struct ProfileChartTests {
    /// A 12 km stage over two climbs, a fix every 3 m, with exact elevations.
    static let track: Track = {
        var points: [TrackPoint] = []
        for i in 0..<4000 {
            let x = Double(i) * 3
            let e = 500 + 180 * max(0, sin(x / 1900)) + 60 * sin(x / 430 + 1) + (x > 9000 ? (x - 9000) * 0.12 : 0)
            points.append(
                TrackPoint(
                    coordinate: Coordinate(latitude: 46 + x / 111_132, longitude: 14),
                    elevation: (e * 10).rounded() / 10))
        }
        return Track(details: Details(name: "Test stage <1> & more"), segments: [TrackSegment(points: points)])
    }()

    @Test func matchesTheGoldenFile() throws {
        let profile = ElevationProfile(track: Self.track)
        let markers = [
            ProfileChart.Marker(label: "KT 1", distanceMeters: 3000),
            ProfileChart.Marker(label: "KT 2", distanceMeters: 9500),
        ]
        let svg = ProfileChart(width: 800, height: 320).render(profile, markers: markers)
        let golden = Fixture.folder.appendingPathComponent("profile.svg")
        if ProcessInfo.processInfo.environment["ROUTEKIT_UPDATE_GOLDEN"] == "1" {
            try svg.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(svg == (try String(contentsOf: golden, encoding: .utf8)))
    }

    /// A track of a few metres, level (a watch's first two fixes): distances in metres, its one height said once.
    @Test func aShortLevelTrackReadsInMetresWithOneHeight() throws {
        let points = (0..<3).map {
            TrackPoint(coordinate: Coordinate(latitude: 46 + Double($0) * 1e-5, longitude: 14), elevation: 42.05)
        }
        let profile = ElevationProfile(track: Track(segments: [TrackSegment(points: points)]))
        let svg = ProfileChart().render(profile)
        #expect(svg.contains(">2 m  ·  ↑ 0 m  ·  ↓ 0 m</text>"))
        #expect(svg.contains("text-anchor=\"end\">m</text>") && !svg.contains(">km</text>"))
        for label in [">0</text>", ">0.5</text>", ">1</text>", ">1.5</text>", ">2</text>"] {
            #expect(svg.contains(label), "\(label)")
        }
        #expect(svg.contains(">42 m</text>") && !svg.contains("▲") && !svg.contains("▼"))
        let exaggeration = try #require(svg.firstMatch(of: /vertical × (0\.0[0-9]+)</)?.output.1)
        #expect(exaggeration.count >= 5 && exaggeration.count <= 6, "\(exaggeration)")  // two significant digits
        #expect(ProfileChart.exaggerationText(6) == "6" && ProfileChart.exaggerationText(0.0374) == "0.037")
    }

    @Test func hasNoMoreVerticesThanPixelsAcrossAndKeepsThePeaks() throws {
        let profile = ElevationProfile(track: Self.track)
        let svg = ProfileChart(width: 600, height: 300).render(profile)
        // The outline is the path with fill="none".
        let outline = try #require(svg.split(separator: "\n").first { $0.contains("fill=\"none\" stroke=\"#333\"") })
        let vertices = outline.filter { $0 == "L" }.count + 1
        #expect(vertices <= 600 - 64 - 24)
        let highest = profile.samples.map(\.smoothedElevationMeters).max()!
        #expect(svg.contains("▲ \(Int(highest.rounded())) m"))
        #expect(profile.downsampled(to: 300).map(\.smoothedElevationMeters).max() == highest)
        #expect(svg.contains("Test stage &lt;1&gt; &amp; more"))
    }

    @Test func isWellFormedXML() throws {
        let svg = ProfileChart().render(
            ElevationProfile(track: Self.track), markers: [.init(label: "A & B", distanceMeters: 10)])
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }

    @Test func placesWaypointsAlongTheTrack() throws {
        let profile = ElevationProfile(track: Self.track)
        // 30 m east of the point 6,000 m along.
        let near = Geodesic.wgs84.destination(
            from: Coordinate(latitude: 46 + 6000 / 111_132, longitude: 14), azimuthDegrees: 90, distanceMeters: 30)
        let placement = try #require(profile.place(near))
        #expect(abs(placement.offTrackMeters - 30) < 0.5)
        #expect(abs(placement.alongMeters - 6000) < 5)
    }

    @Test func ticksAreNiceNumbers() {
        #expect(SVGWriter.ticks(from: 0, to: 27.6, count: 5) == [0, 10, 20])
        #expect(SVGWriter.ticks(from: 712, to: 958, count: 5) == [750, 800, 850, 900, 950])
        #expect(SVGWriter.ticks(from: 0, to: 1835, count: 8) == [0, 500, 1000, 1500])
    }
}
