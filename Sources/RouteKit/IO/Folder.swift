import Glibc

/// Folders on this machine: what is in one, and making one.
package enum Folder {
    /// One name in a folder.
    package struct Item: Sendable {
        package var name: String
        package var isFolder: Bool
    }

    /// The last part of `path`, after its last `/` (the path itself where it has none).
    package static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// True when `path` is a folder (following links).
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR  // -1 on error: not a folder
    }

    /// The names in the folder at `path` (without `.` and `..`), sorted, each marked folder or not.
    ///
    /// - Throws: ``IOError/cannotOpen(path:reason:)`` when it cannot be listed.
    package static func list(_ path: String) throws -> [Item] {
        guard let dir = opendir(path) else {  // NULL on error, errno set
            throw IOError.cannotOpen(path: path, reason: IOError.systemReason())
        }
        defer { closedir(dir) }
        var items: [Item] = []
        // The name is read where it lies, up to its NUL: readdir's record is only as long as its name, so copying the
        // whole struct (its 256-byte d_name) would read past the record's end.
        guard let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { return [] }
        while let entry = readdir(dir) {  // NULL at the end
            let start = UnsafeRawPointer(entry).advanced(by: offset)
            let length = strlen(start.assumingMemoryBound(to: CChar.self))
            let name = String(decoding: UnsafeRawBufferPointer(start: start, count: length), as: UTF8.self)
            guard name != "." && name != ".." else { continue }
            items.append(Item(name: name, isFolder: exists(path + "/" + name)))
        }
        return items.sorted { $0.name < $1.name }
    }

    /// Creates the folder at `path` unless it exists, with `mode` (less the umask); with `parents`, the
    /// folders above it that are missing too, with the same mode.
    ///
    /// - Throws: ``IOError/cannotCreate(path:reason:)`` when `path` is a file or cannot be made.
    package static func create(_ path: String, mode: mode_t = 0o755, parents: Bool = false) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw IOError.cannotCreate(path: path, reason: "exists and is not a folder")
            }
            return
        }
        if parents, let slash = path.lastIndex(of: "/"), slash > path.startIndex {
            try create(String(path[..<slash]), mode: mode, parents: true)
        }
        // EEXIST: made meanwhile by another process.
        guard mkdir(path, mode) == 0 || errno == EEXIST else {  // -1 on error, errno set
            throw IOError.cannotCreate(path: path, reason: IOError.systemReason())
        }
    }
}
