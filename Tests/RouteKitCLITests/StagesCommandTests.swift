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
        for k in 0..<300 {
            gpx += "<trkpt lat=\"\(lat + Double(k) * 1e-4)\" lon=\"14\"><ele>\(420 - abs(k % 40 - 20))</ele></trkpt>"
        }
        return gpx + "</trkseg></trk></gpx>"
    }

    @Test func buildsEveryStageInNumericOrderAndReportsWhatIsWrong() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        for (n, lat) in [(10, 46.2), (9, 46.1), (2, 46.0)] {
            try Data(track(from: lat, name: "Track \(n)").utf8).write(
                to: bundle.appendingPathComponent("Etapa \(n).gpx"))
        }
        try Data("<gpx><trk><trkseg><trkpt lat=\"1\"".utf8).write(to: bundle.appendingPathComponent("Etapa 11.gpx"))
        // A control point on stage 9 (at 46.115) and one far away; KT.json and Etape.json are missing.
        let waypoints =
            "<gpx><wpt lat=\"46.115\" lon=\"14.0005\"><name>KT A</name></wpt>"
            + "<wpt lat=\"40\" lon=\"10\"><name>KT far</name></wpt></gpx>"
        try Data(waypoints.utf8).write(to: bundle.appendingPathComponent("KT.gpx"))
        let out = folder.appendingPathComponent("out").path
        let run = try CLI.run(["stages", bundle.path, "-o", out + "/"])
        #expect(run.status == 0)
        #expect(run.standardError.contains("into \(out)/ (open \(out)/index.html)"))  // one slash, as typed
        #expect(run.standardError.contains("Etapa 11.gpx"))
        #expect(run.standardError.contains("etape.json is missing"))
        #expect(run.standardError.contains("KT far"))
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        for n in [2, 9, 10] {
            for suffix in [".geojson", ".gpx", "-profile.svg", "-map.svg"] {
                #expect(files.contains("stage-\(n)\(suffix)"))
            }
        }
        for name in ["route.geojson", "route-map.svg", "stages.csv", "stages.json", "index.html"] {
            #expect(files.contains(name))
        }
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/stages.json")))
                as? [String: Any])
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
        // Every link leads somewhere: an anchor to an id on the page, a file to one written beside it.
        let ids = Set(matches(of: #/ id="([^"]+)"/#, in: html))
        let links = matches(of: #/ href="([^"]+)"/#, in: html)
        for link in links where !link.hasPrefix("http") {
            #expect(link.hasPrefix("#") ? ids.contains(String(link.dropFirst())) : files.contains(link), "\(link)")
        }
        // Each drawing opens full-screen in the page, and the view has a way back.
        for drawing in ["route-map", "stage-2-profile", "stage-9-map", "stage-10-map"] {
            #expect(links.contains("#\(drawing)-view") && links.contains("#\(drawing)"), "\(drawing)")
        }
    }

    private func matches(of pattern: Regex<(Substring, Substring)>, in text: String) -> [String] {
        text.matches(of: pattern).map { String($0.output.1) }
    }

    /// A stage whose elevations jump between two altimeters 150 m apart: said once on standard error, and on the
    /// page beside the stage's numbers, which leave the jumps out (with the 1 m of the steps beside them each way).
    @Test func elevationJumpsAreSaidForTheStageAndOnThePage() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        var gpx = "<gpx><trk><name>Mixed</name><trkseg>"
        for k in 0..<300 {
            let elevation = 420 - abs(k % 40 - 20) + (200..<220 ~= k ? 150 : 0)
            gpx += "<trkpt lat=\"\(46 + Double(k) * 1e-4)\" lon=\"14\"><ele>\(elevation)</ele></trkpt>"
        }
        try Data((gpx + "</trkseg></trk></gpx>").utf8).write(to: bundle.appendingPathComponent("Etapa 1.gpx"))
        let out = folder.appendingPathComponent("out").path
        let run = try CLI.run(["stages", bundle.path, "-o", out])
        #expect(run.status == 0)
        let said =
            "2 elevation jumps between neighbouring points, up to 149 m, the first at 2.22 km: not counted as climbing "
            + "(heights from two sources mixed, or a logger's glitches)"
        #expect(run.standardError.contains("warning: \(bundle.path): Etapa 1.gpx: \(said)\n"))
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(html.contains("<p class=\"note\">2 elevation jumps between neighbouring points, up to 149 m"))
        let csv = try String(contentsOfFile: out + "/stages.csv", encoding: .utf8)
        #expect(csv.contains("\n1,Mixed,,,3323.433,158,139,400,569,\n"), "\(csv)")
    }

    @Test func theOutputsMatchTheirGoldenFiles() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        for (n, lat) in [(1, 46.0), (2, 46.03)] {
            try Data(track(from: lat, name: "Track \(n)").utf8).write(
                to: bundle.appendingPathComponent("Etapa \(n).gpx"))
        }
        try Data("<gpx><wpt lat=\"46.015\" lon=\"14.0003\"><name>KT 1</name></wpt></gpx>".utf8).write(
            to: bundle.appendingPathComponent("KT.gpx"))
        try Data(#"[{"naziv": "KT 1", "zig": "Na vratih koče"}]"#.utf8).write(
            to: bundle.appendingPathComponent("KT.json"))
        let etape =
            #"[{"name": "Prva", "href": "Etapa 1.gpx", "desc": "Opis <1>", "category": "lahka"}, "#
            + #"{"name": "Druga", "href": "Etapa 2.gpx", "desc": "", "category": "zahtevna"}]"#
        try Data(etape.utf8).write(to: bundle.appendingPathComponent("Etape.json"))
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

    /// A bundle as the route's backend serves it: a dated ZIP, here made on macOS, its files in one folder.
    @Test(.requires(.python3)) func readsTheBundleAsPublished() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let etape =
            #"[{"name":"01: Ljubljana – Govejek","href":"https://example.org/01/","#
            + #""desc":"Z gradu.  Dolžina:  Vzpon:  Spust: Trajanje: 3 ure","#
            + #""category":"Ljubljana","file":"Etapa_1.gpx"},"#
            + #"{"name":"02: Govejek – Blegoš","href":"https://example.org/02/","#
            + #""desc":"Dolžina: 38 km","category":"Škofjeloško hribovje","file":"Etapa_2.gpx"}]"#
        let kt =
            #"[{"zapSt":"1","naziv":"Ljubljanski grad","naslov":"Grajska planota 1","zig":"V paviljonu"},"#
            + #"{"zapSt":"2","naziv":"Trdinov vrh","naslov":"","zig":"V skrinjici"},"#
            + #"{"zapSt":"3","naziv":"Koča na Blegošu","naslov":"Leskovica 32","zig":"V koči"}]"#
        let waypoints =
            "<gpx><wpt lat=\"46.0\" lon=\"14\"><name>Ljubljanski grad</name></wpt>"
            + "<wpt lat=\"46.1\" lon=\"14\"><name>Koča na Blegošu</name></wpt></gpx>"
        let zip = folder.appendingPathComponent("ZIP_03-09-2019.zip").path
        try CLI.zip(
            [
                ("STKP/Etapa_1.gpx", Array(track(from: 46.0, name: "01_Ljubljana").utf8)),
                ("STKP/Etapa_2.gpx", Array(track(from: 46.1, name: "02_Govejek").utf8)),
                ("STKP/KT.gpx", Array(waypoints.utf8)), ("STKP/etape.json", Array(etape.utf8)),
                ("STKP/kt.json", Array(kt.utf8)),
                ("__MACOSX/STKP/._Etapa_1.gpx", [0, 5, 22, 7]), ("STKP/.DS_Store", [0, 0, 0, 1]),
            ], to: zip)
        let out = folder.appendingPathComponent("out").path
        let run = try CLI.run(["stages", zip, "-o", out])
        #expect(run.status == 0)
        let warning =
            "routekit: warning: \(zip) › STKP: kt.json lists 1 control point with no waypoint in KT.gpx, "
            + "listed without a position: 2 Trdinov vrh\n"
        #expect(run.standardError.hasPrefix(warning))
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(html.contains("<time datetime=\"2019-09-03\">3 September 2019</time>"))
        #expect(html.contains("<h2>01: Ljubljana – Govejek</h2>\n<p class=\"cat\">Ljubljana</p>"))
        #expect(html.contains("<b>1. Ljubljanski grad</b> at km 0.0 · Grajska planota 1<br>Stamp: V paviljonu"))
        #expect(html.contains("<li><b>2. Trdinov vrh</b><br>Stamp: V skrinjici</li>"))
        #expect(html.contains("Dolžina: <span class=\"measured\" title=\"measured from the track\">3,3 km</span>"))
        #expect(html.contains("<p lang=\"sl\">Dolžina: 38 km</p>"))
        #expect(html.contains("<a href=\"https://example.org/02/\">The stage on the route's website</a>"))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/stages.json")))
                as? [String: Any])
        #expect(json["date"] as? String == "2019-09-03")
        let stages = try #require(json["stages"] as? [[String: Any]])
        #expect(stages.map { $0["href"] as? String } == ["https://example.org/01/", "https://example.org/02/"])
        #expect((stages[1]["control_points"] as? [[String: Any]])?.first?["number"] as? Int == 3)
        // The stage's GPX is written as it was in the archive.
        #expect(
            try String(contentsOfFile: out + "/stage-2.gpx", encoding: .utf8) == track(from: 46.1, name: "02_Govejek"))
    }

    @Test(.requires(.python3)) func aHostileArchiveIsRefusedAndLeavesNothing() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path
        // A ZIP bomb: 600 MiB of zeros packed into 600 KB.
        let bomb = folder.appendingPathComponent("bomb.zip").path
        try CLI.zip([("Etapa_1.gpx", [])], zeros: ["Etapa_1.gpx": 600 << 20], to: bomb)
        var run = try CLI.run(["stages", bomb, "-o", out])
        #expect(run.status == 65)
        #expect(
            run.standardError
                == "routekit: error: \(bomb): refused: its files would expand to more than 512 MiB (a ZIP bomb?)\n")
        // Cut in half, and not an archive at all.
        let cut = folder.appendingPathComponent("cut.zip").path
        try CLI.zip(
            [
                ("Etapa_1.gpx", Array(track(from: 46, name: "a").utf8)),
                ("Etapa_2.gpx", Array(track(from: 47, name: "b").utf8)),
            ], to: cut)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: cut))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        run = try CLI.run(["stages", cut, "-o", out])
        #expect(run.status == 65)
        #expect(run.standardError.hasPrefix("routekit: error: \(cut): not a readable ZIP archive: "))
        let text = folder.appendingPathComponent("notes.txt").path
        try Data("Etapa 1: Ljubljana\n".utf8).write(to: URL(fileURLWithPath: text))
        run = try CLI.run(["stages", text, "-o", out])
        #expect(run.status == 65)
        let notAZIP =
            "routekit: error: \(text): not a readable ZIP archive: not a ZIP file "
            + "(give the bundle as a ZIP or a folder)\n"
        #expect(run.standardError == notAZIP)
        // Entries whose paths lead out of the archive are read by their names only.
        let escape = folder.appendingPathComponent("escape.zip").path
        try CLI.zip([("../../escaped/Etapa_1.gpx", Array(track(from: 46, name: "a").utf8))], to: escape)
        run = try CLI.run(["stages", escape, "-o", out, "-q"])
        #expect(run.status == 0)
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.deletingLastPathComponent().appendingPathComponent("escaped").path))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "bomb.zip", "cut.zip", "escape.zip", "notes.txt", "out",
            ])
        #expect(FileManager.default.fileExists(atPath: out + "/stage-1.gpx"))
    }

    /// Distance along a track has one meaning everywhere: the profile's, which leaves out the gap between
    /// segments. A stage of two segments (46.00–46.03° N, then 46.08–46.11° N on 14° E), a control point and a
    /// clubroom 20 m off the second segment, 0.003° into it.
    @Test func aPlaceOnASecondSegmentIsAsFarAlongAsTheProfileSays() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        var gpx = "<gpx><trk><name>Two parts</name>"
        for start in [46.0, 46.08] {
            gpx += "<trkseg>"
            for k in 0...300 {
                gpx += "<trkpt lat=\"\(start + Double(k) * 0.0001)\" lon=\"14\"><ele>\(500 + k)</ele></trkpt>"
            }
            gpx += "</trkseg>"
        }
        try Data((gpx + "</trk></gpx>").utf8).write(to: bundle.appendingPathComponent("Etapa_1.gpx"))
        // 20 m east of 46.083° N, 14° E.
        let (lat, lon) = ("46.083", "14.000259")
        try Data("<gpx><wpt lat=\"\(lat)\" lon=\"\(lon)\"><name>KT 1</name></wpt></gpx>".utf8).write(
            to: bundle.appendingPathComponent("KT.gpx"))
        // The profile's distance: all of the first segment and 0.003° of the second (GeographicLib's GeodSolve:
        // 3,334.548 m and 333.459 m); counting the gap would add 5,558 m.
        let expected = 3_334.548 + 333.459
        let out = folder.appendingPathComponent("out").path
        #expect(try CLI.run(["stages", bundle.path, "-o", out, "-q"]).status == 0)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/stages.json")))
                as? [String: Any])
        let stage = try #require((json["stages"] as? [[String: Any]])?.first)
        let along = try #require((stage["control_points"] as? [[String: Any]])?.first?["along_m"] as? Double)
        #expect(abs(along - expected) < 0.01)
        #expect(abs((stage["length_2d_m"] as? Double ?? 0) - (3_334.548 + 3_334.595)) < 0.002)
        // near --along measures the same distance for a clubroom at that place.
        let catalog = folder.appendingPathComponent("rooms.csv")
        try Data("id,name,lat,lon\n1,Klubovna,\(lat),\(lon)\n".utf8).write(to: catalog)
        let near = try CLI.run([
            "near", "--along", bundle.path + "/Etapa_1.gpx", "--radius", "100m", "--format", "csv", catalog.path,
        ])
        let row = try #require(near.standardOutput.split(separator: "\n").dropFirst().first?.split(separator: ","))
        #expect(abs((Double(row[6]) ?? 0) - expected) < 0.01)
        // And the profile places the control point there.
        let profile = try CLI.run([
            "profile", bundle.path + "/Etapa_1.gpx", "--waypoints", bundle.path + "/KT.gpx", "--format", "json",
        ])
        let chart = try #require(
            try JSONSerialization.jsonObject(with: Data(profile.standardOutput.utf8)) as? [String: Any])
        let placed = try #require((chart["waypoints"] as? [[String: Any]])?.first?["distance_m"] as? Double)
        #expect(abs(placed - expected) < 0.01)
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
        for k in 0..<400 {
            gpx += "<trkpt lat=\"\(49.17 + Double(k) * 0.00012)\" lon=\"\(16.50 + Double(k) * 0.0005)\"/>"
        }
        gpx += "</trkseg></trk></gpx>"
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let track = folder.appendingPathComponent("brno.gpx")
        try Data(gpx.utf8).write(to: track)
        let run = try CLI.run(["map", track.path, "--clubrooms", NearCommandTests.xml, "--radius", "3km", "-q"])
        #expect(run.status == 0)
        let squares = run.standardOutput.components(separatedBy: "fill=\"#e67e22\" stroke").count - 1
        let nearby = try CLI.run([
            "near", "--along", track.path, "--radius", "3km", "--format", "csv", "-q", NearCommandTests.xml,
        ])
        #expect(squares == nearby.standardOutput.split(separator: "\n").count - 1)
        #expect(squares > 0)
        #expect(run.standardOutput.contains(">clubroom</text>"))
    }
}
