import Foundation
import Testing

@testable import RouteKit

/// A sink that fails once it has been given `limit` bytes.
private final class FailingSink: ByteSink {
    struct Full: Error {}
    let limit: Int
    var bytes: [UInt8] = []
    init(limit: Int) { self.limit = limit }
    func write(_ buffer: inout ByteBuffer) throws {
        guard bytes.count + buffer.count <= limit else { throw Full() }
        bytes += buffer.bytes
        buffer.removeAll()
    }
}

@Suite struct ArchiveTests {
    /// Text of `count` lines, compressible but not trivially.
    static func text(lines count: Int) -> [UInt8] {
        Array((0..<count).map { "<gx:coord>13.\($0 % 9973) 46.\($0 % 7919) \($0 % 1500)</gx:coord>\n" }.joined().utf8)
    }

    /// A KMZ written as it streams reads back (through the readers of archives) to the same bytes, in a ZIP
    /// without Zip64 fields and with the same bytes every time.
    @Test func writesOneDeflatedFileThatReadsBack() throws {
        let text = Self.text(lines: 50_000)
        func zipped() throws -> [UInt8] {
            let sink = CollectingSink()
            let zip = try ZipFileSink(entryName: "doc.kml", into: sink, name: "x.kmz")
            for start in stride(from: 0, to: text.count, by: 10_000) {
                var buffer = ByteBuffer()
                buffer.append(contentsOf: Array(text[start..<min(start + 10_000, text.count)]))
                try zip.write(&buffer)
            }
            try zip.close()
            return sink.bytes
        }
        let bytes = try zipped()
        #expect(bytes.count < text.count / 3)
        #expect(try zipped() == bytes)
        var budget = ExpansionBudget.standard
        let entries = try ArchiveReader.files(in: bytes, name: "x.kmz", budget: &budget) { _ in true }
        #expect(entries.map(\.path) == ["doc.kml"] && entries.first?.bytes == text)
        // No Zip64 extra field (header ID 0x0001) in the local header of the one file.
        let nameEnd = 30 + "doc.kml".utf8.count
        let extraLength = Int(bytes[28]) | Int(bytes[29]) << 8
        let extra = Array(bytes[nameEnd..<nameEnd + extraLength])
        var i = 0
        while i + 4 <= extra.count {
            #expect(!(extra[i] == 1 && extra[i + 1] == 0), "a Zip64 field")
            i += 4 + (Int(extra[i + 2]) | Int(extra[i + 3]) << 8)
        }
    }

    /// When the output fails partway, the error is the output's own, and the abandoned archive writes nothing
    /// more (no end of archive after the failure).
    @Test func aFailingOutputStopsTheArchiveWithItsOwnError() throws {
        let sink = FailingSink(limit: 4096)
        var zip: ZipFileSink? = try ZipFileSink(entryName: "doc.kml", into: sink, name: "x.kmz")
        var buffer = ByteBuffer()
        buffer.append(contentsOf: Self.text(lines: 200_000))
        #expect(throws: FailingSink.Full.self) {
            try zip?.write(&buffer)
            try zip?.close()
        }
        let written = sink.bytes.count
        zip = nil
        #expect(sink.bytes.count == written)
    }

    /// A KMZ given through a pipe (read once) opens as the KML inside.
    @Test func aKMZThroughAPipeOpensAsItsKML() throws {
        let sink = CollectingSink()
        let zip = try ZipFileSink(entryName: "doc.kml", into: sink, name: "x.kmz")
        var buffer = ByteBuffer()
        buffer.append(contentsOf: Array(#"<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>"#.utf8))
        try zip.write(&buffer)
        try zip.close()
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.kmz").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let bytes = sink.bytes
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(Data(bytes))
                try? handle.close()
            }
        }
        writer.start()
        let (file, format) = try InputFormat.open(path: fifo)
        #expect(format == .kml && file.path == fifo + " › doc.kml")
    }
}
