import Foundation
import Testing

@Suite struct StatsCommandTests {
    static let keys = [
        "points", "segments", "length_2d_m", "length_3d_m", "ascent_m", "descent_m", "elevation_noise_m",
        "min_elevation_m", "max_elevation_m", "start_time", "end_time", "duration_s", "moving_time_s",
        "average_speed_mps", "max_speed_mps", "steepest_climb_pct", "steepest_descent_pct", "bounds",
        "elevation_jumps", "elevation_settlings",
    ]

    @Test func helpMatchesItsGoldenFile() throws {
        let run = try CLI.run(["stats", "--help"])
        #expect(run.status == 0)
        let golden = CLI.golden.appendingPathComponent("stats-help.txt")
        if ProcessInfo.processInfo.environment["ROUTEKIT_UPDATE_GOLDEN"] == "1" {
            try run.standardOutput.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(run.standardOutput == (try String(contentsOf: golden, encoding: .utf8)))
    }

    /// Two tracks: one joined from recordings out of order (every fifth fix is a day earlier), one recorded.
    @Test func timesThatAreNoRecordingAreLeftOutWithAWarningNamingTheTrack() throws {
        func track(_ name: String, back: Bool) -> String {
            var gpx = "<trk><name>\(name)</name><trkseg>"
            for k in 0..<50 {
                let day = back && k % 5 == 4 ? 8 : 9
                gpx +=
                    "<trkpt lat=\"\(46 + Double(k) * 0.0001)\" lon=\"14\">"
                    + "<time>2019-09-0\(day)T10:10:\(k < 10 ? "0" : "")\(k)Z</time></trkpt>"
            }
            return gpx + "</trkseg></trk>"
        }
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("two.gpx").path
        try Data(("<gpx>" + track("Joined", back: true) + track("Recorded", back: false) + "</gpx>").utf8).write(
            to: URL(fileURLWithPath: path))
        let run = try CLI.run(["stats", "--format", "json", path])
        #expect(run.status == 0)
        #expect(
            run.standardError
                == "routekit: warning: \(path) (Joined): times go back in 10 of 49 steps (20.4 %), as in tracks "
                + "joined from recordings of different days: duration, moving time and speeds are left out\n")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let tracks = try #require(json["tracks"] as? [[String: Any]])
        #expect(tracks[0]["duration_s"] is NSNull && tracks[0]["max_speed_mps"] is NSNull)
        #expect(tracks[1]["duration_s"] as? Double == 49)
        #expect((json["total"] as? [String: Any])?["duration_s"] is NSNull)
    }

