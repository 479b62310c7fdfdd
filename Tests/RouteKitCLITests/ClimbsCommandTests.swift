import Foundation
import Testing

@Suite struct ClimbsCommandTests {
    @Test func helpMatchesItsGoldenFile() throws {
        let run = try CLI.run(["climbs", "--help"])
        let golden = CLI.golden.appendingPathComponent("climbs-help.txt")
        if ProcessInfo.processInfo.environment["ROUTEKIT_UPDATE_GOLDEN"] == "1" {
            try run.standardOutput.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(run.standardOutput == (try String(contentsOf: golden, encoding: .utf8)))
    }

    /// A track along the meridian 14° E, a fix every 10 m: 1 km flat, 2 km at 8 % (160 m, score 16,000: Cat 3),
    /// 1 km flat, 1.5 km at 4 % (60 m, score 6,000: no category), 500 m flat.
    static func gpx() -> String {
        let elevations = (0...600).map { k -> Double in
            let x = Double(k) * 10
            return x < 1_000
                ? 300
                : x < 3_000
                    ? 300 + (x - 1_000) * 0.08
                    : x < 4_000
                        ? 460
                        : x < 5_500 ? 460 + (x - 4_000) * 0.04 : 520
        }
        return CLI.northwardTrack(name: "Two climbs", spacing: 10, elevations: elevations)
    }

    @Test func listsTheClimbsInEveryFormat() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let track = folder.appendingPathComponent("two.gpx").path
        try Data(Self.gpx().utf8).write(to: URL(fileURLWithPath: track))
        let json = try CLI.run(["climbs", "--format", "json", track])
        #expect(json.status == 0)
        let parsed = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let climbs = try #require(parsed["climbs"] as? [[String: Any]])
        #expect(climbs.map { $0["category"] as? String } == ["3", nil])
        let first = climbs[0]
        #expect(
            abs((first["start_m"] as? Double ?? 0) - 1_000) <= 150
                && abs((first["end_m"] as? Double ?? 0) - 3_000) <= 150)
        #expect(abs((first["gain_m"] as? Double ?? 0) - 160) <= 160 * 0.03)
        #expect(abs((first["average_grade_pct"] as? Double ?? 0) - 8) <= 0.3)
        #expect((first["start"] as? [Double])?.first == 14)
        // Only the categorised one, as GeoJSON: a LineString from its start to its top.
        let geojson = try CLI.run(["climbs", "--format", "geojson", "--min-category", "4", track])
        let collection = try #require(
            try JSONSerialization.jsonObject(with: Data(geojson.standardOutput.utf8)) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        #expect(features.count == 1)
        let line = try #require((features[0]["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        #expect(line.count > 150 && line.allSatisfy { $0[0] == 14 })
        let csv = try CLI.run(["climbs", "--format", "csv", track])
        #expect(csv.standardOutput.split(separator: "\n").count == 3)
        #expect(csv.standardOutput.hasPrefix("start_m,end_m,length_m,gain_m,average_grade_pct,max_grade_pct,"))
        let table = try CLI.run(["climbs", track])
        #expect(table.standardOutput.hasPrefix("Two climbs: 2 climbs\n"))
        #expect(table.standardOutput.contains("Cat 3"))
    }

    @Test func statsListTheSameClimbs() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let track = folder.appendingPathComponent("two.gpx").path
        try Data(Self.gpx().utf8).write(to: URL(fileURLWithPath: track))
        let stats = try CLI.run(["stats", "--format", "json", track])
        let parsed = try #require(
            try JSONSerialization.jsonObject(with: Data(stats.standardOutput.utf8)) as? [String: Any])
        let climbs = try #require((parsed["tracks"] as? [[String: Any]])?.first?["climbs"] as? [[String: Any]])
        let alone = try CLI.run(["climbs", "--format", "json", track])
        let listed = try #require(
            try JSONSerialization.jsonObject(with: Data(alone.standardOutput.utf8)) as? [String: Any])
        #expect(climbs.count == 2)
        #expect(NSArray(array: climbs).isEqual(to: listed["climbs"] as? [Any] ?? []))
        let csv = try CLI.run(["stats", "--format", "csv", track]).standardOutput.split(separator: "\n")
        #expect(csv[1].hasSuffix(",2,3") && csv[2].hasSuffix(",2,3"))
        let table = try CLI.run(["stats", track]).standardOutput
        #expect(table.contains("Climbs of Two climbs:\n"))
    }

    @Test func refusesAnUnknownCategory() throws {
        let run = try CLI.run(["climbs", "--min-category", "5", "x.gpx"])
        #expect(run.status == 64)
        #expect(run.standardError.hasPrefix("routekit: error: --min-category must be HC, 1, 2, 3 or 4, not '5'"))
    }
}
