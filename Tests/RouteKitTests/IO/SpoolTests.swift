import Foundation
import RouteKit
import Testing

/// Collects what a spool drains, in the order it comes.
final class CollectingSink: ByteSink {
    var bytes: [UInt8] = []
    var writes = 0
    func write(_ buffer: inout ByteBuffer) throws {
        bytes += buffer.bytes
        writes += 1
        buffer.removeAll()
    }
}

@Suite struct SpoolTests {
    /// Bytes no other test writes: a random prefix, then a counter pattern.
    static func pattern(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let prefix = (0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return prefix + (0..<(count - prefix.count)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
    }

    /// The open files of this process whose name is gone ("(deleted)" in /proc/self/fd), by descriptor.
    static func deletedFiles() -> [Int32: String] {
        var result: [Int32: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let fd = Int32(name),
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
                target.hasSuffix(" (deleted)")
            else { continue }
            result[fd] = target
        }
        return result
    }

    /// The bytes of the file open as `fd`, read through a descriptor of its own.
    static func contents(ofDescriptor fd: Int32) -> [UInt8]? {
        (try? Data(contentsOf: URL(fileURLWithPath: "/proc/self/fd/\(fd)"))).map(Array.init)
    }

    @Test func keepsSmallContentInMemoryAndGivesItBack() throws {
        let spool = Spool(memoryLimit: 1024)
        #expect(spool.isEmpty)
        var buffer = ByteBuffer()
        buffer.append(string: "tracks first, ")
        try spool.append(&buffer)
        #expect(buffer.count == 0)
        buffer.append(string: "then routes")
        try spool.write(&buffer)
        #expect(spool.count == 25)
        let sink = CollectingSink()
        try spool.drain(into: sink)
        #expect(String(decoding: sink.bytes, as: UTF8.self) == "tracks first, then routes")
        #expect(spool.isEmpty)
    }

    /// Bytes copied out from any offset, across the file and memory parts, leave the spool as it was.
    @Test func copiesBytesFromAnyOffsetWithoutTakingThemOut() throws {
        let expected = Self.pattern(count: 20_000)
        let spool = Spool(memoryLimit: 3000)
        for start in stride(from: 0, to: expected.count, by: 700) {
            var buffer = ByteBuffer()
            buffer.append(contentsOf: Array(expected[start..<min(start + 700, expected.count)]))
            try spool.append(&buffer)
        }
        var copy = [UInt8](repeating: 0, count: 5000)
        for offset in [0, 1, 2999, 3500, 17_000, 19_990, 20_000] {
            let n = try copy.withUnsafeMutableBytes {
                try spool.copyBytes(from: offset, count: 5000, to: $0.baseAddress!)
            }
            #expect(n == min(5000, expected.count - offset))
            #expect(copy[0..<n].elementsEqual(expected[offset..<offset + n]), "from \(offset)")
        }
        let sink = CollectingSink()
        try spool.drain(into: sink)
        #expect(sink.bytes == expected)
    }

    @Test func spillsPastItsLimitToAnUnlinkedFileAndGivesTheBytesBackInOrder() throws {
        let limit = 4096
        let expected = Self.pattern(count: 300_000)
        let before = Self.deletedFiles()
        var spool: Spool? = Spool(memoryLimit: limit)
        // 1,000 bytes at a time: the spool passes its limit on the fifth append and spills, and again later.
        for start in stride(from: 0, to: expected.count, by: 1000) {
            var buffer = ByteBuffer()
            buffer.append(contentsOf: Array(expected[start..<min(start + 1000, expected.count)]))
            try spool?.append(&buffer)
        }
        #expect(spool?.count == expected.count)

        // The spilled bytes are in a file that has no name any more (created unlinked): it is found among the
        // open descriptors by its content. Buffered bytes may not have reached it yet, so it holds a prefix.
        let candidates = Self.deletedFiles().filter { before[$0.key] != $0.value }
        let spilled = candidates.compactMap { fd, _ -> (Int32, [UInt8])? in
            guard let bytes = Self.contents(ofDescriptor: fd), bytes.count > limit,
                bytes.elementsEqual(expected.prefix(bytes.count))
            else { return nil }
            return (fd, bytes)
        }
        #expect(spilled.count == 1, "\(candidates)")
        // More than the limit went to disk (at most one unflushed stdio buffer and the limit stay behind).
        #expect((spilled.first?.1.count ?? 0) > expected.count - 2 * limit - 8192)

        let sink = CollectingSink()
        try spool?.drain(into: sink)
        #expect(sink.bytes == expected)
        #expect(sink.writes > 1)
        #expect(spool?.isEmpty == true)

        // Drained, the spool can be used again, and the second drain gives only the new bytes.
        var more = ByteBuffer()
        more.append(contentsOf: Array(expected.prefix(5000)))
        try spool?.append(&more)
        let second = CollectingSink()
        try spool?.drain(into: second)
        #expect(second.bytes == Array(expected.prefix(5000)))

        // Released, it closes its file: the descriptor no longer reads the spooled bytes.
        spool = nil
        if let (fd, _) = spilled.first {
            let after = Self.contents(ofDescriptor: fd)
            #expect(after.map { !$0.elementsEqual(expected.prefix($0.count)) || $0.isEmpty } ?? true)
        }
    }
}
