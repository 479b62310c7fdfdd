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

/// Finding bytes eight at a time finds what a byte-by-byte search finds: the first of the bytes wanted, from
/// any start, in text of any length (every place in a word, the bytes after the last word), and high bytes
/// that only look like them (0x8A, 0x8D) are not taken for them.
@Suite struct ByteSearchTests {
    @Test func findsTheFirstOfTheBytesWantedAsAByteByByteSearch() {
        var random = SeededRandom(state: 5)
        let alphabet: [UInt8] = [0x2C, 0x0A, 0x0D, 0x41, 0x8A, 0x8D, 0xAC, 0x00, 0xFF, 0x22]
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...40, using: &random)
            let rare = Int.random(in: 0...3, using: &random) == 0
            let bytes = (0..<count).map { _ in
                rare && Bool.random(using: &random) ? 0x41 : alphabet.randomElement(using: &random)!
            }
            let start = Int.random(in: 0...count, using: &random)
            bytes.withUnsafeBufferPointer { text in
                let found = ByteSearch.firstIndex(of: 0x2C, 0x0A, 0x0D, in: text, from: start)
                let expected = text[start...].firstIndex { $0 == 0x2C || $0 == 0x0A || $0 == 0x0D } ?? count
                #expect(found == expected, "\(bytes) from \(start)")
                #expect(ByteSearch.isASCII(text) == text.allSatisfy { $0 < 0x80 })
            }
        }
    }
}
