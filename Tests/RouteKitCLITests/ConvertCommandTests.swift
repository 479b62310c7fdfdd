import Foundation
import Testing

@testable import RouteKitCLI

@Suite struct ConvertCommandTests {
    @Test(arguments: [["--help"], ["convert", "--help"], ["help", "convert"]])
    func helpTextsMatchTheirGoldenFiles(arguments: [String]) throws {
        let run = try CLI.run(arguments)
        #expect(run.status == 0)
        let name = arguments.contains("convert") ? "convert-help.txt" : "help.txt"
        let golden = CLI.golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["ROUTEKIT_UPDATE_GOLDEN"] == "1" {
            try run.standardOutput.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(run.standardOutput == (try String(contentsOf: golden, encoding: .utf8)))
        #expect(run.standardOutput.contains("Example") || run.standardOutput.contains("routekit <command> --help"))
    }

    @Test func convertsToStandardOutput() throws {
        let run = try CLI.run(["convert", CLI.fixture("gpx10.gpx")])
        #expect(run.status == 0)
        #expect(run.standardError.isEmpty)
        #expect(run.standardOutput.hasPrefix("{\"type\":\"FeatureCollection\""))
        #expect(run.standardOutput.contains("\"name\":\"GPX 1.0 track\""))
    }

    @Test func writesTheOutputFileAtomically() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("stage.geojson").path
        let run = try CLI.run(["convert", CLI.fixture("garmin-tpe.gpx"), "-o", out])
        #expect(run.status == 0)
        #expect(run.standardOutput.isEmpty)
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("MultiLineString"))
        // Only the output itself is left in the folder: no temporary file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["stage.geojson"])
    }

    @Test func badDataLeavesNoFileAndKeepsAnExistingOne() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notGPX = folder.appendingPathComponent("page.gpx")
        try Data("<html><body>not a track</body></html>".utf8).write(to: notGPX)
        let out = folder.appendingPathComponent("out.geojson")
        let run = try CLI.run(["convert", notGPX.path, "-o", out.path])
        #expect(run.status == 65)
        #expect(
            run.standardError
                == "routekit: error: \(notGPX.path):1:6: not a GPX file: the root element is <html>, expected <gpx>\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        // An existing output is left as it was.
        try Data("old".utf8).write(to: out)
        #expect(try CLI.run(["convert", notGPX.path, "-o", out.path]).status == 65)
        #expect(try String(contentsOf: out, encoding: .utf8) == "old")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["out.geojson", "page.gpx"])
    }

    @Test func warnsAboutBadValuesAndStrictMakesThemErrors() throws {
        let lenient = try CLI.run(["convert", CLI.fixture("bad-values.gpx")])
        #expect(lenient.status == 0)
        let warnings = lenient.standardError.split(separator: "\n")
        #expect(warnings.count == 8)
        #expect(warnings[0].hasSuffix("bad-values.gpx:6:45: latitude 'undefined' is not a number; point skipped"))
        #expect(warnings.allSatisfy { $0.hasPrefix("routekit: warning: ") })
        let quiet = try CLI.run(["convert", "-q", CLI.fixture("bad-values.gpx")])
        #expect(quiet.standardError.isEmpty)
        let strict = try CLI.run(["convert", "--strict", CLI.fixture("bad-values.gpx")])
        #expect(strict.status == 65)
        #expect(
            strict.standardError.hasSuffix("bad-values.gpx:6:45: latitude 'undefined' is not a number; point skipped\n")
        )
    }

    @Test(arguments: [
        (["convert"], "no input file"),
        (
            ["convert", "a.gpx", "--to", "shp"],
            "--to must be one of geojson, geojsonseq, ndjson, gpx, kml, kmz, not 'shp'"
        ),
        (
            ["convert", "a.gpx", "-o", "out.txt"],
            "-o out.txt: RouteKit does not write '.txt' files; it writes .gpx, .kml, .kmz, .geojsons"
        ),
        (["convert", "a.gpx", "-o", "out.TXT"], "(choose one, or name the format with --to geojson|geojsonseq|ndjson"),
        (["convert", "a.gpx", "--precision", "20"], "--precision must be a whole number of decimals from 0 to 15"),
        (["convert", "a.gpx", "--only", "tracks,points"], "--only takes tracks, routes and waypoints"),
        (["convert", "a.gpx", "--frobnicate"], "unknown option '--frobnicate'"),
        (["convert", "a.gpx", "-o"], "-o needs a value"),
        (["convert", "-", "-"], "standard input (-) can be read only once"),
        (["frobnicate"], "unknown command 'frobnicate'"),
    ])
    func usageErrorsExit64WithAHint(arguments: [String], message: String) throws {
        let run = try CLI.run(arguments)
        #expect(run.status == 64)
        #expect(run.standardError.contains(message), "\(run.standardError)")
    }

    /// Latin-1 text in a file that does not say so: exit 65 with what to do, not libxml2's "indicate encoding !".
    @Test func textThatIsNotUTF8SaysHowToDeclareItsEncoding() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("latin.gpx").path
        let head =
            #"<gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="1" lon="2"><name>Caf"#
        try Data(Array(head.utf8) + [0xE9] + Array("</name></wpt></gpx>".utf8)).write(to: URL(fileURLWithPath: path))
        let run = try CLI.run(["convert", path])
        #expect(run.status == 65)
        #expect(run.standardError.contains("the text is not UTF-8 (Bytes: 0xE9"), "\(run.standardError)")
        #expect(run.standardError.contains(#"encoding="ISO-8859-1""#) && !run.standardError.contains("indicate"))
    }

    @Test func missingInputExits66AndUnwritableOutputExits73() throws {
        let missing = try CLI.run(["convert", "/nonexistent/stage.gpx"])
        #expect(missing.status == 66)
        #expect(
            missing.standardError == "routekit: error: /nonexistent/stage.gpx: cannot open: No such file or directory\n"
        )
        let folder = try CLI.run(["convert", CLI.fixtures.path])
        #expect(folder.status == 66)
        #expect(folder.standardError.contains("is a directory"))
        let unwritable = try CLI.run(["convert", CLI.fixture("gpx10.gpx"), "-o", "/nonexistent/folder/out.geojson"])
        #expect(unwritable.status == 73)
        #expect(unwritable.standardError.contains("/nonexistent/folder/out.geojson: cannot create"))
    }

    @Test func roundTripsGPXToGeoJSONToGPXToTheSameGeoJSON() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["garmin-tpe", "routes-waypoints", "gpx10", "bad-values"] {
            let first = folder.appendingPathComponent("\(name)-1.geojson").path
            let gpx = folder.appendingPathComponent("\(name).gpx").path
            let second = folder.appendingPathComponent("\(name)-2.geojson").path
            #expect(try CLI.run(["convert", "-q", CLI.fixture("\(name).gpx"), "-o", first]).status == 0)
            #expect(try CLI.run(["convert", first, "-o", gpx]).status == 0)
            #expect(try CLI.run(["convert", gpx, "-o", second]).status == 0)
            let a = try String(contentsOfFile: first, encoding: .utf8)
            let b = try String(contentsOfFile: second, encoding: .utf8)
            #expect(a == b, "\(name) changed on the round trip")
        }
    }

    @Test func severalInputsMakeOneOutputInTogeojsonOrder() throws {
        let run = try CLI.run([
            "convert", "--to", "geojsonseq", CLI.fixture("routes-waypoints.gpx"), CLI.fixture("gpx10.gpx"),
        ])
        #expect(run.status == 0)
        let names = run.standardOutput.split(separator: "\n").map { line -> String in
            let object = try? JSONSerialization.jsonObject(with: Data(line.dropFirst().utf8)) as? [String: Any]
            return ((object?["properties"] as? [String: Any])?["name"] as? String) ?? "-"
        }
        #expect(names == ["GPX 1.0 track", "Planned: Bovec – Tolmin", "KT 1.1 Vršič", "-", "Postojna"])
    }

    @Test func theRealBinaryReadsStandardInputAndReportsExitCodes() throws {
        let gpx = try Data(contentsOf: CLI.fixtures.appendingPathComponent("gpx10.gpx"))
        let ok = try CLI.runBinary(["convert", "-", "--precision", "3"], input: gpx)
        #expect(ok.status == 0)
        #expect(ok.standardOutput.contains("[14.214,45.776,555]"))
        let bad = try CLI.runBinary(["convert", "-"], input: Data("{\"type\": \"Topology\"}".utf8))
        #expect(bad.status == 65)
        #expect(bad.standardError == "routekit: error: -:1:1: not GeoJSON: unknown type 'Topology'\n")
        let usage = try CLI.runBinary([])
        #expect(usage.status == 64)
        #expect(usage.standardError.contains("Usage: routekit <command>"))
    }
}

