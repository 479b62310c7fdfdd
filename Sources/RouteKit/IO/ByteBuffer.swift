/// A growable buffer of UTF-8 bytes that writers append to before the bytes reach a file.
///
/// Appending never fails; the owner decides when to drain it (see ``OutputStream`` and ``Spool``).
public struct ByteBuffer: Sendable {
    @usableFromInline var storage: [UInt8] = []

    /// The bytes appended so far.
    @inlinable public var bytes: [UInt8] { storage }

    /// An empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 0) {
        storage.reserveCapacity(capacity)
    }

    /// The number of bytes held.
    @inlinable public var count: Int { storage.count }

    /// True when nothing is held.
    @inlinable public var isEmpty: Bool { storage.isEmpty }

    /// Appends one byte.
    @inlinable public mutating func append(_ byte: UInt8) {
        storage.append(byte)
    }

    /// Appends a literal, such as `"{\"type\":"`.
    @inlinable public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { storage.append(contentsOf: $0) }
    }

    /// Appends the UTF-8 form of a string.
    @inlinable public mutating func append(string: String) {
        var s = string
        s.withUTF8 { storage.append(contentsOf: $0) }
    }

    /// Appends raw bytes.
    @inlinable public mutating func append<C: Collection>(contentsOf other: C) where C.Element == UInt8 {
        storage.append(contentsOf: other)
    }

    /// Drops everything after the first `count` bytes.
    @inlinable public mutating func truncate(to count: Int) {
        storage.removeSubrange(count...)
    }

    /// Empties the buffer and keeps its capacity.
    @inlinable public mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with the bytes held.
    @inlinable public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes(body)
    }
}

/// Somewhere bytes can be written: an ``OutputStream`` or a ``Spool``.
public protocol ByteSink: AnyObject {
    /// Takes the bytes of `buffer` and empties it.
    func write(_ buffer: inout ByteBuffer) throws
}
