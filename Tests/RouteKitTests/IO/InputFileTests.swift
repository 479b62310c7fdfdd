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
        #expect(throws: IOError.cannotOpen(path: missing, reason: "No such file or directory")) { try InputFile(path: missing) }
        #expect(throws: IOError.cannotOpen(path: folder.path, reason: "is a directory")) { try InputFile(path: folder.path) }
        #expect(IOError.cannotOpen(path: "a.gpx", reason: "is a directory").description == "a.gpx: cannot open: is a directory")
    }
}

@Suite struct InputFormatTests {
    @Test(arguments: [
        ("<?xml version=\"1.0\"?><gpx/>", InputFormat.gpx), ("\u{FEFF}  \n<gpx/>", .gpx),
        ("{\"type\":\"FeatureCollection\"}", .geojson), ("\r\n\t[1]", .geojson), ("\u{1E}{\"type\":\"Feature\"}", .geojson),
    ])
    func knowsAFormatByItsFirstCharacter(text: String, format: InputFormat) throws {
        #expect(try InputFormat.detect(InputFile(name: "x", bytes: Array(text.utf8))) == format)
    }

    @Test func readsUTF16WithOrWithoutAByteOrderMark() throws {
        let xml = "  <gpx/>"
        for encoding in [String.Encoding.utf16, .utf16LittleEndian, .utf16BigEndian] {
            let bytes = Array(try #require(xml.data(using: encoding)))
            #expect(try InputFormat.detect(InputFile(name: "x", bytes: bytes)) == .gpx, "\(encoding)")
        }
    }

    @Test(arguments: ["", "   \n", "hello", "PK\u{3}\u{4}", "\u{FEFF}"])
    func anythingElseIsNoFormat(text: String) throws {
        #expect(try InputFormat.detect(InputFile(name: "x", bytes: Array(text.utf8))) == nil)
    }
}
