/// Where a stage bundle's files are: a folder, or a ZIP as the STKP backend serves it (`ZIP_DD-MM-YYYY.zip`),
/// read into memory with libarchive.
///
/// The bundle is found the way people pack it: the files at the top of the folder or archive, or all in one
/// folder inside it; macOS's `__MACOSX/`, `._*` and `.DS_Store` (any name starting with a dot) are passed
/// over; an archive (or folder) that holds dated archives and no stages opens the one with the newest date
/// in its name. Paths inside an archive are never used as paths on this machine: a file's role comes from
/// its base name alone.
public struct BundleSource: Sendable {
    /// The path the user gave.
    public let path: String
    /// Where the files were found, for messages: the path, with ` › ` before an archive or folder inside it.
    public let origin: String
    /// The date of the route's data, from the name of the archive or folder the files came from.
    public let date: BundleDate?
    /// The base names of the bundle's files (stage GPX files, `KT.gpx`, `etape.json`, `kt.json`, …), sorted.
    public let names: [String]
    /// Choices made on the way (which of several dated archives was opened, files left out as duplicates).
    public private(set) var notes: [String] = []

    private let folder: String?
    private let contents: [String: [UInt8]]

    private init(
        path: String, origin: String, date: BundleDate?, folder: String?, names: [String],
        contents: [String: [UInt8]] = [:]
    ) {
        self.path = path
        self.origin = origin
        self.date = date
        self.folder = folder
        self.names = names
        self.contents = contents
    }

    /// The name of the bundle file called `name` in any case (`KT.json`, `kt.json`), if there is one.
    public func file(named name: String) -> String? {
        let wanted = name.lowercased()
        return names.first { $0.lowercased() == wanted }
    }

    /// The file `name` (one of ``names``) for reading; messages name it `origin/name`.
    ///
    /// - Throws: ``IOError`` when a file in a folder cannot be opened.
    public func input(_ name: String) throws -> InputFile {
        if let folder { return try InputFile(path: folder + "/" + name) }
        guard let bytes = contents[name] else {
            throw IOError.cannotOpen(path: displayName(name), reason: "not in the bundle")
        }
        return InputFile(name: displayName(name), bytes: bytes)
    }

    /// The whole file `name`.
    ///
    /// - Throws: ``IOError`` when a file in a folder cannot be read, or `name` is not in the bundle.
    public func bytes(_ name: String) throws -> [UInt8] {
        if folder == nil, let bytes = contents[name] { return bytes }
        return try input(name).readAll()
    }

    /// How messages name the file `name`: its path in a folder, or the archive's name before it.
    public func displayName(_ name: String) -> String {
        folder.map { $0 + "/" + name } ?? origin + " › " + name
    }

    /// Opens the bundle at `path`: a folder or an archive.
    ///
    /// - Throws: ``IOError`` when `path` cannot be opened, ``ArchiveError`` for a damaged archive or one that would
    ///   expand past 512 MiB or 100,000 entries, ``StageBundleError/noBundle(path:reason:)`` when no stage is found.
    public static func open(_ path: String) throws -> BundleSource {
        var budget = ExpansionBudget.standard
        return try open(path, budget: &budget)
    }

    static func open(_ path: String, budget: inout ExpansionBudget) throws -> BundleSource {
        guard Folder.exists(path) else {
            return try openArchive(
                path, name: path, ownName: Folder.baseName(path), bytes: nil, depth: 1, budget: &budget)
        }
        let items = try Folder.list(path).filter { !isIgnored($0.name) }
        let files = items.filter { !$0.isFolder }.map(\.name)
        if files.contains(where: isBundleFile) {
            return BundleSource(
                path: path, origin: path, date: BundleDate.find(in: Folder.baseName(path)), folder: path,
                names: files.filter(isReadable(_:)))
        }
        let folders = items.filter(\.isFolder)
        if folders.count == 1, case let inner = path + "/" + folders[0].name,
            try Folder.list(inner).contains(where: { !$0.isFolder && isBundleFile($0.name) })
        {
            return try open(inner, budget: &budget)
        }
        if let newest = newestArchive(files) {
            var source = try openArchive(
                path + "/" + newest.name, name: path + "/" + newest.name, ownName: newest.name, bytes: nil,
                depth: 1, budget: &budget)
            source.notes += newest.notes
            return source
        }
        throw StageBundleError.noBundle(
            path: path, reason: "no Etapa N.gpx, KT.gpx or etape.json in the folder" + found(files))
    }

