/// A growable buffer of UTF-8 bytes that writers append to before the bytes reach a file.
///
/// Writers append to it a byte or a few at a time, millions of times per file, so it is a plain block of
/// memory rather than an array: an append is a store and an increment, with no reference counting or
/// uniqueness check. It cannot be copied (it owns its memory and frees it when it goes away); pass it
/// `inout`. The owner decides when to drain it (see ``OutputStream`` and ``Spool``).
package struct ByteBuffer: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var used: Int

    /// The number of bytes held.
    @inlinable package var count: Int { used }

    /// An empty buffer with room for `capacity` bytes before it grows.
    package init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
        used = 0
    }

    deinit {
        base.deallocate()
    }

    /// True when nothing is held.
    @inlinable package var isEmpty: Bool { count == 0 }

    /// A copy of the bytes held.
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    @usableFromInline mutating func grow(toHold extra: Int) {
        var newCapacity = capacity * 2
        while newCapacity < count + extra { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends one byte.
    @inlinable @inline(__always) package mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: 1) }
        base[used] = byte
        used += 1
    }

    /// Lets `body` write up to `maximum` bytes in place; it returns how many it wrote.
    @inlinable package mutating func append(maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if used + maximum > capacity { grow(toHold: maximum) }
        used += body(base + used)
    }

    /// Appends a literal, such as `"{\"type\":"`.
    @inlinable package mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends the UTF-8 form of a string.
    package mutating func append(string: String) {
        var s = string
        s.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends raw bytes.
    @inlinable package mutating func append(_ raw: UnsafeRawBufferPointer) {
        let n = raw.count
        guard n > 0 else { return }
        if count + n > capacity { grow(toHold: n) }
        guard let source = raw.baseAddress else { return }  // empty bytes: nothing to append
        UnsafeMutableRawPointer(base + used).copyMemory(from: source, byteCount: n)
        used += n
    }

    /// Appends bytes.
    @inlinable package mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        append(UnsafeRawBufferPointer(bytes))
    }

    /// Appends bytes.
    package mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends everything `other` holds and empties it.
    package mutating func append(moving other: inout ByteBuffer) {
        other.withUnsafeBytes { append($0) }
        other.removeAll()
    }

    /// Drops everything after the first `count` bytes.
    package mutating func truncate(to count: Int) {
        used = min(used, max(0, count))
    }

    /// Empties the buffer and keeps its memory.
    @inlinable package mutating func removeAll() {
        used = 0
    }

    /// Calls `body` with the bytes held.
    @inlinable package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }
}

/// Somewhere bytes can be written: an ``OutputStream`` or a ``Spool``.
package protocol ByteSink: AnyObject {
    /// Takes the bytes of `buffer` and empties it.
    func write(_ buffer: inout ByteBuffer) throws
}

/// The FNV-1a hash of bytes, 64 bits: quick, and spread well enough for hash tables and file names.
enum FNV {
    static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in bytes { hash = (hash ^ UInt64(c)) &* 0x100_0000_01b3 }
        return hash
    }
}
