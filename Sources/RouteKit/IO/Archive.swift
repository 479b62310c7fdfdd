internal import CArchive
import Glibc

/// Why an archive (a ZIP bundle) could not be read.
public enum ArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a ZIP archive, or a damaged one.
    case malformed(path: String, reason: String)
    /// Expanding the archive's files would pass the limit: a ZIP bomb, or far more than a bundle holds.
    case tooLarge(path: String, limitBytes: Int)
    /// More entries than the limit.
    case tooManyEntries(path: String, limit: Int)
    /// Archives inside archives deeper than the limit.
    case nestedTooDeep(path: String, limit: Int)
    /// A readable archive without the file it must hold (`what`: "a .kml file" for a KMZ).
    case missingFile(path: String, what: String)

    public var description: String {
        switch self {
        case let .malformed(path, reason): return "\(path): not a readable ZIP archive: \(reason)"
        case let .tooLarge(path, limit):
            return "\(path): refused: its files would expand to more than \(limit / (1 << 20)) MiB (a ZIP bomb?)"
        case let .tooManyEntries(path, limit): return "\(path): refused: more than \(limit) entries"
        case let .nestedTooDeep(path, limit): return "\(path): refused: archives nested more than \(limit) deep"
        case let .missingFile(path, what): return "\(path): a ZIP archive without \(what)"
        }
    }
}

/// How much an archive, with the archives inside it, may expand to. One budget is shared by an archive and
/// every archive read from inside it, so nesting cannot multiply it.
struct ExpansionBudget {
    /// Bytes of file content that may still be read.
    var bytes: Int
    /// Entries (files, folders, links) that may still be listed.
    var entries: Int
    /// The limits this budget started from, for messages.
    let byteLimit: Int
    let entryLimit: Int

    init(bytes: Int, entries: Int) {
        self.bytes = bytes
        self.entries = entries
        byteLimit = bytes
        entryLimit = entries
    }

    /// 512 MiB and 100,000 entries: a route of 41 stages is 12 MB in 44 files.
    static var standard: ExpansionBudget { ExpansionBudget(bytes: 512 << 20, entries: 100_000) }
}

/// A regular file read from an archive.
struct ArchiveEntry {
    /// Its path inside the archive, as written there (never used as a path on this machine).
    var path: String
    var bytes: [UInt8]
}

/// Reads ZIP archives with libarchive. Only regular files are read; folders, links and devices are passed
/// over. Paths inside the archive are data: nothing is ever written where they point. Only ZIP is enabled:
/// its entries are found through the central directory, so an entry that is not wanted is never expanded
/// (in a compressed tar, skipping an entry means expanding it, which a size limit on wanted files would not
/// see).
enum ArchiveReader {
    /// The regular files of the archive at `path` whose paths `wanted` accepts, read into memory.
    ///
    /// - Throws: ``IOError/cannotOpen(path:reason:)`` when the file cannot be opened, ``ArchiveError`` when it
    ///   is no archive, is damaged, or would pass `budget`.
    static func files(
        atPath path: String, budget: inout ExpansionBudget, wanted: (String) -> Bool
    ) throws -> [ArchiveEntry] {
        _ = try InputFile(path: path)  // a missing or unreadable file is an input error (66), not bad data
        let archive = try Handle(name: path)
        // ARCHIVE_OK or an error code; archive_error_string says why
        guard archive.library.openFile(archive.pointer, path, 1 << 16) == ARCHIVE_OK else {
            throw ArchiveError.malformed(path: path, reason: archive.errorText)
        }
        return try archive.files(budget: &budget, wanted: wanted)
    }

    /// The same for an archive held in memory (an archive inside an archive); `name` is used in messages.
    static func files(
        in bytes: [UInt8], name: String, budget: inout ExpansionBudget, wanted: (String) -> Bool
    ) throws -> [ArchiveEntry] {
        let archive = try Handle(name: name)
        return try bytes.withUnsafeBytes { raw in
            // The memory must stay valid until the archive is closed: both happen inside this closure.
            // ARCHIVE_OK or an error code
            guard archive.library.openMemory(archive.pointer, raw.baseAddress, raw.count) == ARCHIVE_OK else {
                throw ArchiveError.malformed(path: name, reason: archive.errorText)
            }
            defer { _ = archive.library.close(archive.pointer) }
            return try archive.files(budget: &budget, wanted: wanted)
        }
    }

