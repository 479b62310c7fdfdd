/// Finding bytes in text eight at a time: the bytes of a word that equal a byte wanted are the zero bytes of
/// the word XOR that byte in every place, and the lowest of them, the first in the text, is found exactly
/// (the borrows of the test reach only the bytes above a zero one).
package enum ByteSearch {
    private static let ones: UInt64 = 0x0101_0101_0101_0101

    /// The first index from `start` on whose byte is `a`, `b` or `c`; `text.count` for none.
    @inline(__always)
    package static func firstIndex(
        of a: UInt8, _ b: UInt8, _ c: UInt8, in text: UnsafeBufferPointer<UInt8>, from start: Int
    ) -> Int {
        let n = text.count
        var i = start
        #if _endian(little)
            if let base = text.baseAddress {
                let (wa, wb, wc) = (UInt64(a) &* ones, UInt64(b) &* ones, UInt64(c) &* ones)
                while i &+ 8 <= n {
                    let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    let found = zeroBytes(word ^ wa) | zeroBytes(word ^ wb) | zeroBytes(word ^ wc)
                    if found != 0 { return i &+ found.trailingZeroBitCount >> 3 }
                    i &+= 8
                }
            }
        #endif
        while i < n {
            let byte = text[i]
            if byte == a || byte == b || byte == c { return i }
            i += 1
        }
        return n
    }

    /// True when every byte of `bytes` is ASCII.
    @inline(__always)
    package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var any: UInt64 = 0
        var i = 0
        if let base = bytes.baseAddress {
            while i &+ 8 <= bytes.count {
                any |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                i &+= 8
            }
        }
        while i < bytes.count {
            any |= UInt64(bytes[i])
            i += 1
        }
        return any & (ones &* 0x80) == 0
    }

    /// A word with the top bit set in the lowest byte of `x` that is zero (and maybe in bytes above it).
    @inline(__always)
    private static func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & (ones &* 0x80) }
}
