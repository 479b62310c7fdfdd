import Foundation
import RouteKit
import Testing

@Suite struct InputFileTests {
    @Test func peekingDoesNotConsumeAndReadingGivesEveryByteOnce() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 13 + 5) }
        let input = try InputFile(path: try Fixture.write(expected, name: "big.bin", in: folder))
        #expect(try input.peek(16) == Array(expected.prefix(16)))
        #expect(try input.peek(512) == Array(expected.prefix(512)))
        #expect(try input.readAll() == expected)
        #expect(try input.readAll().isEmpty)
    }

    @Test func readsInChunksOfTheCallersSize() throws {
        let input = InputFile(name: "memory.gpx", bytes: Array("0123456789".utf8))
        var chunks: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try input.read(into: $0) }
            if n == 0 { break }
            chunks.append(String(decoding: buffer[0..<n], as: UTF8.self))
        }
        #expect(chunks == ["0123", "4567", "89"])
        #expect(input.path == "memory.gpx")
    }

    @Test func aShortFileIsPeekedWhole() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try InputFile(path: try Fixture.write(Array("<gpx/>".utf8), in: folder))
        #expect(try input.peek(512) == Array("<gpx/>".utf8))
        #expect(try input.readAll() == Array("<gpx/>".utf8))
    }

    @Test func aMissingFileOrAFolderCannotBeOpened() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.gpx").path
        #expect(throws: IOError.cannotOpen(path: missing, reason: "No such file or directory")) {
            try InputFile(path: missing)
        }
        #expect(throws: IOError.cannotOpen(path: folder.path, reason: "is a directory")) {
            try InputFile(path: folder.path)
        }
        #expect(
            IOError.cannotOpen(path: "a.gpx", reason: "is a directory").description
                == "a.gpx: cannot open: is a directory")
    }
}