    /// One libarchive reading handle.
    private final class Handle {
        let pointer: OpaquePointer
        let name: String
        let library: ArchiveLibrary

        init(name: String) throws {
            library = try ArchiveLibrary.shared.get(orThrow: { ArchiveError.malformed(path: name, reason: $0) })
            guard let handle = library.readNew() else {  // NULL when out of memory
                throw ArchiveError.malformed(path: name, reason: "libarchive could not start")
            }
            pointer = handle
            self.name = name
            // ARCHIVE_OK, or ARCHIVE_FATAL when libarchive was built without ZIP support (then opening says so)
            _ = library.supportZip(handle)
        }

        deinit { _ = library.readFree(pointer) }

        var errorText: String {
            let text = library.errorString(pointer).map { String(cString: $0) } ?? "unknown archive error"
            // What libarchive says of a file that is no ZIP at all (a GPX given as the bundle, say).
            return text == "Unrecognized archive format"
                ? "not a ZIP file (give the bundle as a ZIP or a folder)" : text
        }

        func files(budget: inout ExpansionBudget, wanted: (String) -> Bool) throws -> [ArchiveEntry] {
            // libarchive converts names to the locale's character set; a process that never set its locale
            // is in "C" (ASCII), where "Pot čez …/" has no name at all. UTF-8 for this thread only, meanwhile.
            let utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)  // nil when the system lacks C.UTF-8
            let previous = utf8.map { uselocale($0) }
            defer {
                if let previous { uselocale(previous) }
                if let utf8 { freelocale(utf8) }
            }
            var result: [ArchiveEntry] = []
            var entry: OpaquePointer?
            while true {
                // ARCHIVE_OK, ARCHIVE_EOF at the end, ARCHIVE_WARN (usable), ARCHIVE_RETRY or ARCHIVE_FATAL
                let status = library.nextHeader(pointer, &entry)
                if status == ARCHIVE_EOF { return result }
                guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                    throw ArchiveError.malformed(path: name, reason: errorText)
                }
                budget.entries -= 1
                guard budget.entries >= 0 else {
                    throw ArchiveError.tooManyEntries(path: name, limit: budget.entryLimit)
                }
                // A regular file (not a folder, link or device).
                guard library.fileType(entry) == routekit_AE_IFREG, library.hardlink(entry) == nil else { continue }
                // The UTF-8 name (ZIPs mark names as UTF-8; without a locale the plain name can be NULL for
                // "Pot čez …/"), else the name as stored, invalid UTF-8 repaired. NULL when there is none.
                guard let cName = library.pathnameUTF8(entry) ?? library.pathname(entry) else {
                    throw ArchiveError.malformed(path: name, reason: "an entry has no readable name")
                }
                let path = String(cString: cName)
                guard wanted(path) else { continue }
                var declared = 0
                if library.sizeIsSet(entry) != 0 {
                    let size = library.size(entry)
                    guard size <= budget.bytes else {
                        throw ArchiveError.tooLarge(path: name, limitBytes: budget.byteLimit)
                    }
                    declared = Int(max(size, 0))
                }
                result.append(ArchiveEntry(path: path, bytes: try data(reserving: declared, budget: &budget)))
            }
        }

        /// The current entry's content, counted against the budget as it is expanded.
        private func data(reserving declared: Int, budget: inout ExpansionBudget) throws -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(declared)  // at most the budget left: growing by doubling could take twice that
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                // bytes read, 0 at the end of the entry, negative on error
                let n = chunk.withUnsafeMutableBytes { library.readData(pointer, $0.baseAddress, $0.count) }
                if n == 0 { return bytes }
                guard n > 0 else { throw ArchiveError.malformed(path: name, reason: errorText) }
                budget.bytes -= n
                guard budget.bytes >= 0 else { throw ArchiveError.tooLarge(path: name, limitBytes: budget.byteLimit) }
                bytes.append(contentsOf: chunk[0..<n])
            }
        }
    }
}

