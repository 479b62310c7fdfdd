import Foundation
import Testing

@Suite struct ProfileCommandTests {
    static let stage = CLI.root.appendingPathComponent("data/stkp/Etapa 1.gpx").path
    static let controlPoints = CLI.root.appendingPathComponent("data/stkp/KT.gpx").path

    @Test func helpMatchesItsGoldenFile() throws {
        let run = try CLI.run(["profile", "--help"])
        #expect(run.status == 0)
        let golden = CLI.golden.appendingPathComponent("profile-help.txt")
        if ProcessInfo.processInfo.environment["ROUTEKIT_UPDATE_GOLDEN"] == "1" {
            try run.standardOutput.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(run.standardOutput == (try String(contentsOf: golden, encoding: .utf8)))
    }

    /// Without --format, the extension of -o names the format (as it does for convert); --format wins.
    @Test func theOutputsExtensionNamesTheFormat() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func written(_ arguments: [String], _ name: String) throws -> String {
            let path = folder.appendingPathComponent(name).path
            #expect(try CLI.run(arguments + ["-o", path]).status == 0, "\(arguments) \(name)")
            return String(try String(contentsOfFile: path, encoding: .utf8).prefix(40))
        }
        #expect(try written(["profile", Self.stage], "p.csv").hasPrefix("distance_m,elevation_m,"))
        #expect(try written(["profile", Self.stage], "p.JSON").hasPrefix("{\"name\":"))
        #expect(try written(["profile", Self.stage], "p.svg").hasPrefix("<?xml"))
        #expect(try written(["profile", Self.stage], "p.txt").hasPrefix("<?xml"))
        #expect(try written(["profile", Self.stage, "--format", "csv"], "q.json").hasPrefix("distance_m,"))
        #expect(try written(["climbs", Self.stage], "c.geojson").hasPrefix("{\"type\":\"FeatureCollection\""))
        #expect(try written(["climbs", Self.stage], "c.csv").hasPrefix("start_m,end_m,"))
        #expect(try written(["climbs", Self.stage], "c.txt").hasPrefix("Etapa 1"))
        #expect(try written(["stats", Self.stage], "s.json").hasPrefix("{\"files\":"))
        #expect(try written(["stats", Self.stage], "s.csv").hasPrefix("file,name,points,"))
        #expect(try written(["stats", Self.stage], "s.txt").hasPrefix("Track "))
        // An extension naming a format the command does not write is refused, unless --format says what to write.
        for (command, name) in [("profile", "p.geojson"), ("stats", "s.geojson"), ("climbs", "c.svg")] {
            let path = folder.appendingPathComponent(name).path
            let run = try CLI.run([command, Self.stage, "-o", path])
            #expect(run.status == 64, "\(command) \(name)")
            #expect(run.standardError.contains("\(command) does not write .\(name.split(separator: ".")[1])"))
            #expect(!FileManager.default.fileExists(atPath: path))
        }
        #expect(try written(["profile", Self.stage, "--format", "svg"], "p.xml").hasPrefix("<?xml"))
        let csv = try CLI.run(["profile", Self.stage, "--waypoints", Self.controlPoints, "-o", "p.csv"])
        #expect(csv.status == 64 && csv.standardError.contains("-o's extension chose CSV"))
    }