@Suite struct InterruptedRunTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalRemovesTheTemporaryOutputAndKeepsTheOldFile(signal: Int32) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out.geojson")
        try Data("old".utf8).write(to: out)
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["convert", "-", "-o", out.path]
        let input = Pipe()
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Whatever happens, end the input: the run then finishes by itself.
        defer { try? input.fileHandleForWriting.close() }
        // Half a file, and the pipe left open: the run is still going when the signal comes.
        // (More than the 512 bytes read to tell the format, so that the output is opened.)
        input.fileHandleForWriting.write(
            Data(("<gpx><trk><trkseg>" + String(repeating: "<trkpt lat=\"46\" lon=\"14\"/>", count: 100)).utf8))
        var waited = 0
        while try FileManager.default.contentsOfDirectory(atPath: folder.path).count < 2 && waited < 100 {
            usleep(20_000)
            waited += 1
        }
        // The temporary file exists.
        try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 2)
        kill(process.processIdentifier, signal)
        usleep(200_000)
        // Never wait forever: end the input, then a run the signal missed ends on its own.
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.geojson"])
        #expect(try String(contentsOf: out, encoding: .utf8) == "old")
    }
}

/// KML and TCX, read everywhere a track is read, and KML written.
@Suite struct KMLAndTCXTests {
    @Test(arguments: ["places.kml", "ride.tcx"])
    func convertsToGeoJSONInTogeojsonsShape(name: String) throws {
        let run = try CLI.run(["convert", CLI.fixture(name)])
        #expect(run.status == 0)
        // The one thing left out is a tuple with a latitude that is not a number.
        let warnings =
            name == "places.kml" ? ["<coordinates> has a tuple that is not a position (the first: 'bad,46.1')"] : []
        #expect(run.standardError.split(separator: "\n").count == warnings.count)
        #expect(warnings.allSatisfy { run.standardError.contains(":49:68: " + $0) }, "\(run.standardError)")
        // The same text the library's golden test holds.
        #expect(run.standardOutput == (try String(contentsOfFile: CLI.fixture(name + ".geojson"), encoding: .utf8)))
    }