extension InputFormat {
    /// Opens the file at `path` (`-`: standard input) and recognises its format from the content. A KMZ (a
    /// ZIP holding KML, as Google Earth and My Maps export) is opened as the KML document inside it:
    /// `doc.kml`, else the first `.kml` file, expanded into memory within the archive's expansion budget;
    /// its images and other files are passed over. The format is nil when the content is none RouteKit reads.
    ///
    /// - Throws: ``IOError`` when the file cannot be opened or read, ``ArchiveError`` for a damaged archive,
    ///   one that would expand past the budget, or a ZIP without a `.kml` file.
    package static func open(path: String) throws -> (file: InputFile, format: InputFormat?) {
        let file = try InputFile(path: path)
        // A ZIP starts with its first file's header, or, when it holds none, with its end record.
        let head = try file.peek(4)
        guard head == [0x50, 0x4B, 0x03, 0x04] || head == [0x50, 0x4B, 0x05, 0x06] else {
            return (file, try detect(file))
        }
        var budget = ExpansionBudget.standard
        let isKML = { (name: String) in name.lowercased().hasSuffix(".kml") }
        // A regular file is opened again by name (libarchive seeks to its central directory); standard input
        // and pipes, which cannot be read twice, are read into memory.
        let entries =
            file.byteCount == nil
            ? try ArchiveReader.files(in: try file.readAll(), name: path, budget: &budget, wanted: isKML)
            : try ArchiveReader.files(atPath: path, budget: &budget, wanted: isKML)
        guard let document = entries.first(where: { $0.path.lowercased() == "doc.kml" }) ?? entries.first else {
            throw ArchiveError.missingFile(path: path, what: "a .kml file (so not a KMZ)")
        }
        let inner = InputFile(name: path + " › " + document.path, bytes: document.bytes)
        return (inner, try detect(inner))
    }
}

