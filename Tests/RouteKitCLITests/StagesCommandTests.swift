import Foundation
import Testing

@Suite struct StagesCommandTests {
    @Test func helpMatchesItsGoldenFile() throws {
        let run = try CLI.run(["stages", "--help"])
        let golden = CLI.golden.appendingPathComponent("stages-help.txt")
        if ProcessInfo.processInfo.environment["ROUTEKIT_UPDATE_GOLDEN"] == "1" {
            try run.standardOutput.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(run.standardOutput == (try String(contentsOf: golden, encoding: .utf8)))
    }

    func track(from lat: Double, name: String) -> String {
        var gpx = "<gpx><trk><name>\(name)</name><trkseg>"
        for k in 0..<300 { gpx += "<trkpt lat=\"\(lat + Double(k) * 1e-4)\" lon=\"14\"><ele>\(400 + k % 40)</ele></trkpt>" }
        return gpx + "</trkseg></trk></gpx>"
    }

    @Test func buildsEveryStageInNumericOrderAndReportsWhatIsWrong() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        for (n, lat) in [(10, 46.2), (9, 46.1), (2, 46.0)] {
            try Data(track(from: lat, name: "Track \(n)").utf8).write(to: bundle.appendingPathComponent("Etapa \(n).gpx"))
        }
        try Data("<gpx><trk><trkseg><trkpt lat=\"1\"".utf8).write(to: bundle.appendingPathComponent("Etapa 11.gpx"))
        // A control point on stage 9 (at 46.115) and one far away; KT.json and Etape.json are missing.
        try Data("<gpx><wpt lat=\"46.115\" lon=\"14.0005\"><name>KT A</name></wpt><wpt lat=\"40\" lon=\"10\"><name>KT far</name></wpt></gpx>".utf8)
            .write(to: bundle.appendingPathComponent("KT.gpx"))
        let out = folder.appendingPathComponent("out").path
        let run = try CLI.run(["stages", bundle.path, "-o", out])
        #expect(run.status == 0)
        #expect(run.standardError.contains("Etapa 11.gpx"))
        #expect(run.standardError.contains("etape.json is missing"))
        #expect(run.standardError.contains("KT far"))
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        for n in [2, 9, 10] {
            for suffix in [".geojson", ".gpx", "-profile.svg", "-map.svg"] { #expect(files.contains("stage-\(n)\(suffix)")) }
        }
        for name in ["route.geojson", "route-map.svg", "stages.csv", "stages.json", "index.html"] { #expect(files.contains(name)) }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/stages.json"))) as? [String: Any])
        let stages = try #require(json["stages"] as? [[String: Any]])
        #expect(stages.map { $0["number"] as? Int } == [2, 9, 10])
        let points = try #require(stages[1]["control_points"] as? [[String: Any]])
        #expect(points.map { $0["name"] as? String } == ["KT A"])
        #expect(((points[0]["along_m"] as? Double) ?? 0) > 1000)
        #expect((json["unassigned_control_points"] as? [[String: Any]])?.first?["name"] as? String == "KT far")
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(html.contains("<svg"))
        // Self-contained: no script, no stylesheet or image fetched from anywhere.
        #expect(!html.contains("<script") && !html.contains("<link") && !html.contains("src="))
        #expect(html.contains("href=\"stage-9.geojson\"") && html.contains("href=\"#stage-10\""))
    }

    @Test func theOutputsMatchTheirGoldenFiles() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        for (n, lat) in [(1, 46.0), (2, 46.03)] {
            try Data(track(from: lat, name: "Track \(n)").utf8).write(to: bundle.appendingPathComponent("Etapa \(n).gpx"))
        }
        try Data("<gpx><wpt lat=\"46.015\" lon=\"14.0003\"><name>KT 1</name></wpt></gpx>".utf8).write(to: bundle.appendingPathComponent("KT.gpx"))
        try Data(#"[{"naziv": "KT 1", "zig": "Na vratih koče"}]"#.utf8).write(to: bundle.appendingPathComponent("KT.json"))
        try Data(#"[{"name": "Prva", "href": "Etapa 1.gpx", "desc": "Opis <1>", "category": "lahka"}, {"name": "Druga", "href": "Etapa 2.gpx", "desc": "", "category": "zahtevna"}]"#.utf8)
            .write(to: bundle.appendingPathComponent("Etape.json"))
        let out = folder.appendingPathComponent("out").path
        #expect(try CLI.run(["stages", bundle.path, "-o", out, "-q"]).status == 0)
        for name in ["index.html", "stage-1-map.svg", "stages.json", "stages.csv"] {
            let produced = try String(contentsOfFile: out + "/" + name, encoding: .utf8)
            let golden = CLI.golden.appendingPathComponent("stages-\(name)")
            if ProcessInfo.processInfo.environment["ROUTEKIT_UPDATE_GOLDEN"] == "1" {
                try produced.write(to: golden, atomically: true, encoding: .utf8)
            }
            #expect(produced == (try String(contentsOf: golden, encoding: .utf8)), "\(name)")
        }
    }

    @Test func nothingToBuildIsADataError() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["stages", folder.path, "-o", folder.appendingPathComponent("out").path])
        #expect(run.status == 65)
        #expect(try CLI.run(["stages", folder.path]).status == 64)
        #expect(try CLI.run(["stages", "/nonexistent", "-o", folder.path]).status == 66)
    }
}

@Suite struct MapClubroomsTests {
    @Test func marksTheClubroomsNearTheTrack() throws {
        var gpx = "<gpx><trk><name>Across Brno</name><trkseg>"
        for k in 0..<400 { gpx += "<trkpt lat=\"\(49.17 + Double(k) * 0.00012)\" lon=\"\(16.50 + Double(k) * 0.0005)\"/>" }
        gpx += "</trkseg></trk></gpx>"
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let track = folder.appendingPathComponent("brno.gpx")
        try Data(gpx.utf8).write(to: track)
        let run = try CLI.run(["map", track.path, "--clubrooms", NearCommandTests.xml, "--radius", "3km", "-q"])
        #expect(run.status == 0)
        let squares = run.standardOutput.components(separatedBy: "fill=\"#e67e22\" stroke").count - 1
        let nearby = try CLI.run(["near", "--along", track.path, "--radius", "3km", "--format", "csv", "-q", NearCommandTests.xml])
        #expect(squares == nearby.standardOutput.split(separator: "\n").count - 1)
        #expect(squares > 0)
        #expect(run.standardOutput.contains(">clubroom</text>"))
    }
}