    /// A track whose elevations jump between two altimeters 200 m apart, as a track joined from two recordings can:
    /// the jumps are said in a warning, counted in the JSON, and not climbed.
    @Test func elevationJumpsAreSaidAndNotClimbed() throws {
        var gpx = "<gpx><trk><name>Mixed</name><trkseg>"
        for k in 0..<300 {
            let elevation = Double(k) * 0.5 + (100..<150 ~= k ? 200 : 0)
            gpx += "<trkpt lat=\"\(46 + Double(k) * 0.0002)\" lon=\"14\"><ele>\(elevation)</ele></trkpt>"
        }
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("mixed.gpx").path
        try Data((gpx + "</trkseg></trk></gpx>").utf8).write(to: URL(fileURLWithPath: path))
        let run = try CLI.run(["stats", "--format", "json", path])
        #expect(run.status == 0)
        #expect(
            run.standardError
                == "routekit: warning: \(path): 2 elevation jumps between neighbouring points, up to 201 m, the first "
                + "at 2.22 km: not counted as climbing (heights from two sources mixed, or a logger's glitches); --dem "
                + "takes the terrain's heights instead\n")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let track = try #require((json["tracks"] as? [[String: Any]])?.first)
        #expect(track["elevation_jumps"] as? Int == 2)
        let ascent = try #require(track["ascent_m"] as? Double)
        #expect(ascent > 120 && ascent < 150, "\(ascent)")
        #expect(try #require(track["steepest_climb_pct"] as? Double) < 10)
        // --quiet says nothing.
        #expect(try CLI.run(["stats", "--quiet", path]).standardError == "")
    }

    /// A logger's first minutes, its receiver's heights rising 200 m over 310 m ridden before they settle, as real
    /// loggers' tracks do: said in a warning, counted in the JSON, and not climbed; its profile still draws them.
    @Test func elevationsSettlingAtTheStartAreSaidAndNotClimbed() throws {
        var gpx = "<gpx><trk><name>Logger</name><trkseg>"
        for k in 0..<400 {
            let elevation = k < 40 ? 100 + 5 * Double(k) : 300
            let time = "2012-11-07T09:\(10 + k * 5 / 60):\(String(format: "%02d", k * 5 % 60))Z"
            gpx +=
                "<trkpt lat=\"\(46 + Double(k) * 0.00007)\" lon=\"14\"><ele>\(elevation)</ele><time>\(time)</time>"
                + "</trkpt>"
        }
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("logger.gpx").path
        try Data((gpx + "</trkseg></trk></gpx>").utf8).write(to: URL(fileURLWithPath: path))
        let run = try CLI.run(["stats", "--format", "json", path])
        #expect(run.status == 0)
        #expect(
            run.standardError
                == "routekit: warning: \(path): a recording's elevations settle by +200 m in its first 3:20 min (to "
                + "0.31 km): not counted as climbing (a receiver or an altimeter finding its level); --dem takes the "
                + "terrain's heights instead\n")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let track = try #require((json["tracks"] as? [[String: Any]])?.first)
        #expect(track["elevation_settlings"] as? Int == 1)
        #expect(try #require(track["ascent_m"] as? Double) < 10)
        #expect(track["climbs"] == nil || (track["climbs"] as? [Any])?.isEmpty == true)
        let profile = try CLI.run(["profile", "--format", "csv", path])
        #expect(profile.standardError.contains("settle by +200 m"))
        #expect(profile.standardOutput.split(separator: "\n").dropFirst().first?.contains(",100") == true)
    }

    @Test func jsonHasTheDocumentedShape() throws {
        let run = try CLI.run(["stats", "--format", "json", CLI.fixture("garmin-tpe.gpx"), CLI.fixture("gpx10.gpx")])
        #expect(run.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect((json["files"] as? [String])?.count == 2)
        let tracks = try #require(json["tracks"] as? [[String: Any]])
        #expect(tracks.count == 2)
        #expect(tracks[0]["name"] as? String == "Vršič loop")
        #expect((tracks[0]["file"] as? String)?.hasSuffix("garmin-tpe.gpx") == true)
        for key in Self.keys + ["climbs"] {
            #expect(tracks[0].keys.contains(key), "\(key)")
        }
        #expect(tracks[0]["climbs"] is [Any])
        let total = try #require(json["total"] as? [String: Any])
        #expect(Set(total.keys) == Set(Self.keys))
        #expect(total["points"] as? Int == 8)
        #expect(total["segments"] as? Int == 4)
        #expect((total["bounds"] as? [Double])?.count == 4)
    }

    @Test func unknownValuesAreNullNeverZero() throws {
        let gpx =
            "<gpx><trk><trkseg><trkpt lat=\"46\" lon=\"14\"/><trkpt lat=\"46.001\" lon=\"14\"/></trkseg></trk></gpx>"
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bare.gpx").path
        try Data(gpx.utf8).write(to: URL(fileURLWithPath: path))
        let run = try CLI.run(["stats", "--format", "json", path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let track = try #require((json["tracks"] as? [[String: Any]])?.first)
        for key in ["ascent_m", "min_elevation_m", "start_time", "duration_s", "moving_time_s", "average_speed_mps"] {
            #expect(track[key] is NSNull, "\(key)")
        }
        #expect(abs((track["length_2d_m"] as? Double ?? 0) - 111.141) < 0.01)
        let table = try CLI.run(["stats", path])
        #expect(table.standardOutput.contains("0.11 km"))
        #expect(table.standardOutput.contains("–"))
    }

    @Test func csvHasTheSameNamesAsColumnsAndATotalRow() throws {
        let run = try CLI.run(["stats", "--format", "csv", CLI.fixture("garmin-tpe.gpx")])
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0] == (["file", "name"] + Self.keys + ["climbs", "hardest_climb"]).joined(separator: ","))
        #expect(lines[2].hasPrefix(",total,6,3,"))
    }

    @Test func tableShowsReadableUnits() throws {
        let run = try CLI.run(["stats", CLI.fixture("gpx10.gpx")])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("GPX 1.0 track"))
        #expect(run.standardOutput.contains(" km"))
        #expect(run.standardOutput.contains("0:00:05"))
        // The footer says how the ascent was counted: the automatic method's values, or every rise.
        #expect(run.standardOutput.contains("Ascent: elevation noise estimated at ±"))
        #expect(run.standardOutput.contains("rises under"))
        let exact = try CLI.run(["stats", "--smoothing", "0", "--threshold", "0", CLI.fixture("gpx10.gpx")])
        #expect(exact.standardOutput.contains("Ascent: every rise counted, as for exact elevations; elevation noise"))
        #expect(!exact.standardOutput.contains("rises under"))
    }

    @Test func badOptionsAreUsageErrors() throws {
        #expect(try CLI.run(["stats"]).status == 64)
        #expect(try CLI.run(["stats", "--format", "xml", "a.gpx"]).status == 64)
        let threshold = try CLI.run(["stats", "--threshold", "-3", "a.gpx"])
        #expect(threshold.status == 64)
        #expect(threshold.standardError.contains("--threshold takes metres from 0 to 10000"))
        #expect(try CLI.run(["stats", "/nonexistent.gpx"]).status == 66)
        for bad in ["4,x", "-1", "1,2,3,4", "", "4,30,", "20000"] {
            let noise = try CLI.run(["stats", "--noise", bad, "a.gpx"])
            #expect(noise.status == 64, "--noise \(bad)")
            #expect(noise.standardError.contains("--noise takes SIGMA (white noise), SIGMA,CORR"), "--noise \(bad)")
        }
    }

    /// 3 km of a hill of 40 m, a fix every 5 m, with white noise of 0.3 m (the sum of four uniform values from a
    /// fixed linear congruential sequence, so the file is the same on every run).
    static func noisyHill() -> String {
        var state: UInt64 = 1
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let elevations = (0...600).map { k in
            let x = Double(k) * 5
            let scatter = 0.3 * (uniform() + uniform() + uniform() + uniform() - 2) * 3.0.squareRoot()
            return 300 + 20 * (1 - cos(2 * Double.pi * x / 3_000)) + scatter
        }
        return CLI.northwardTrack(name: "Noisy hill", spacing: 5, elevations: elevations)
    }

    @Test func aKnownNoiseReplacesTheEstimate() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("hill.gpx").path
        try Data(Self.noisyHill().utf8).write(to: URL(fileURLWithPath: file))
        func numbers(_ options: [String]) throws -> (ascent: Double, noise: Double) {
            let run = try CLI.run(["stats", "--format", "json"] + options + [file])
            #expect(run.status == 0, "\(options)")
            let parsed = try #require(
                try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
            let total = try #require(parsed["total"] as? [String: Any])
            return (try #require(total["ascent_m"] as? Double), try #require(total["elevation_noise_m"] as? Double))
        }
        let estimated = try numbers([])
        // 4 m correlated and 0.5 m white: √16.25 m in all.
        let given = try numbers(["--noise", "4m,30m,0.5m"])
        #expect(given.noise == 4.031 && estimated.noise != 4.031)
        // No noise: every rise of the scatter counts, as with --smoothing 0 --threshold 0, far past the hill's 40 m.
        let plain = try numbers(["--smoothing", "0", "--threshold", "0"])
        #expect(try numbers(["--noise", "0"]) == (plain.ascent, 0))
        #expect(plain.ascent > 100 && abs(estimated.ascent - 40) < 2, "\(plain) \(estimated)")
        // Noise far above the scatter smooths more and counts no more than the hill.
        let loud = try numbers(["--noise", "3"])
        #expect(loud.noise == 3 && loud.ascent <= 41, "\(loud)")
        // A correlation length of 0 is white noise.
        #expect(try numbers(["--noise", "3,0"]) == loud)
        let table = try CLI.run(["stats", "--noise", "0.3", file])
        #expect(table.standardOutput.contains("Ascent: elevation noise given as ±0.30 m; smoothed over"))
        let none = try CLI.run(["stats", "--noise", "0", file])
        #expect(
            none.standardOutput.contains("Ascent: every rise counted, as for exact elevations; elevation noise given"))
        let decimalComma = try CLI.run(["stats", "--noise", "0,3", file])
        #expect(decimalComma.status == 64)
        #expect(decimalComma.standardError.contains("use a point: 0.3, not 0,3"))
    }
}
