import Foundation
import Testing

@testable import RouteKitCLI

/// `routekit convert` on many files: one output per input in a folder, or one text sequence, on all cores.
@Suite struct ConvertBatchTests {
    static let inputs = ["gpx10.gpx", "routes-waypoints.gpx", "garmin-tpe.geojson", "bad-values.gpx"]

    func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func eachInputGoesToItsOwnFileNamedAfterIt() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path + "/"
        let run = try CLI.run(["convert", "-q", "-o", out] + Self.inputs.map(CLI.fixture))
        #expect(run.status == 0)
        #expect(run.standardError == "")
        #expect(
            try files(in: URL(fileURLWithPath: out))
                == ["bad-values.geojson", "garmin-tpe.gpx", "gpx10.geojson", "routes-waypoints.geojson"])
        // Each file is what converting it alone gives.
        for input in Self.inputs {
            let name = ConvertCommand.outputName(input, format: input.hasSuffix(".gpx") ? .geojson : .gpx)
            let alone = folder.appendingPathComponent("alone-" + name).path
            #expect(try CLI.run(["convert", "-q", CLI.fixture(input), "-o", alone]).status == 0)
            #expect(FileManager.default.contentsEqual(atPath: alone, andPath: out + name), "\(input)")
        }
    }

    @Test func toChoosesTheFormatAndAFolderThatExistsNeedsNoSlash() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(
            [
                "convert", "-q", "--to", "ndjson", "-o", folder.path, CLI.fixture("gpx10.gpx"),
                CLI.fixture("gpx10.geojson"),
            ])
        #expect(run.status == 64)
        #expect(run.standardError.contains("would both be written to \(folder.path)/gpx10.ndjson"))
        #expect(try files(in: folder).isEmpty)
        let ok = try CLI.run(["convert", "-q", "--to", "ndjson", "-o", folder.path, CLI.fixture("gpx10.gpx")])
        #expect(ok.status == 0)
        #expect(try files(in: folder) == ["gpx10.ndjson"])
    }

    @Test func aFileThatFailsIsReportedAndTheOthersAreWritten() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junk = folder.appendingPathComponent("junk.gpx").path
        try Data("not a track".utf8).write(to: URL(fileURLWithPath: junk))
        let cut = folder.appendingPathComponent("cut.gpx").path
        try Data("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\">".utf8).write(to: URL(fileURLWithPath: cut))
        let missing = folder.appendingPathComponent("missing.gpx").path
        let out = folder.appendingPathComponent("out").path + "/"
        let run = try CLI.run(["convert", "-q", "-o", out, junk, CLI.fixture("gpx10.gpx"), cut, missing])
        #expect(run.status == 65)
        let lines = run.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("routekit: error: \(junk): not GPX, KML, KMZ, TCX or GeoJSON"))
        #expect(lines[1].hasPrefix("routekit: error: \(cut):"))
        #expect(lines[2].hasPrefix("routekit: error: \(missing): cannot open"))
        #expect(lines[3] == "routekit: error: 3 of 4 files could not be converted; the other 1 is written to \(out)")
        // Nothing half-written: only the one good file.
        #expect(try files(in: URL(fileURLWithPath: out)) == ["gpx10.geojson"])
        let none = try CLI.run(["convert", "-q", "-o", out, missing])
        #expect(none.status == 66)
        #expect(none.standardError.hasSuffix("1 of 1 files could not be converted; nothing was written\n"))
    }

    @Test(arguments: [
        (["-"], "standard input has no name"),
        (["a/gpx10.gpx", "b/gpx10.gpx"], "would both be written to"),
    ])
    func namesThatCannotWorkAreUsageErrors(inputs: [String], message: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for input in inputs where input != "-" {
            let path = folder.appendingPathComponent(input)
            try FileManager.default.createDirectory(
                at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: CLI.fixture("gpx10.gpx")), to: path)
        }
        let out = folder.appendingPathComponent("out").path + "/"
        let run = try CLI.run(
            ["convert", "-o", out] + inputs.map { $0 == "-" ? $0 : folder.appendingPathComponent($0).path })
        #expect(run.status == 64)
        #expect(run.standardError.contains(message))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func anOutputMayNotReplaceItsInput() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("track.gpx")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: CLI.fixture("gpx10.gpx")), to: input)
        let before = try Data(contentsOf: input)
        let run = try CLI.run(["convert", "--to", "gpx", "-o", folder.path + "/", input.path])
        #expect(run.status == 64)
        #expect(run.standardError.contains("would replace its own input"))
        #expect(try Data(contentsOf: input) == before)
    }

    @Test func aFolderThatCannotBeMadeIsExit73() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("no/such/folder").path + "/"
        let run = try CLI.run(["convert", "-o", out, CLI.fixture("gpx10.gpx")])
        #expect(run.status == 73)
        #expect(run.standardError.contains("cannot create the folder"))
    }

    /// Many inputs into one text sequence are converted in parallel: the output is that of one writer
    /// (every file's tracks, then routes, then waypoints), the same on every run, with warnings in file order.
    @Test func aTextSequenceOfManyFilesIsTheSameAsOneWriterMakes() throws {
        let inputs = (0..<9).flatMap { _ in ["routes-waypoints.gpx", "gpx10.gpx", "garmin-tpe.geojson"] }
            .map(CLI.fixture)
        let first = try CLI.run(["convert", "--to", "geojsonseq"] + inputs)
        #expect(first.status == 0)
        let again = try CLI.run(["convert", "--to", "geojsonseq"] + inputs)
        #expect(again.standardOutput == first.standardOutput)
        #expect(again.standardError == first.standardError)
        let types = first.standardOutput.split(separator: "\n").map { line -> String in
            let object = try? JSONSerialization.jsonObject(with: Data(line.dropFirst().utf8)) as? [String: Any]
            let properties = object?["properties"] as? [String: Any]
            return properties?["_gpxType"] as? String ?? "wpt"
        }
        let firstRoute = types.firstIndex(of: "rte") ?? types.count
        let firstWaypoint = types.firstIndex(of: "wpt") ?? types.count
        #expect(types[..<firstRoute].allSatisfy { $0 == "trk" })
        #expect(types[firstRoute..<firstWaypoint].allSatisfy { $0 == "rte" })
        #expect(types[firstWaypoint...].allSatisfy { $0 == "wpt" })
        #expect(types.filter { $0 == "trk" }.count == 18)
        let warned = first.standardError.split(separator: "\n")
        #expect(warned.count == 9)
        #expect(warned.allSatisfy { $0.contains("routes-waypoints.gpx: route 'One point is no line'") })
    }

    @Test func aTextSequenceFailsWholeAtTheFirstBadFile() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junk = folder.appendingPathComponent("junk.geojson").path
        try Data("{\"type\": \"Topology\"}".utf8).write(to: URL(fileURLWithPath: junk))
        let out = folder.appendingPathComponent("all.geojsons").path
        let run = try CLI.run(
            ["convert", "-q", CLI.fixture("gpx10.gpx"), junk, CLI.fixture("gpx10.gpx"), "-o", out])
        #expect(run.status == 65)
        #expect(run.standardError == "routekit: error: \(junk):1:1: not GeoJSON: unknown type 'Topology'\n")
        #expect(try files(in: folder) == ["junk.geojson"])
    }
}