/// A byte sink that writes what it is given as the one file of a ZIP archive (deflated, its size in a data
/// descriptor after it, so nothing is held back), into another sink: a KMZ's `doc.kml`, written as the KML
/// streams by. ``close()`` ends the archive; the bytes reach `output` in order as libarchive makes them.
package final class ZipFileSink: ByteSink {
    private let archive: OpaquePointer
    private let library: ArchiveLibrary
    private let output: any ByteSink
    private let name: String
    /// What the output threw inside libarchive's write callback, thrown again here.
    private var failure: Error?
    private var closed = false
    /// Set when the archive is abandoned: what libarchive still writes is dropped.
    private var discarding = false

    /// Starts an archive whose one file is named `entryName`.
    ///
    /// - Throws: ``IOError/writeFailed(path:reason:)`` when libarchive cannot start it.
    package init(entryName: String, into output: any ByteSink, name: String) throws {
        let library = try ArchiveLibrary.shared.get(orThrow: { IOError.writeFailed(path: name, reason: $0) })
        guard let archive = library.writeNew() else {  // NULL when out of memory
            throw IOError.writeFailed(path: name, reason: "libarchive could not start")
        }
        self.archive = archive
        self.library = library
        self.output = output
        self.name = name
        // ARCHIVE_OK or ARCHIVE_FATAL (then opening fails too, and says why)
        _ = library.setFormatZip(archive)
        _ = library.setBytesInLastBlock(archive, 1)  // no padding after the archive
        // An entry of unknown size gets Zip64 fields by default, which some KMZ readers do not take; a KML
        // over 4 GiB would need them. ARCHIVE_OK, else an error archive_error_string explains.
        guard library.setOptions(archive, "zip:!zip64") == ARCHIVE_OK else { throw takeError() }
        let context = Unmanaged.passUnretained(self).toOpaque()
        // ARCHIVE_OK, else an error archive_error_string explains
        let opened = library.writeOpen(
            archive, context, nil,
            { _, context, bytes, count in
                guard let context, let bytes else { return -1 }
                let sink = Unmanaged<ZipFileSink>.fromOpaque(context).takeUnretainedValue()
                // After a failure (or once abandoned) bytes are taken and dropped: libarchive, told of no
                // error, stays able to end the entry and free its compressor (a failed write would leak it).
                guard sink.failure == nil && !sink.discarding else { return count }
                do {
                    var buffer = ByteBuffer(capacity: count)
                    buffer.append(UnsafeRawBufferPointer(start: bytes, count: count))
                    try sink.output.write(&buffer)
                } catch {
                    sink.failure = error
                }
                return count
            }, nil)
        guard opened == ARCHIVE_OK else { throw takeError() }
        guard let entry = library.entryNew() else { throw IOError.writeFailed(path: name, reason: "out of memory") }
        defer { library.entryFree(entry) }
        library.setPathnameUTF8(entry, entryName)
        // A regular file readable by all.
        library.setFileType(entry, routekit_AE_IFREG)
        library.setPermissions(entry, 0o644)
        // A fixed date (ZIP's first, 1980-01-01), so that the same input always makes the same bytes.
        library.setModificationTime(entry, 315_532_800, 0)
        guard library.writeHeader(archive, entry) == ARCHIVE_OK else { throw takeError() }  // ARCHIVE_OK or an error
    }

    deinit {
        // Unless closed, the archive is abandoned (after a failed conversion): freeing it ends it, into nothing.
        if !closed { discarding = true }
        _ = library.writeFree(archive)
    }

    /// Compresses the bytes of `buffer` into the archive and empties `buffer`.
    package func write(_ buffer: inout ByteBuffer) throws {
        try buffer.withUnsafeBytes { bytes in
            var done = 0
            guard let base = bytes.baseAddress else { return }
            while done < bytes.count {
                // bytes taken, or negative on error
                let n = library.writeData(archive, base + done, bytes.count - done)
                guard n > 0, failure == nil else { throw takeError() }
                done += n
            }
        }
        buffer.removeAll()
    }

    /// Ends the file and the archive (its central directory), handing the last bytes to the output.
    package func close() throws {
        guard !closed else { return }
        closed = true
        // ARCHIVE_OK or an error
        guard library.finishEntry(archive) == ARCHIVE_OK, library.writeClose(archive) == ARCHIVE_OK,
            failure == nil
        else { throw takeError() }
    }

    /// The output's own error when it failed, else libarchive's.
    private func takeError() -> Error {
        if let failure { return failure }
        let reason = library.errorString(archive).map { String(cString: $0) } ?? "unknown archive error"
        return IOError.writeFailed(path: name, reason: reason)
    }
}

