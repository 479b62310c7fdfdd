import Glibc

/// A file (or standard input, named `-`, or bytes already in memory) read in chunks, in constant memory.
public final class InputFile {
    /// The name used in messages: the path, or `-` for standard input.
    public let path: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var peeked: [UInt8] = []
    private var peekedOffset = 0
    /// The size of a regular file, in bytes; nil for standard input, pipes and devices.
    package private(set) var byteCount: Int64?
    /// Counts the bytes handed out by ``read(into:)``, for a progress bar.
    package var progress: ProgressCounter?
    /// Which file this is and its state when opened (a regular file only): what a cache of what was read
    /// from it is checked against.
    package private(set) var identity: FileIdentity?

    /// Opens `path` for reading; `-` is standard input.
    ///
    /// - Throws: ``IOError/cannotOpen(path:reason:)`` when the file does not exist, cannot be read or is a
    ///   folder.
    public init(path: String) throws {
        self.path = path
        if path == "-" {
            fd = STDIN_FILENO
            ownsDescriptor = false
            return
        }
        let opened = open(path, O_RDONLY | O_CLOEXEC)  // -1 on error, errno set
        guard opened >= 0 else { throw IOError.cannotOpen(path: path, reason: IOError.systemReason()) }
        var info = stat()
        if fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {  // -1 on error: then read() tells
            close(opened)
            throw IOError.cannotOpen(path: path, reason: "is a directory")
        }
        if (info.st_mode & S_IFMT) == S_IFREG {
            byteCount = Int64(info.st_size)
            identity = FileIdentity(info)
        }
        fd = opened
        ownsDescriptor = true
    }

    /// Bytes already in memory (a file read from an archive), read like a file named `name`.
    public init(name: String, bytes: [UInt8]) {
        path = name
        fd = -1
        ownsDescriptor = false
        peeked = bytes
        byteCount = Int64(bytes.count)
    }

    deinit {
        if ownsDescriptor { close(fd) }
    }

    /// Reads up to `buffer.count` bytes into `buffer`; returns how many were read, 0 at the end of the file.
    ///
    /// - Throws: ``IOError/readFailed(path:reason:)`` when the system reports an error.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if peekedOffset < peeked.count {
            let n = min(buffer.count, peeked.count - peekedOffset)
            peeked.withUnsafeBytes { source in
                guard let from = source.baseAddress, let to = buffer.baseAddress else { return }  // n > 0: both exist
                to.copyMemory(from: from + peekedOffset, byteCount: n)
            }
            peekedOffset += n
            progress?.advance(by: Int64(n))
            return n
        }
        guard fd >= 0 else { return 0 }  // in memory: nothing beyond the bytes
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)  // -1 on error, errno set
            if n >= 0 {
                progress?.advance(by: Int64(n))
                return n
            }
            if errno == EINTR { continue }
            throw IOError.readFailed(path: path, reason: IOError.systemReason())
        }
    }

    /// The file's identity now (nil for standard input, a pipe or a device, or when `fstat` fails): differs
    /// from ``identity`` when the file changed since it was opened.
    package func identityNow() -> FileIdentity? {
        var info = stat()
        guard identity != nil, fstat(fd, &info) == 0 else { return nil }  // -1 on error
        return FileIdentity(info)
    }

    /// The first `count` bytes (fewer if the input is shorter), without consuming them: later reads
    /// return them again. For telling formats apart; works on standard input too.
    public func peek(_ count: Int) throws -> [UInt8] {
        if peeked.count >= count || peekedOffset > 0 || fd < 0 { return Array(peeked.prefix(count)) }
        var chunk = [UInt8](repeating: 0, count: count - peeked.count)
        var filled = 0
        while filled < chunk.count {
            let n = try chunk.withUnsafeMutableBytes { raw -> Int in
                let rest = UnsafeMutableRawBufferPointer(rebasing: raw[filled...])
                while true {
                    let r = Glibc.read(fd, rest.baseAddress, rest.count)  // -1 on error, errno set
                    if r >= 0 { return r }
                    if errno == EINTR { continue }
                    throw IOError.readFailed(path: path, reason: IOError.systemReason())
                }
            }
            if n == 0 { break }
            filled += n
        }
        peeked.append(contentsOf: chunk[0..<filled])
        return peeked
    }

    /// The whole input: a regular file mapped into memory (nothing copied), anything else read.
    package func mapAll() throws -> FileBytes {
        if peekedOffset == 0, fd >= 0, let byteCount, byteCount > 0,
            let mapped = FileBytes(mapping: fd, length: Int(byteCount))
        {
            progress?.advance(by: byteCount)
            return mapped
        }
        return FileBytes(try readAll())
    }

    /// Reads the whole input into memory. For small files only (fixtures, JSON side files).
    public func readAll() throws -> [UInt8] {
        var result: [UInt8] = []
        if let byteCount, byteCount > 0 {
            // A regular file: straight into storage of its size, touched once (the loop below reads what
            // a file that grew meanwhile has more).
            let size = Int(byteCount)
            result = try [UInt8](unsafeUninitializedCapacity: size) { storage, initialized in
                while initialized < size {
                    let n = try read(
                        into: UnsafeMutableRawBufferPointer(
                            UnsafeMutableBufferPointer(rebasing: storage[initialized...])))
                    if n == 0 { break }
                    initialized += n
                }
            }
            if result.count < size { return result }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if n == 0 { return result }
            result.append(contentsOf: chunk[0..<n])
        }
    }
}

/// A regular file as `stat` tells it apart: its device and inode, and its size and times of last change. A file
/// replaced (renamed over), written or truncated since differs in one of them.
package struct FileIdentity: Equatable, Sendable {
    package var device: Int64
    package var inode: Int64
    package var size: Int64
    /// The time of the last change of the contents (`st_mtim`), seconds and nanoseconds.
    package var modified: (seconds: Int64, nanoseconds: Int64)
    /// The time of the last change of the contents or the attributes (`st_ctim`).
    package var changed: (seconds: Int64, nanoseconds: Int64)

    /// The identity `fstat` or `stat` gave.
    init(_ info: stat) {
        device = Int64(bitPattern: UInt64(info.st_dev))
        inode = Int64(bitPattern: UInt64(info.st_ino))
        size = Int64(info.st_size)
        modified = (Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec))
        changed = (Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec))
    }

    /// The seven numbers, in the order above.
    package var values: [Int64] {
        [device, inode, size, modified.seconds, modified.nanoseconds, changed.seconds, changed.nanoseconds]
    }

    package static func == (a: FileIdentity, b: FileIdentity) -> Bool { a.values == b.values }

    /// True when the file last changed longer ago than its times can tell apart (2 s where they are whole
    /// seconds, as on some file systems; 10 ms where they have nanoseconds, a few of the kernel's ticks): a
    /// change made from now on will show in them.
    package var isSettled: Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)  // cannot fail for CLOCK_REALTIME
        let coarse = modified.nanoseconds == 0 && changed.nanoseconds == 0
        let last = max(
            modified.seconds * 1_000_000_000 + modified.nanoseconds,
            changed.seconds * 1_000_000_000 + changed.nanoseconds)
        return last + (coarse ? 2_000_000_000 : 10_000_000) < Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