    /// Opens an archive from its file, or from `bytes` when it sits inside another archive.
    /// `name` is how messages name it, `ownName` its own file name (which may hold the date).
    private static func openArchive(
        _ path: String, name: String, ownName: String, bytes: [UInt8]?, depth: Int,
        budget: inout ExpansionBudget
    ) throws -> BundleSource {
        let maximumDepth = 3
        guard depth <= maximumDepth else { throw ArchiveError.nestedTooDeep(path: name, limit: maximumDepth) }
        let wanted = { (entry: String) -> Bool in
            // `.` and `..` lead nowhere here: a file is known by its base name and never written where its path points.
            let parts = entry.split(separator: "/").filter { $0 != "." && $0 != ".." }
            guard let last = parts.last, !parts.contains(where: { isIgnored(String($0)) }) else { return false }
            return isReadable(String(last)) || last.lowercased().hasSuffix(".zip")
        }
        // Sorted by path, so that no choice below depends on the order of the archive.
        let entries = try
            (bytes.map { try ArchiveReader.files(in: $0, name: name, budget: &budget, wanted: wanted) }
            ?? ArchiveReader.files(atPath: path, budget: &budget, wanted: wanted)).sorted { $0.path < $1.path }
        if let (inner, files, others) = bundleFolder(entries) {
            var source = memorySource(path, name: name, ownName: ownName, folder: inner, files: files)
            if others > 0 {
                source.notes.append(
                    "read the files in \(inner.isEmpty ? "the top folder" : inner + "/"); "
                        + "\(others) other folder\(others == 1 ? "" : "s") with stage files left out")
            }
            return source
        }
        let archives = entries.filter { $0.path.lowercased().hasSuffix(".zip") }
        if let newest = newestArchive(archives.map(\.path)),
            let entry = archives.first(where: { $0.path == newest.name })
        {
            var source = try openArchive(
                path, name: name + " › " + entry.path, ownName: Folder.baseName(entry.path), bytes: entry.bytes,
                depth: depth + 1, budget: &budget)
            source.notes += newest.notes
            return source
        }
        let reason =
            entries.isEmpty
            ? "no GPX, JSON or ZIP file in the archive"
            : "no Etapa N.gpx, KT.gpx or etape.json in the archive" + found(entries.map(\.path))
        throw StageBundleError.noBundle(path: name, reason: reason)
    }

    /// The folder of the archive that holds the bundle — the one with the most stages; among equals, the newest
    /// date in its name, then the shallowest, then the first by name — with its files and how many other
    /// folders hold bundle files. A path's folder is what comes before its last slash.
    private static func bundleFolder(_ entries: [ArchiveEntry]) -> (folder: String, files: [ArchiveEntry], others: Int)?
    {
        var byFolder: [String: [ArchiveEntry]] = [:]
        for entry in entries {
            let trimmed = entry.path.split(separator: "/").filter { $0 != "." && $0 != ".." }
            byFolder[trimmed.dropLast().joined(separator: "/"), default: []].append(entry)
        }
        let candidates = byFolder.filter { $0.value.contains { isBundleFile(Folder.baseName($0.path)) } }
        let best = candidates.max { a, b in
            let (sa, sb) = (stageCount(a.value), stageCount(b.value))
            if sa != sb { return sa < sb }
            let (da, db) = (BundleDate.find(in: a.key), BundleDate.find(in: b.key))
            if da != db { return (da ?? .earliest) < (db ?? .earliest) }
            let (depthA, depthB) = (a.key.split(separator: "/").count, b.key.split(separator: "/").count)
            if depthA != depthB { return depthA > depthB }
            return a.key > b.key
        }
        return best.map { ($0.key, $0.value, candidates.count - 1) }
    }

    /// A bundle of the files read from an archive's `folder`; of two files whose names differ only in case, the
    /// first by path is kept.
    private static func memorySource(
        _ path: String, name: String, ownName: String, folder: String, files: [ArchiveEntry]
    ) -> BundleSource {
        var contents: [String: [UInt8]] = [:]
        var seen: Set<String> = []
        var notes: [String] = []
        for entry in files {
            let base = Folder.baseName(entry.path)
            guard isReadable(base) else { continue }
            guard seen.insert(base.lowercased()).inserted else {
                notes.append("\(entry.path) left out: the archive holds another file of that name")
                continue
            }
            contents[base] = entry.bytes
        }
        let date = BundleDate.find(in: Folder.baseName(folder)) ?? BundleDate.find(in: ownName)
        var source = BundleSource(
            path: path, origin: folder.isEmpty ? name : name + " › " + folder, date: date, folder: nil,
            names: contents.keys.sorted(), contents: contents)
        source.notes = notes
        return source
    }