/// The functions of libarchive that ``ArchiveReader`` and ``ZipFileSink`` call, looked up the first time an
/// archive is read or written.
///
/// RouteKit does not link libarchive: the library and the compression libraries it needs made every run of
/// `routekit` map them and resolve their symbols at start-up, while only a ZIP bundle or a KMZ uses them. The
/// library is opened by the name its development package installs (`libarchive.so`), else by its soname
/// (`libarchive.so.13`).
struct ArchiveLibrary: @unchecked Sendable {
    typealias Archive = OpaquePointer
    typealias Entry = OpaquePointer
    let readNew: @convention(c) () -> Archive?
    let supportZip: @convention(c) (Archive?) -> Int32
    let openFile: @convention(c) (Archive?, UnsafePointer<CChar>?, Int) -> Int32
    let openMemory: @convention(c) (Archive?, UnsafeRawPointer?, Int) -> Int32
    let nextHeader: @convention(c) (Archive?, UnsafeMutablePointer<Entry?>?) -> Int32
    let readData: @convention(c) (Archive?, UnsafeMutableRawPointer?, Int) -> Int
    let close: @convention(c) (Archive?) -> Int32
    let readFree: @convention(c) (Archive?) -> Int32
    let errorString: @convention(c) (Archive?) -> UnsafePointer<CChar>?
    let fileType: @convention(c) (Entry?) -> UInt32
    let hardlink: @convention(c) (Entry?) -> UnsafePointer<CChar>?
    let pathnameUTF8: @convention(c) (Entry?) -> UnsafePointer<CChar>?
    let pathname: @convention(c) (Entry?) -> UnsafePointer<CChar>?
    let sizeIsSet: @convention(c) (Entry?) -> Int32
    let size: @convention(c) (Entry?) -> Int64
    let writeNew: @convention(c) () -> Archive?
    let setFormatZip: @convention(c) (Archive?) -> Int32
    let setBytesInLastBlock: @convention(c) (Archive?, Int32) -> Int32
    let setOptions: @convention(c) (Archive?, UnsafePointer<CChar>?) -> Int32
    /// libarchive's callback that takes the bytes of the archive written (the archive, the context given, the
    /// bytes, their count; returns the count taken, or -1).
    typealias WriteCallback = @convention(c) (Archive?, UnsafeMutableRawPointer?, UnsafeRawPointer?, Int) -> Int
    /// Its callbacks when the archive opens and closes (0, else a negative error).
    typealias OpenCloseCallback = @convention(c) (Archive?, UnsafeMutableRawPointer?) -> Int32
    let writeOpen:
        @convention(c) (
            Archive?, UnsafeMutableRawPointer?, OpenCloseCallback?, WriteCallback?, OpenCloseCallback?
        ) -> Int32
    let writeHeader: @convention(c) (Archive?, Entry?) -> Int32
    let writeData: @convention(c) (Archive?, UnsafeRawPointer?, Int) -> Int
    let finishEntry: @convention(c) (Archive?) -> Int32
    let writeClose: @convention(c) (Archive?) -> Int32
    let writeFree: @convention(c) (Archive?) -> Int32
    let entryNew: @convention(c) () -> Entry?
    let entryFree: @convention(c) (Entry?) -> Void
    let setPathnameUTF8: @convention(c) (Entry?, UnsafePointer<CChar>?) -> Void
    let setFileType: @convention(c) (Entry?, UInt32) -> Void
    let setPermissions: @convention(c) (Entry?, mode_t) -> Void
    let setModificationTime: @convention(c) (Entry?, time_t, Int) -> Void

    /// libarchive, loaded on first use, or why it cannot be.
    static let shared = Result { () throws(SharedLibrary.Unavailable) in try ArchiveLibrary() }

    private init() throws(SharedLibrary.Unavailable) {
        let library = try SharedLibrary("libarchive", names: ["libarchive.so", "libarchive.so.13"])
        readNew = try library.function("archive_read_new")
        supportZip = try library.function("archive_read_support_format_zip")
        openFile = try library.function("archive_read_open_filename")
        openMemory = try library.function("archive_read_open_memory")
        nextHeader = try library.function("archive_read_next_header")
        readData = try library.function("archive_read_data")
        close = try library.function("archive_read_close")
        readFree = try library.function("archive_read_free")
        errorString = try library.function("archive_error_string")
        fileType = try library.function("archive_entry_filetype")
        hardlink = try library.function("archive_entry_hardlink")
        pathnameUTF8 = try library.function("archive_entry_pathname_utf8")
        pathname = try library.function("archive_entry_pathname")
        sizeIsSet = try library.function("archive_entry_size_is_set")
        size = try library.function("archive_entry_size")
        writeNew = try library.function("archive_write_new")
        setFormatZip = try library.function("archive_write_set_format_zip")
        setBytesInLastBlock = try library.function("archive_write_set_bytes_in_last_block")
        setOptions = try library.function("archive_write_set_options")
        writeOpen = try library.function("archive_write_open")
        writeHeader = try library.function("archive_write_header")
        writeData = try library.function("archive_write_data")
        finishEntry = try library.function("archive_write_finish_entry")
        writeClose = try library.function("archive_write_close")
        writeFree = try library.function("archive_write_free")
        entryNew = try library.function("archive_entry_new")
        entryFree = try library.function("archive_entry_free")
        setPathnameUTF8 = try library.function("archive_entry_set_pathname_utf8")
        setFileType = try library.function("archive_entry_set_filetype")
        setPermissions = try library.function("archive_entry_set_perm")
        setModificationTime = try library.function("archive_entry_set_mtime")
    }
}