    /// A waypoint file that cannot be read is named in the error, with the exit status of any input.
    @Test func aBadWaypointFileIsNamed() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.gpx").path
        try Data().write(to: URL(fileURLWithPath: empty))
        let missing = folder.appendingPathComponent("missing.gpx").path
        for command in ["profile", "map"] {
            let out = folder.appendingPathComponent("\(command).svg").path
            let bad = try CLI.run([command, Self.stage, "--waypoints", empty, "-o", out])
            #expect(bad.status == 65, "\(command)")
            #expect(bad.standardError.contains(empty), "\(command): \(bad.standardError)")
            let gone = try CLI.run([command, Self.stage, "--waypoints", missing, "-o", out])
            #expect(gone.status == 66, "\(command)")
            #expect(gone.standardError.contains(missing), "\(command): \(gone.standardError)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(command)")
        }
    }

    /// A file of several tracks is drawn as one line, named for its first and last track.
    @Test func severalTracksAreNamedForTheFirstAndTheLast() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("three.gpx").path
        var gpx = "<gpx>"
        for (n, name) in ["Morning", "Noon", "Evening"].enumerated() {
            gpx += "<trk><name>\(name)</name><trkseg>"
            for k in 0..<50 {
                let lat = 46 + Double(n) * 0.01 + Double(k) * 1e-4
                gpx += "<trkpt lat=\"\(lat)\" lon=\"14\"><ele>\(300 + k)</ele></trkpt>"
            }
            gpx += "</trkseg></trk>"
        }
        try Data((gpx + "</gpx>").utf8).write(to: URL(fileURLWithPath: path))
        let run = try CLI.run(["profile", path, "--format", "json"])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("\"name\":\"Morning … Evening (3 tracks one after the other)\""))
        let climbs = try CLI.run(["climbs", path])
        #expect(climbs.standardOutput.hasPrefix("Morning … Evening (3 tracks one after the other)"))
    }

    /// A control-point file of a whole route against one stage: the warning names ten of the far ones, not all.
    @Test func farWaypointsAreListedUpToTen() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let points = folder.appendingPathComponent("route-kt.gpx").path
        let waypoints = (1...15).map { "<wpt lat=\"\(40 + Double($0) * 0.01)\" lon=\"10\"><name>KT \($0)</name></wpt>" }
        try Data(("<gpx>" + waypoints.joined() + "</gpx>").utf8).write(to: URL(fileURLWithPath: points))
        for command in ["profile", "map"] {
            let run = try CLI.run([
                command, Self.stage, "--waypoints", points, "-o", folder.appendingPathComponent("x.svg").path,
            ])
            #expect(run.status == 0)
            #expect(run.standardError.contains(": 15 waypoints further than 200 m from "), "\(command)")
            #expect(run.standardError.contains("KT 10"), "\(command)")
            #expect(!run.standardError.contains("KT 11"), "\(command)")
            #expect(run.standardError.contains(" and 5 more\n"), "\(command)")
        }
    }

    @Test func drawsTheStageWithItsControlPointsAndWarnsAboutTheFarOnes() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("profile.svg").path
        let run = try CLI.run(["profile", Self.stage, "--waypoints", Self.controlPoints, "-o", out])
        #expect(run.status == 0)
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml"))
        #expect(svg.contains(">KT 1.1</text>") && svg.contains(">KT 1.2</text>"))
        #expect(!svg.contains(">KT 2.1</text>"))
        #expect(run.standardError.contains("9 waypoints further than 200 m from the track left out"))
        #expect(svg.contains("Etapa 1: Kranjska Gora – Bovec"))
    }

    @Test func seriesAsCSVAndJSONAgreeWithStats() throws {
        let csv = try CLI.run(["profile", "--format", "csv", Self.stage])
        let lines = csv.standardOutput.split(separator: "\n")
        #expect(lines.first == "distance_m,elevation_m,smoothed_elevation_m,grade_pct")
        #expect(lines.count > 9000)
        let json = try CLI.run(["profile", "--format", "json", "--waypoints", Self.controlPoints, "-q", Self.stage])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let stats = try CLI.run(["stats", "--format", "json", Self.stage])
        let total = try #require(
            (try JSONSerialization.jsonObject(with: Data(stats.standardOutput.utf8)) as? [String: Any])?["total"]
                as? [String: Any])
        #expect(object["ascent_m"] as? Double == total["ascent_m"] as? Double)
        #expect(object["length_2d_m"] as? Double == total["length_2d_m"] as? Double)
        let waypoints = try #require(object["waypoints"] as? [[String: Any]])
        #expect(waypoints.map { $0["name"] as? String } == ["KT 1.1", "KT 1.2"])
        #expect(waypoints.allSatisfy { ($0["off_track_m"] as? Double ?? 999) < 200 })
    }

    @Test func badOptionsAreUsageErrors() throws {
        #expect(try CLI.run(["profile"]).status == 64)
        let bare = try CLI.run(["profile", Self.stage, "--max-distance", "200"])
        #expect(bare.status == 64)
        #expect(bare.standardError.contains("needs a unit, for example 200m"))
        #expect(try CLI.run(["profile", Self.stage, "--width", "20"]).status == 64)
        #expect(try CLI.run(["profile", Self.stage, Self.stage]).status == 64)
        #expect(
            try CLI.run(["profile", Self.stage, "--format", "csv", "--waypoints", Self.controlPoints]).status == 64)
    }
}

@Suite struct MapCommandTests {
    @Test func helpMatchesItsGoldenFile() throws {
        let run = try CLI.run(["map", "--help"])
        let golden = CLI.golden.appendingPathComponent("map-help.txt")
        if ProcessInfo.processInfo.environment["ROUTEKIT_UPDATE_GOLDEN"] == "1" {
            try run.standardOutput.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(run.standardOutput == (try String(contentsOf: golden, encoding: .utf8)))
    }

    /// An unnamed track is named after its file, not the file's whole path.
    @Test func anUnnamedTrackIsNamedAfterItsFile() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ride.geojson").path
        let line =
            #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":"#
            + #"[[14,46],[14.01,46.01],[14.02,46.0]]}}"#
        try Data(line.utf8).write(to: URL(fileURLWithPath: path))
        let run = try CLI.run(["map", path])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains(">ride.geojson</text>"))
        #expect(!run.standardOutput.contains(folder.path))
    }

    @Test func mapsAStageWithItsControlPoints() throws {
        let run = try CLI.run([
            "map", ProfileCommandTests.stage, "--waypoints", ProfileCommandTests.controlPoints, "--size", "900x600",
        ])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains(">KT 1.1</text>") && run.standardOutput.contains(">KT 1.2</text>"))
        #expect(run.standardError.contains("9 waypoints further than 200 m from every track left out"))
        #expect(run.standardOutput.contains("width=\"900\" height=\"600\""))
        #expect(try CLI.run(["map"]).status == 64)
        #expect(try CLI.run(["map", ProfileCommandTests.stage, "--size", "big"]).status == 64)
    }
}