    /// A KMZ (KML zipped, with its images beside it) reads as the KML inside; a ZIP without KML is refused.
    @Test func readsTheKMLInsideAKMZ() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let kml = Array(try Data(contentsOf: URL(fileURLWithPath: CLI.fixture("places.kml"))))
        let kmz = folder.appendingPathComponent("places.kmz").path
        let icon: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        try CLI.zip([("files/hut.png", icon), ("old.kml", Array("<kml/>".utf8)), ("doc.kml", kml)], to: kmz)
        let run = try CLI.run(["convert", kmz])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == (try String(contentsOfFile: CLI.fixture("places.kml.geojson"), encoding: .utf8)))
        let stats = try CLI.run(["stats", "--format", "csv", kmz])
        #expect(stats.status == 0 && stats.standardOutput.contains("Trenta trail"), "\(stats.standardError)")
        let strict = try CLI.run(["convert", "--strict", "--to", "gpx", kmz])
        #expect(strict.status == 65 && strict.standardError.contains("places.kmz › doc.kml:49:68:"))
        let batch = try CLI.run(["convert", "-o", folder.path + "/out/", kmz])
        #expect(batch.status == 0 && FileManager.default.fileExists(atPath: folder.path + "/out/places.geojson"))
        let photos = folder.appendingPathComponent("photos.zip").path
        try CLI.zip([("hut.png", icon)], to: photos)
        let refused = try CLI.run(["convert", photos])
        #expect(refused.status == 65)
        #expect(refused.standardError.contains("photos.zip: a ZIP archive without a .kml file (so not a KMZ)"))
        let empty = folder.appendingPathComponent("empty.kmz").path
        try CLI.zip([], to: empty)
        let nothing = try CLI.run(["stats", empty])
        #expect(nothing.status == 65 && nothing.standardError.contains("empty.kmz: a ZIP archive without a .kml"))
        // Written back as KMZ: the same KML, zipped as doc.kml, which reads back to the same GeoJSON.
        let written = folder.appendingPathComponent("again.KMZ").path
        let zipped = try CLI.run(["convert", CLI.fixture("ride.tcx"), "-o", written])
        #expect(zipped.status == 0, "\(zipped.standardError)")
        let plain = try CLI.run(["convert", CLI.fixture("ride.tcx"), "--to", "kml"])
        let unzipped = try CLI.run(["convert", written, "--to", "kml"])
        #expect(unzipped.status == 0 && unzipped.standardOutput == plain.standardOutput)
        let cut = folder.appendingPathComponent("cut.kmz").path
        try Data(Array(try Data(contentsOf: URL(fileURLWithPath: kmz))).prefix(200)).write(
            to: URL(fileURLWithPath: cut))
        // A KMZ bomb: a doc.kml of 600 MiB of zeros is refused past the expansion limit, and nothing is written.
        let bomb = folder.appendingPathComponent("bomb.kmz").path
        try CLI.zip([("doc.kml", [])], zeros: ["doc.kml": 600 << 20], to: bomb)
        let refusedBomb = try CLI.run(["convert", bomb, "-o", folder.path + "/bomb.geojson"])
        #expect(refusedBomb.status == 65 && refusedBomb.standardError.contains("a ZIP bomb?"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/bomb.geojson"))
        let damaged = try CLI.run(["stats", cut])
        #expect(damaged.status == 65 && damaged.standardError.contains("cut.kmz: not a readable ZIP archive"))
    }

    @Test func theOutputNameChoosesTheFormatOrIsRefused() throws {
        func format(_ output: String) throws -> ConvertCommand.OutputFormat? {
            try ConvertCommand.parse(["a.gpx", "-o", output]).formatOfOutputName()
        }
        #expect(try format("x.KML") == .kml && format("x.geojsons") == .geojsonseq && format("x.json") == .geojson)
        #expect(try format("out") == nil && format("out.d/") == nil && format(".hidden") == nil)
        #expect(throws: CLIError.self) { try format("x.txt") }
        #expect(throws: CLIError.self) { try format("dir.d/x.shp") }
        #expect(try format("Route.KMZ") == .kmz)
    }

    @Test func onlyKeepsTheKindsAsked() throws {
        let run = try CLI.run(["convert", "--only", "waypoints", "--to", "ndjson", CLI.fixture("places.kml")])
        #expect(run.status == 0)
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains("\"type\":\"Point\"") })
    }

    @Test func tcxToGPXKeepsTheSensorValues() throws {
        let run = try CLI.run(["convert", "--to", "gpx", CLI.fixture("ride.tcx")])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("<name>Vršič</name>"))
        #expect(
            run.standardOutput.contains(
                "<gpxtpx:hr>120</gpxtpx:hr><gpxtpx:cad>80</gpxtpx:cad><gpxtpx:speed>8.5</gpxtpx:speed>"))
        #expect(run.standardOutput.contains("<pwr:PowerInWatts>230</pwr:PowerInWatts>"))
    }

    @Test func kmlToGPXSaysWhatItLeavesOut() throws {
        let run = try CLI.run(["convert", "-o", "-", "--to", "gpx", CLI.fixture("places.kml")])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("<trk>\n    <name>Morning ride</name>"))
        #expect(
            run.standardError.contains(
                "places.kml:52:13: feature 4 is a Polygon, which is no track, route or waypoint; left out"))
        let strict = try CLI.run(["convert", "--strict", "--to", "gpx", CLI.fixture("places.kml")])
        #expect(strict.status == 65)
        #expect(strict.standardOutput.isEmpty)
    }

    @Test func writesKMLByNameOrByTo() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("ride.KML").path
        let run = try CLI.run(["convert", CLI.fixture("ride.tcx"), "-o", out])
        #expect(run.status == 0)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml "))
        #expect(text.contains("<Placemark><name>Vršič</name><styleUrl>#track</styleUrl><LineString>"))
        // What RouteKit wrote, it reads: KML to GeoJSON.
        let back = try CLI.run(["convert", out])
        #expect(back.status == 0)
        #expect(back.standardOutput.contains("\"name\":\"Vršič\""))
        let piped = try CLI.run(["convert", "--to", "kml", CLI.fixture("garmin-tpe.gpx")])
        #expect(piped.status == 0)
        #expect(piped.standardOutput.contains("</Placemark>\n</Document>\n</kml>\n"))
    }

    @Test func everyCommandThatReadsATrackReadsKMLAndTCX() throws {
        for file in [CLI.fixture("places.kml"), CLI.fixture("ride.tcx")] {
            let stats = try CLI.run(["stats", "--format", "csv", file])
            #expect(stats.status == 0, "\(stats.standardError)")
            for arguments in [["profile", file], ["map", file], ["climbs", file]] {
                let run = try CLI.run(arguments)
                #expect(run.status == 0, "\(arguments): \(run.standardError)")
                #expect(!run.standardOutput.isEmpty)
            }
        }
        let tcx = try CLI.run(["stats", "--format", "json", CLI.fixture("ride.tcx")])
        #expect(tcx.standardOutput.contains("\"name\":\"Vršič\""))
        let along = try CLI.run([
            "near", "--along", CLI.fixture("ride.tcx"), "--radius", "500km",
            CLI.root.appendingPathComponent(
                "data/clubrooms/clubrooms.csv"
            ).path,
        ])
        #expect(along.status == 0, "\(along.standardError)")
    }
}
