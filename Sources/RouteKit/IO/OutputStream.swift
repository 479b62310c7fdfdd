import Glibc

/// A buffered byte output to standard output or to a file that is written atomically.
///
/// A file output is written to a temporary file beside the target (`.NAME.XXXXXX`) and renamed over the
/// target by ``commit()``: readers of the target see either the old file or the complete new one, never a
/// half-written one. An output that is not committed removes its temporary file when it is released.
public final class OutputStream: ByteSink {
    /// The name used in messages: the target path, or `-` for standard output.
    public let path: String
    private var fd: Int32
    private var temporaryPath: String?
    private var signalSlot: Int?
    private let ownsDescriptor: Bool
    private var pending: [UInt8] = []
    private let flushThreshold = 1 << 20
    /// Bytes written at once from this many on are not buffered.
    private let directThreshold = 1 << 16

    /// Standard output.
    public static func standardOutput() -> OutputStream {
        OutputStream(path: "-", fd: STDOUT_FILENO, temporaryPath: nil)
    }

    private init(path: String, fd: Int32, temporaryPath: String?, signalSlot: Int? = nil, ownsDescriptor: Bool = false)
    {
        self.path = path
        self.fd = fd
        self.temporaryPath = temporaryPath
        self.signalSlot = signalSlot
        self.ownsDescriptor = ownsDescriptor || temporaryPath != nil
        pending.reserveCapacity(flushThreshold + (1 << 16))
    }

    /// Makes SIGINT, SIGTERM and SIGHUP remove every temporary output before the process ends, and lets
    /// these signals through even when the parent started the process with them blocked.
    ///
    /// Call it first thing on the main thread, before any other thread starts (threads inherit the signal
    /// mask). Without it the first output file installs the handlers, and signals the parent blocked stay blocked.
    package static func removeTemporaryFilesOnInterrupt() {
        TemporaryFiles.prepare()
    }

    /// Opens an atomic output for `path`; `-` is standard output.
    ///
    /// - Throws: ``IOError/cannotCreate(path:reason:)`` when the folder does not exist or may not be written.
    public static func create(path: String) throws -> OutputStream {
        if path == "-" { return standardOutput() }
        // A device or a pipe (/dev/null, /dev/stdout, a FIFO) is written in place: it cannot be replaced.
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFDIR {
            let opened = open(path, O_WRONLY | O_CLOEXEC)  // -1 on error, errno set
            guard opened >= 0 else { throw IOError.cannotCreate(path: path, reason: IOError.systemReason()) }
            return OutputStream(path: path, fd: opened, temporaryPath: nil, ownsDescriptor: true)
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        if name.isEmpty { throw IOError.cannotCreate(path: path, reason: "is a directory") }
        // The temporary name is registered for removal on a signal before the file exists, so that an
        // interrupt at any moment leaves nothing behind (mkstemp would create it before it could be registered).
        var attempts = 0
        while true {
            let suffix = String(UInt64.random(in: 0..<(1 << 40)), radix: 36)
            let temporary = "\(folder).\(name).\(suffix)"
            let slot = TemporaryFiles.register(temporary)
            let created = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)  // -1 on error, errno set
            if created < 0 {
                let failure = errno
                if let slot { TemporaryFiles.release(slot) }
                attempts += 1
                if failure == EEXIST && attempts < 100 { continue }
                throw IOError.cannotCreate(path: path, reason: IOError.systemReason(failure))
            }
            return OutputStream(path: path, fd: created, temporaryPath: temporary, signalSlot: slot)
        }
    }

    deinit {
        if let signalSlot { TemporaryFiles.release(signalSlot) }
        if let temporaryPath {
            close(fd)
            unlink(temporaryPath)
        } else if ownsDescriptor && fd >= 0 {
            close(fd)
        }
    }

    /// Appends bytes, writing them out when enough have gathered.
    package func write(_ buffer: inout ByteBuffer) throws {
        try buffer.withUnsafeBytes { try write(bytes: $0) }
        buffer.removeAll()
    }

    /// Appends raw bytes.
    package func write(bytes: UnsafeRawBufferPointer) throws {
        if pending.count + bytes.count > flushThreshold { try flush() }
        // Many bytes at once are written as they are, not copied first (what is pending goes before them).
        if bytes.count >= directThreshold {
            if !pending.isEmpty { try flush() }
            try writeAll(bytes)
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    /// Writes out what is buffered.
    public func flush() throws {
        try pending.withUnsafeBytes { try writeAll($0) }
        pending.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            guard let start = bytes.baseAddress else { return }  // no bytes: nothing to write
            let n = Glibc.write(fd, start + offset, bytes.count - offset)  // -1 on error, errno set
            if n < 0 {
                if errno == EINTR { continue }
                throw IOError.writeFailed(path: path, reason: IOError.systemReason())
            }
            offset += n
        }
    }

    /// Writes out what is buffered and, for a file, renames the complete file over the target.
    ///
    /// - Throws: ``IOError/writeFailed(path:reason:)`` when the data cannot be written or the rename fails;
    ///   the target is then left as it was.
    public func commit() throws {
        try flush()
        guard let temporaryPath else { return }
        // close reports deferred write errors (NFS, quota): -1 on error.
        let closed = close(fd)
        fd = -1
        if closed != 0 {
            let reason = IOError.systemReason()
            unlink(temporaryPath)
            self.temporaryPath = nil
            throw IOError.writeFailed(path: path, reason: reason)
        }
        if rename(temporaryPath, path) != 0 {  // -1 on error, errno set
            let reason = IOError.systemReason()
            unlink(temporaryPath)
            self.temporaryPath = nil
            throw IOError.writeFailed(path: path, reason: reason)
        }
        self.temporaryPath = nil
        if let signalSlot { TemporaryFiles.release(signalSlot) }
        signalSlot = nil
    }
}
