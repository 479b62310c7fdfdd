import Foundation
import RouteKit
import RouteKitCLI
import Testing

/// The fuzz targets as tests: every input kept in `Fuzz/Findings/TARGET/` (inputs that once crashed, hung or
/// ended with exit 70) must now end as stated below, and the targets must still run real files as the fuzzer
/// does.
@Suite(.serialized) struct FuzzReplayTests {
    static let findings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Findings")

    /// What each kept finding gives now, one exit code per command of its target (in the target's order).
    /// Every file in `Findings/` must be listed: a new finding comes with the outcome its fix promises.
    static let keptFindings: [String: [ExitCode]] = [
        // Elevations of ±1e300 m trapped the stats table and the profile chart. Elevations beyond ±100 km are
        // left out with a warning, and a track without elevations is still converted, measured and drawn.
        "gpx/huge-elevation.gpx": [.success, .success, .success],
        // An age of 1e300 in a damaged CSV catalog trapped converting to Int. Ages outside 0-150 are no age
        // now; the records that have coordinates are searched, filtered and written as any others.
        "catalog/huge-age.csv": [.success, .success, .success, .success, .success, .success, .success, .success],
        // A GeoTIFF whose pixels are 1e43 degrees tall trapped the folder's index of whole degrees. A raster's
        // extent is now clamped to the Earth's first; the tile answers where it covers a point.
        "dem/huge-extent.tif": [.success, .success, .success],
        // A kept table whose first position had a latitude of about 1e300 trapped finding its cell of the grid.
        // A cell is now found for any double, and a table's positions are checked before a search takes it:
        // the table is read past, the catalog read instead.
        "table/huge-latitude": [.success, .success, .success],
    ]

    static func replay(_ target: FuzzTarget, _ bytes: Data) -> [(arguments: [String], code: ExitCode)] {
        bytes.withUnsafeBytes { target.run($0) }
    }

    static func file(_ path: String) throws -> Data { try Data(contentsOf: CLI.root.appendingPathComponent(path)) }

