import Foundation
import Testing

/// Hostile CSV catalogs through the byte-level table `near` reads one CSV catalog with (one position and
/// many: the scan and the index), with the exit code and message of each.
@Suite struct HostileCSVCatalogTests {
    static let cases: [(name: String, bytes: [UInt8], status: Int32, message: String)] = [
        ("empty", [], 65, "neither SkautIS XML, CSV nor GeoJSON"),
        ("binary", [0x6C, 0x61, 0x74, 0x00, 0xFF, 0x0A] + [UInt8](repeating: 0, count: 100), 65, "neither"),
        ("no-columns", Array("name,city\nA,B\n".utf8), 65, "name it with --lat-column/--lon-column"),
        ("header-only", Array("lat,lon\n".utf8), 65, "no usable clubroom"),
        ("nothing-usable", Array("lat,lon\nNaN,14\n91,200\n,\n".utf8), 65, "no usable clubroom"),
        (
            "open-quote-far-down",
            Array(("lat,lon,name\n" + String(repeating: "50,14,x\n", count: 200_000) + "50,14,\"open\n").utf8),
            65, "catalog.csv:200002:7: the quoted field that starts here is never closed"
        ),
        ("one-long-line", Array(("lat,lon\n" + String(repeating: "9", count: 5_000_000)).utf8), 65, "no usable"),
        (
            "only-delimiters", Array(("lat,lon\n" + String(repeating: ",", count: 100_000) + "\n50,14\n").utf8), 0,
            "1 of 2 records left out for want of usable coordinates"
        ),
        ("cr-only", Array("lat,lon\r50,14\r\r51,15\r".utf8), 0, ""),
    ]

    @Test(arguments: cases.indices)
    func endsWithItsExitCode(index: Int) throws {
        let hostile = Self.cases[index]
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = folder.appendingPathComponent("catalog.csv").path
        try Data(hostile.bytes).write(to: URL(fileURLWithPath: catalog))
        let positions = folder.appendingPathComponent("positions.csv")
        try Data("50,14\n0,0\n-30,20\n60,10\n10,10\n20,20\n".utf8).write(to: positions)
        for place in [["--at", "50,14"], ["--at-file", positions.path]] {
            let out = folder.appendingPathComponent("near.csv").path
            let run = try CLI.run(["near"] + place + ["--format", "csv", catalog, "-o", out])
            #expect(run.status == hostile.status, "\(hostile.name) \(place[0]): \(run.standardError)")
            #expect(
                hostile.message.isEmpty ? run.standardError.isEmpty : run.standardError.contains(hostile.message),
                "\(hostile.name): \(run.standardError)")
            // A failed run leaves no file behind.
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(
                left
                    == (run.status == 0
                        ? ["catalog.csv", "near.csv", "positions.csv"] : ["catalog.csv", "positions.csv"]))
            try? FileManager.default.removeItem(atPath: out)
        }
    }

    @Test func aFolderOrAMissingFileIsExit66() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for catalog in [folder.path, folder.appendingPathComponent("missing.csv").path] {
            let run = try CLI.run(["near", "--at", "50,14", catalog])
            #expect(run.status == 66, "\(catalog): \(run.standardError)")
        }
    }
}