    /// Of the archives among `names`, the one with the newest date in its name (an undated one only when it is
    /// the only archive), with a note when there was a choice.
    private static func newestArchive(_ names: [String]) -> (name: String, notes: [String])? {
        let archives = names.filter { $0.lowercased().hasSuffix(".zip") }.sorted()
        guard !archives.isEmpty else { return nil }
        if archives.count == 1 { return (archives[0], []) }
        let dated = archives.compactMap { name in BundleDate.find(in: Folder.baseName(name)).map { (name, $0) } }
        // The newest; of equal dates, the first by name.
        guard let newest = dated.max(by: { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 > $1.0 }) else {
            return (archives[0], ["\(archives.count) archives without a date in their names: read \(archives[0])"])
        }
        return (newest.0, ["read \(Folder.baseName(newest.0)), the newest of \(archives.count) archives"])
    }

    private static func stageCount(_ entries: [ArchiveEntry]) -> Int {
        entries.filter { StageBundle.stageNumber(Folder.baseName($0.path)) != nil }.count
    }

    /// A file the bundle uses by its name: a stage, the control points or one of the two JSON files.
    static func isBundleFile(_ name: String) -> Bool {
        let lower = name.lowercased()
        return StageBundle.stageNumber(name) != nil || lower == "kt.gpx" || lower == "etape.json" || lower == "kt.json"
    }

    /// A file a bundle may use: GPX (stages named in etape.json need not be called Etapa N) and JSON.
    static func isReadable(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".gpx") || lower.hasSuffix(".json")
    }

    /// Names that are never part of a bundle: macOS's `__MACOSX` folders, `._*` forks, `.DS_Store` and other
    /// hidden files.
    static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix(".") || name == "__MACOSX" || name == "Thumbs.db" || name == "desktop.ini"
    }

    private static func found(_ names: [String]) -> String {
        guard !names.isEmpty else { return " (it is empty)" }
        let shown = names.prefix(5).joined(separator: ", ")
        return " (it holds \(shown)\(names.count > 5 ? " and \(names.count - 5) more" : ""))"
    }
}

/// The date of a bundle's data, read from a name such as `ZIP_03-09-2019.zip`.
public struct BundleDate: Hashable, Comparable, Sendable {
    /// The year, 1900 to 2200.
    public var year: Int
    /// 1 to 12.
    public var month: Int
    /// 1 to 31.
    public var day: Int

    static let earliest = BundleDate(year: 0, month: 1, day: 1)

    /// A date; ``find(in:)`` makes only dates that exist.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// `2019-09-03`.
    public var iso: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    /// `3 September 2019`.
    public var text: String {
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        return "\(day) \(months[month - 1]) \(year)"
    }

    public static func < (a: BundleDate, b: BundleDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// The first date in `name` written `DD-MM-YYYY` (also with `.` or `_`) or `YYYY-MM-DD`; nil when there is
    /// none or it is no calendar date.
    public static func find(in name: String) -> BundleDate? {
        // Runs of digits, each with the character that follows it.
        var runs: [(digits: [Int], next: Character?)] = []
        var current: [Int] = []
        for c in name {
            if let d = c.wholeNumberValue, c.isASCII {
                current.append(d)
            } else {
                if !current.isEmpty { runs.append((current, c)) }
                current = []
            }
        }
        if !current.isEmpty { runs.append((current, nil)) }
        func value(_ digits: [Int]) -> Int { digits.reduce(0) { $0 * 10 + $1 } }
        guard runs.count >= 3 else { return nil }
        for i in 0...(runs.count - 3) {
            let (a, b, c) = (runs[i], runs[i + 1], runs[i + 2])
            guard let s1 = a.next, let s2 = b.next, "-._".contains(s1), s1 == s2 else { continue }
            let date: BundleDate
            if (1...2).contains(a.digits.count), (1...2).contains(b.digits.count), c.digits.count == 4 {
                date = BundleDate(year: value(c.digits), month: value(b.digits), day: value(a.digits))
            } else if a.digits.count == 4, b.digits.count == 2, c.digits.count == 2 {
                date = BundleDate(year: value(a.digits), month: value(b.digits), day: value(c.digits))
            } else {
                continue
            }
            if date.isValid { return date }
        }
        return nil
    }

    private var isValid: Bool {
        guard (1900...2200).contains(year), (1...12).contains(month), day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }
}

/// Why a stage bundle could not be used.
public enum StageBundleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The folder or archive holds no stage bundle.
    case noBundle(path: String, reason: String)
    /// Nothing could be built: no stage could be read.
    case noStages(path: String)

    public var description: String {
        switch self {
        case let .noBundle(path, reason): return "\(path): not a stage bundle: \(reason)"
        case let .noStages(path): return "\(path): no stage could be built (no readable Etapa N.gpx)"
        }
    }
}