    @Test func everyKeptFindingIsListedWithItsOutcome() throws {
        var kept: [String] = []
        func visible(_ folder: URL) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        }
        for target in try visible(Self.findings) {
            let folder = Self.findings.appendingPathComponent(target)
            #expect(FuzzTarget(rawValue: target) != nil, "Findings/\(target) is no fuzz target")
            kept += try visible(folder).map { "\(target)/\($0)" }
        }
        #expect(kept.sorted() == Self.keptFindings.keys.sorted())
    }

    @Test(arguments: keptFindings.keys.sorted())
    func keptFindingsEndAsTheirFixPromises(finding: String) throws {
        let target = try #require(FuzzTarget(rawValue: String(finding.prefix { $0 != "/" })))
        let bytes = try Data(contentsOf: Self.findings.appendingPathComponent(finding))
        let runs = Self.replay(target, bytes)
        #expect(
            runs.map(\.code) == Self.keptFindings[finding],
            "\(runs.map { ($0.arguments.joined(separator: " "), $0.code) })")
    }

    @Test func theHugeElevationsAreLeftOutWithAWarningNamingThePlace() throws {
        let path = Self.findings.appendingPathComponent("gpx/huge-elevation.gpx").path
        let run = try CLI.run(["stats", "--format", "json", path])
        #expect(run.status == 0)
        #expect(run.standardError.contains("huge-elevation.gpx:1:74: elevation 1e300 m is beyond ±100 km; left out"))
        #expect(run.standardError.contains("huge-elevation.gpx:1:161: elevation -1e300 m is beyond ±100 km; left out"))
    }

    /// Real files for each target and the exit code of each of its commands.
    static func realRuns(_ target: FuzzTarget) throws -> [(input: Data, codes: [ExitCode])] {
        switch target {
        case .gpx:
            return [(try file("Tests/RouteKitTests/Fixtures/garmin-tpe.gpx"), [.success, .success, .success])]
        case .geojson:
            return [(try file("Tests/RouteKitTests/Fixtures/routes-waypoints.geojson"), [.success, .success])]
        case .kml:
            return [
                (try file("Tests/RouteKitTests/Fixtures/places.kml"), [.success, .success, .success, .success]),
                (Data("<kml><Placemark>".utf8), [.dataError, .dataError, .dataError, .dataError]),
            ]
        case .tcx:
            return [(try file("Tests/RouteKitTests/Fixtures/ride.tcx"), [.success, .success, .success, .success])]
        case .catalog:
            return try ["data/clubrooms/clubrooms.xml", "data/clubrooms/clubrooms.csv"].map {
                (try file($0), [.success, .success, .success, .success, .success, .success, .success, .success])
            }
        case .bundle:
            let folder = try CLI.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let zip = folder.appendingPathComponent("ZIP_03-09-2019.zip").path
            try CLI.zip(
                [
                    ("Etapa_1.gpx", Array(try file("Tests/RouteKitTests/Fixtures/garmin-tpe.gpx"))),
                    ("KT.gpx", Array(try file("data/stkp/KT.gpx"))),
                    ("kt.json", Array(#"[{"zapSt":"1","naziv":"KT 1","zig":"Tu"}]"#.utf8)),
                ],
                to: zip)
            return [
                (try Data(contentsOf: URL(fileURLWithPath: zip)), [.success]),
                (Data("PK\u{3}\u{4}".utf8), [.dataError]),
            ]
        case .dem:
            // A grid in degrees over the Alps point (the others are off it), and a file that is no raster.
            let grid =
                "ncols 4\nnrows 4\nxllcorner 13\nyllcorner 46\ncellsize 0.5\n" + "1 2 3 4\n" + "5 6 7 8\n"
                + "9 10 11 12\n" + "13 14 15 16\n"
            return [
                (Data(grid.utf8), [.success, .success, .success]),
                (Data("<gpx/>".utf8), [.dataError, .dataError, .dataError]),
            ]
        case .position:
            return [
                (Data("49.1951,16.6068\n60km\n50.0755,14.4378,Praha\n".utf8), [.success, .success]),
                (Data("91,0\n20100km\n".utf8), [.usage, .usage]),
            ]
        case .table:
            // The table as kept; the counts, positions and rows after them overturned; the table lengthened.
            return [Data(), Data(repeating: 0xA5, count: 200), Data(repeating: 0x01, count: 40_000)].map {
                ($0, [.success, .success, .success])
            }
        case .row:
            let units = #"[{"name":"1. oddíl","registration_number":"621.03.01","water":true}]"#
            let meetings = #"[{"weekday":2,"time_from":"PT16H30M","categories":[{"age_from":7,"sex":"female"}]}]"#
            let head = "5021\t7\tKlubovna\t\\N\t\\N\tBrno\t\\N\t\\N\t\\N\t\\N"
            return [
                (Data("\(head)\t\(units)\t\(meetings)\t49.2\t16.6".utf8), [.success]),
                (Data("5021\t7\tKlubovna".utf8), [.dataError]),
                (Data("\(head)\t{}\t[]\t49.2\t16.6".utf8), [.dataError]),
                (Data("\(head)\t[]\t[]\t91\t16.6".utf8), [.dataError]),
            ]
        }
    }

    // The bundle target needs a ZIP, which the tests write with python3: it has its own test below.
    @Test(arguments: FuzzTarget.allCases.filter { $0 != .bundle })
    func theTargetsRunRealFilesToTheEnd(target: FuzzTarget) throws {
        let runs = try Self.realRuns(target)
        #expect(!runs.isEmpty)
        for (index, run) in runs.enumerated() {
            let results = Self.replay(target, run.input)
            #expect(
                results.map(\.code) == run.codes,
                "\(target.rawValue) input \(index): \(results.map { ($0.arguments.joined(separator: " "), $0.code) })")
        }
    }

    /// The table target's searches read the table it lays out (not the catalog, which would fuzz nothing).
    @Test func theTableTargetSearchesThroughTheKeptTable() {
        FuzzInput.layTable(over: UnsafeRawBufferPointer(start: nil, count: 0))
        defer { FuzzInput.emptyOutputFolder() }
        final class Capture: @unchecked Sendable { var text = "" }
        let errors = Capture()
        let console = Console(
            writeError: { errors.text += $0 }, standardOutput: { try RouteKit.OutputStream.create(path: "/dev/null") })
        let code = RouteKitCLI.run(
            ["near", "--at", "49.2,16.6", "--cache", FuzzInput.outputFolder, "-v", FuzzInput.largeCatalog],
            console: console)
        #expect(code == .success)
        #expect(errors.text.contains("took the kept table"), "\(errors.text)")
    }

    /// A run's output folder is named with its process's id and removed when it exits. One that a crashed run left
    /// (an ended process's, with its files, unchanged for an hour) is removed by a later run; a running process's, a
    /// fresh one and a link are kept.
    @Test func outputFoldersOfEndedRunsAreRemoved() throws {
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let own = FuzzInput.outputFolder
        #expect(own.hasPrefix("/tmp/\(FuzzInput.outputFolderPrefix)\(getpid())-"))
        let files = FileManager.default
        let prefix = "/tmp/\(FuzzInput.outputFolderPrefix)"
        let (left, running, fresh) = (
            "\(prefix)\(ended.processIdentifier)-Crash1", "\(prefix)\(getpid())-Other1",
            "\(prefix)\(ended.processIdentifier)-Fresh1"
        )
        let (link, target) = ("\(prefix)\(ended.processIdentifier)-Link1", "\(prefix)target-Kept1")
        defer { for path in [left, running, fresh, link, target] { try? files.removeItem(atPath: path) } }
        for folder in [left, running, fresh, target] {
            try files.createDirectory(atPath: folder, withIntermediateDirectories: false)
            try Data("id\n".utf8).write(to: URL(fileURLWithPath: folder + "/table.csv"))
        }
        try files.createSymbolicLink(atPath: link, withDestinationPath: target)
        for folder in [left, running, target] {
            try files.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7_200)], ofItemAtPath: folder)
        }
        let twoHoursAgo = timeval(tv_sec: time(nil) - 7_200, tv_usec: 0)
        #expect(lutimes(link, [twoHoursAgo, twoHoursAgo]) == 0)  // -1 on error; the link's own times, not the target's
        FuzzInput.removeOutputFoldersOfEndedProcesses()
        #expect(!files.fileExists(atPath: left))
        for kept in [running, fresh, target] { #expect(files.fileExists(atPath: kept + "/table.csv"), "\(kept)") }
        #expect((try? files.destinationOfSymbolicLink(atPath: link)) == target)
        #expect(files.fileExists(atPath: own))
    }

    @Test(.requires(.python3)) func theBundleTargetRunsARealZIPToTheEnd() throws {
        for run in try Self.realRuns(.bundle) {
            #expect(Self.replay(.bundle, run.input).map(\.code) == run.codes)
        }
    }
}
