import Glibc

/// The whole of a file's bytes in memory, read-only: the file mapped into memory when it can be (no copy,
/// and the pages are shared with the system's file cache), or a copy of bytes read or converted before.
///
/// A mapped file must not shrink while it is read (RouteKit itself replaces files by renaming a new one
/// over them, which leaves the mapped one whole).
package final class FileBytes: @unchecked Sendable {
    /// The bytes, from ``skipping`` on; valid as long as this object lives.
    package private(set) var buffer: UnsafeBufferPointer<UInt8>
    /// The mapping, or the copy.
    private let storage: UnsafeMutableRawPointer?
    private let mappedLength: Int

    /// A regular file's bytes, mapped; nil when it cannot be mapped (standard input, a pipe, a device, an
    /// empty file, or a system that refuses).
    init?(mapping fd: Int32, length: Int) {
        guard length > 0 else { return nil }
        let address = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0)  // MAP_FAILED on error
        guard let address, address != MAP_FAILED else { return nil }
        storage = address
        mappedLength = length
        buffer = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: length)
    }

    /// A copy of bytes already read.
    package init(_ bytes: [UInt8]) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        _ = copy.initialize(from: bytes)
        storage = UnsafeMutableRawPointer(copy.baseAddress)
        mappedLength = 0
        buffer = UnsafeBufferPointer(start: copy.baseAddress, count: bytes.count)
    }

    deinit {
        guard let storage else { return }
        if mappedLength > 0 { munmap(storage, mappedLength) } else { storage.deallocate() }
    }

    /// Tells the system the bytes will be read here and there, not in order: a mapped file's pages are then
    /// read one at a time as they are touched, without their neighbours (which would count in the process's
    /// memory without being used).
    package func expectRandomReads() {
        guard mappedLength > 0, let storage else { return }
        madvise(storage, mappedLength, MADV_RANDOM)  // -1 on error: only a hint, nothing to undo
    }

    /// Leaves out the first `count` bytes (a byte-order mark).
    package func skip(_ count: Int) {
        buffer = UnsafeBufferPointer(rebasing: buffer[min(count, buffer.count)...])
    }
}
