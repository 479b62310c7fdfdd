import Glibc

/// A byte store that keeps up to a limit in memory and moves the rest to an anonymous temporary file.
///
/// Streaming writers use spools for what must be written later than it is read (GeoJSON puts per-point
/// times after the coordinates; tracks come before routes and waypoints): memory stays bounded whatever
/// the size of the input. The temporary file is unlinked at creation, so it vanishes with the process.
package final class Spool {
    private var memory = ByteBuffer()
    private var file: UnsafeMutablePointer<FILE>?
    private var fileBytes = 0
    private let memoryLimit: Int

    /// A spool that keeps up to `memoryLimit` bytes in memory.
    package init(memoryLimit: Int = 4 << 20) {
        self.memoryLimit = memoryLimit
    }

    deinit {
        if let file { fclose(file) }
    }

    /// The number of bytes held, in memory and on disk.
    package var count: Int { fileBytes + memory.count }

    /// True when nothing is held.
    package var isEmpty: Bool { count == 0 }

    /// Moves the bytes of `buffer` into the spool and empties `buffer`.
    package func append(_ buffer: inout ByteBuffer) throws {
        memory.append(moving: &buffer)
        if memory.count > memoryLimit { try spill() }
    }

    private func spill() throws {
        if file == nil {
            file = tmpfile()  // NULL on error, errno set
            guard file != nil else {
                throw IOError.writeFailed(path: "temporary file", reason: IOError.systemReason())
            }
        }
        let written = memory.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }  // short on error
        // 0, or EOF on error (a full disk shows here, not later as a failed read)
        guard written == memory.count, fflush(file) == 0 else {
            throw IOError.writeFailed(path: "temporary file", reason: IOError.systemReason())
        }
        fileBytes += written
        memory.removeAll()
    }

    /// Copies up to `count` of the bytes held, from `offset` on, to `destination` without taking them out;
    /// returns how many were copied (fewer only at the end). Readers of a spool in several places at once
    /// each keep their own offset.
    package func copyBytes(from offset: Int, count: Int, to destination: UnsafeMutableRawPointer) throws -> Int {
        var copied = 0
        if let file, offset < fileBytes {
            let size = min(count, fileBytes - offset)
            while copied < size {
                let n = pread(fileno(file), destination + copied, size - copied, off_t(offset + copied))  // -1 on error
                guard n > 0 else {
                    let reason = n == 0 ? "it ends before the bytes written to it" : IOError.systemReason()
                    throw IOError.readFailed(path: "temporary file", reason: reason)
                }
                copied += n
            }
        }
        let start = offset + copied - fileBytes
        guard copied < count, start < memory.count else { return copied }
        let size = min(count - copied, memory.count - start)
        memory.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }  // not empty: start < memory.count
            (destination + copied).copyMemory(from: base + start, byteCount: size)
        }
        return copied + size
    }

    /// Writes everything held to `sink`, in order, and empties the spool.
    package func drain(into sink: ByteSink) throws {
        if let file, fileBytes > 0 {
            fflush(file)
            rewind(file)
            var chunk = ByteBuffer(capacity: 1 << 20)
            var raw = [UInt8](repeating: 0, count: 1 << 20)
            var left = fileBytes
            while left > 0 {
                let size = min(raw.count, left)
                let n = raw.withUnsafeMutableBytes { fread($0.baseAddress, 1, size, file) }  // short on error
                guard n == size else {
                    throw IOError.readFailed(path: "temporary file", reason: IOError.systemReason())
                }
                raw.withUnsafeBytes { chunk.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                try sink.write(&chunk)
                left -= n
            }
            rewind(file)
            fileBytes = 0
        }
        try sink.write(&memory)
    }
}

extension Spool: ByteSink {
    /// Moves the bytes of `buffer` into the spool; see ``append(_:)``.
    package func write(_ buffer: inout ByteBuffer) throws {
        try append(&buffer)
    }
}
