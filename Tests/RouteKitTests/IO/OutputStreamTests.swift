import Foundation
import RouteKit
import Testing

@Suite struct OutputStreamTests {
    func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func theTargetChangesOnlyAtCommitAndNoTemporaryFileStays() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("out.geojson")
        try Data("old".utf8).write(to: target)
        let output = try OutputStream.create(path: target.path)
        var buffer = ByteBuffer()
        buffer.append(string: String(repeating: "n", count: 3 << 20))  // past the 1 MB write-out threshold
        try output.write(&buffer)
        #expect(buffer.count == 0)
        try output.flush()
        // Written out, but to a temporary file beside the target: the target is still the old file.
        #expect(try String(contentsOf: target, encoding: .utf8) == "old")
        let during = try names(in: folder)
        #expect(during.count == 2 && during.contains("out.geojson"))
        #expect(during.contains { $0.hasPrefix(".out.geojson.") })
        try output.commit()
        #expect(try Data(contentsOf: target).count == 3 << 20)
        #expect(try names(in: folder) == ["out.geojson"])
    }

    @Test func anOutputReleasedWithoutCommitLeavesTheOldFileAndNothingElse() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("stage.gpx")
        try Data("old".utf8).write(to: target)
        do {
            let output = try OutputStream.create(path: target.path)
            var buffer = ByteBuffer()
            buffer.append("<gpx>")
            try output.write(&buffer)
            try output.flush()
        }
        #expect(try String(contentsOf: target, encoding: .utf8) == "old")
        #expect(try names(in: folder) == ["stage.gpx"])
    }

    @Test func aMissingFolderOrAFolderAsTargetCannotBeCreated() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("no/such/folder/out.csv").path
        #expect(throws: IOError.cannotCreate(path: missing, reason: "No such file or directory")) {
            try OutputStream.create(path: missing)
        }
        let trailing = folder.path + "/"
        #expect(throws: IOError.cannotCreate(path: trailing, reason: "is a directory")) {
            try OutputStream.create(path: trailing)
        }
    }

    @Test func aDeviceIsWrittenInPlace() throws {
        let output = try OutputStream.create(path: "/dev/null")
        var buffer = ByteBuffer()
        buffer.append("discarded")
        try output.write(&buffer)
        try output.commit()
        #expect(output.path == "/dev/null")
    }
}
