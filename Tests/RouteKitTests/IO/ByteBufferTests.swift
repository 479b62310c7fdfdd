import RouteKit
import Testing

@Suite struct ByteBufferTests {
    @Test func appendsBytesLiteralsStringsAndRawMemoryInOrder() {
        var buffer = ByteBuffer(capacity: 4)
        buffer.append(UInt8(ascii: "["))
        buffer.append("\"Žiri\"")
        buffer.append(string: ",\"☃\"")
        buffer.append(contentsOf: Array(",1".utf8))
        [UInt8(ascii: "]")].withUnsafeBytes { buffer.append($0) }
        #expect(buffer.bytes == Array("[\"Žiri\",\"☃\",1]".utf8))
        #expect(buffer.count == "[\"Žiri\",\"☃\",1]".utf8.count)
    }

    @Test func growsFarBeyondItsFirstCapacityKeepingEveryByte() {
        var buffer = ByteBuffer(capacity: 1)
        let expected = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        for byte in expected { buffer.append(byte) }
        #expect(buffer.bytes == expected)
    }

    @Test func writesInPlaceUpToAMaximum() {
        var buffer = ByteBuffer()
        buffer.append("x=")
        buffer.append(maximum: 32) { pointer in
            for (i, byte) in "12.5".utf8.enumerated() { pointer[i] = byte }
            return 4
        }
        #expect(buffer.bytes == Array("x=12.5".utf8))
    }

    @Test func movesTruncatesAndEmpties() {
        var a = ByteBuffer()
        var b = ByteBuffer()
        a.append("abc")
        b.append("defgh")
        a.append(moving: &b)
        #expect(a.bytes == Array("abcdefgh".utf8))
        #expect(b.count == 0)
        a.truncate(to: 5)
        #expect(a.bytes == Array("abcde".utf8))
        a.truncate(to: 50)
        #expect(a.count == 5)
        a.truncate(to: -1)
        #expect(a.count == 0)
        a.append("z")
        a.removeAll()
        #expect(a.count == 0 && a.bytes.isEmpty)
    }
}
