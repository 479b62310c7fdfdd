import Foundation
import Testing
import RouteKitCLI

/// The fuzz targets as tests: every input kept in `Fuzz/Findings/TARGET/` (inputs that once crashed, hung or
/// ended with exit 70) must now end cleanly, and the targets must still run real files as the fuzzer does.
@Suite(.serialized) struct FuzzReplayTests {
    static let findings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Findings")

    static func replay(_ target: FuzzTarget, _ bytes: Data) -> [(arguments: [String], code: ExitCode)] {
        bytes.withUnsafeBytes { target.run($0) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func keptFindingsNoLongerFail(target: FuzzTarget) throws {
        let folder = Self.findings.appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
            for (arguments, code) in Self.replay(target, bytes) {
                #expect(code != .software, "\(target.rawValue)/\(name): routekit \(arguments.joined(separator: " "))")
            }
        }
    }

    @Test func theTargetsRunRealFilesToTheEnd() throws {
        func file(_ path: String) throws -> Data { try Data(contentsOf: CLI.root.appendingPathComponent(path)) }
        let gpx = Self.replay(.gpx, try file("Tests/RouteKitTests/Fixtures/garmin-tpe.gpx"))
        #expect(gpx.map(\.code) == [.success, .success, .success])
        let geojson = Self.replay(.geojson, try file("Tests/RouteKitTests/Fixtures/routes-waypoints.geojson"))
        #expect(geojson.map(\.code) == [.success, .success])
        for catalog in ["data/clubrooms/clubrooms.xml", "data/clubrooms/clubrooms.csv"] {
            #expect(Self.replay(.catalog, try file(catalog)).map(\.code) == [.success, .success, .success, .success], "\(catalog)")
        }
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let zip = folder.appendingPathComponent("ZIP_03-09-2019.zip").path
        try CLI.zip([("Etapa_1.gpx", Array(try file("Tests/RouteKitTests/Fixtures/garmin-tpe.gpx"))),
                     ("KT.gpx", Array(try file("data/stkp/KT.gpx"))), ("kt.json", Array(#"[{"zapSt":"1","naziv":"KT 1","zig":"Tu"}]"#.utf8))],
                    to: zip)
        #expect(Self.replay(.bundle, try Data(contentsOf: URL(fileURLWithPath: zip))).map(\.code) == [.success])
        #expect(Self.replay(.bundle, Data("PK\u{3}\u{4}".utf8)).map(\.code) == [.dataError])
        let position = Self.replay(.position, Data("49.1951,16.6068\n60km\n50.0755,14.4378,Praha\n".utf8))
        #expect(position.map(\.code) == [.success, .success])
        let refused = Self.replay(.position, Data("91,0\n20100km\n".utf8))
        #expect(refused.map(\.code) == [.usage, .usage])
    }
}
