import Glibc
import RouteKit
import RouteKitCLI

/// The fuzz targets: each runs the fuzzed bytes through the commands that read one kind of input. Whatever
/// the bytes, a command must end with a result or a clear error (never exit 70, never crash or hang).
///
/// `scripts/fuzz TARGET SECONDS` builds a target with libFuzzer and AddressSanitizer; the tests replay every
/// input kept in `Fuzz/Findings/TARGET/` through the same code.
enum FuzzTarget: String, CaseIterable {
    /// GPX (or anything else) through convert to GeoJSON, the stats table and the profile chart.
    case gpx
    /// GeoJSON (or anything else) through convert to GPX and the stats table.
    case geojson
    /// KML, KMZ (or anything else) through convert to GeoJSON (togeojson's shape), to GPX and to KML, and the
    /// stats table.
    case kml
    /// TCX (or anything else) through convert to GeoJSON (togeojson's shape), to GPX and to KML, and the
    /// stats table.
    case tcx
    /// A clubroom catalog (SkautIS XML, CSV or GeoJSON, recognised from the content) searched the whole way
    /// round the Earth, so that every clubroom read is also measured and written (as GeoJSON and as the table),
    /// and filtered (by age, day and sex as CSV; by water scouts, unit and sex as the table). A CSV catalog
    /// is also searched from six positions through the byte-level table (with its index) and through the
    /// full reader (`--exhaustive`): the two outputs must be the same bytes.
    case catalog
    /// A stage bundle (a ZIP, or anything else) through `stages`: the archive, the GPX and JSON files in it,
    /// and everything written from them.
    case bundle
    /// The position and radius parsers: the first line is `--at`, the second `--radius`, the rest a positions
    /// file for `--at-file`, against a catalog of one clubroom.
    case position
    /// An elevation model (a raster GDAL reads, or anything else) through `--dem`, as a file and as the one tile
    /// of a folder, for a track with points all over the Earth: `stats` and `convert`, replacing and filling.
    case dem
    /// A kept table of a CSV catalog (`near --cache`): the bytes are laid over a table kept for a catalog of a
    /// megabyte (each byte XORed into the table's from its 81st on, past the numbers that name the catalog
    /// and its columns; an input longer than the table lengthens it), then `near` searches through it from
    /// two positions (the clubrooms near them), from one, and from six (which keeps a table again when this
    /// one is read past).
    case table
    /// A row of a clubroom table as PostGIS gives it to a search: the bytes are the row's 14 values
    /// separated by tabs (`\\N` for NULL), decoded as ``ClubroomRow`` decodes what a query returns.
    case row

    /// Runs one input; returns each command line with its exit code.
    func run(_ bytes: UnsafeRawBufferPointer) -> [(arguments: [String], code: ExitCode)] {
        let commands: [[String]]
        switch self {
        case .gpx:
            let path = FuzzInput.file(0, bytes)
            commands = [["convert", path, "-o", "/dev/null"], ["stats", path], ["profile", path]]
        case .geojson:
            let path = FuzzInput.file(0, bytes)
            commands = [["convert", path, "--to", "gpx", "-o", "/dev/null"], ["stats", path]]
        case .kml, .tcx:
            let path = FuzzInput.file(0, bytes)
            commands = [
                ["convert", path, "-o", "/dev/null"], ["convert", path, "--to", "gpx", "-o", "/dev/null"],
                ["convert", path, "--to", "kml", "-o", "/dev/null"], ["stats", path],
            ]
        case .catalog:
            let path = FuzzInput.file(0, bytes)
            commands =
                [
                    ["near", "--at", "50,14", "--radius", "20000km", "--format", "geojson", path],
                    ["near", "--at", "50,14", "--radius", "20000km", path],
                    // The filters over whatever was read: ages, days, sexes, water scouts, units.
                    [
                        "near", "--at", "50,14", "--radius", "20000km", "--age", "9", "--day", "út", "--sex", "girls",
                        "--format", "csv", path,
                    ],
                    [
                        "near", "--at", "50,14", "--radius", "20000km", "--water", "--unit", "621", "--sex", "boys",
                        path,
                    ],
                ] + FuzzInput.tableAgainstFullReader(path)
        case .bundle:
            let path = FuzzInput.file(0, bytes)
            defer { FuzzInput.emptyOutputFolder() }
            return [["stages", path, "-o", FuzzInput.outputFolder, "-q"]].map {
                ($0, RouteKitCLI.run($0, console: FuzzInput.console))
            }
        case .dem:
            let dem = FuzzInput.file(0, bytes)
            let track = FuzzInput.everywhere.withUnsafeBytes { FuzzInput.file(1, $0) }
            let tile = FuzzInput.outputFolder + "/tile.tif"
            unlink(tile)
            symlink(dem, tile)  // -1 on error: the folder is then empty, which is also an input
            defer { FuzzInput.emptyOutputFolder() }
            return [
                ["stats", "--dem", dem, track],
                ["convert", "--dem", dem, "--dem-mode", "fill", track, "-o", "/dev/null"],
                ["stats", "--format", "json", "--dem", FuzzInput.outputFolder, track],
            ].map { ($0, RouteKitCLI.run($0, console: FuzzInput.console)) }
        case .position:
            let lines = bytes.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false)
            let at = String(decoding: lines[0], as: UTF8.self)
            let radius = lines.count > 1 ? String(decoding: lines[1], as: UTF8.self) : "60km"
            let positions = FuzzInput.file(
                1, UnsafeRawBufferPointer(rebasing: lines.count > 2 ? lines[2] : bytes[0..<0]))
            let catalog = FuzzInput.oneClubroom.withUnsafeBytes { FuzzInput.file(0, $0) }
            commands = [
                ["near", "--at", at, "--radius", radius, catalog],
                ["near", "--at-file", positions, "--radius", radius, "--format", "csv", catalog],
            ]
        case .table:
            FuzzInput.layTable(over: bytes)
            defer { FuzzInput.emptyOutputFolder() }
            let cache = [
                "--cache", FuzzInput.outputFolder, "--format", "csv", "-o", "/dev/null", FuzzInput.largeCatalog,
            ]
            return [
                ["near", "--at-file", FuzzInput.twoPositions, "--radius", "300km"] + cache,
                ["near", "--at", "49.2,16.6", "--radius", "100km"] + cache,
                ["near", "--at-file", FuzzInput.sixPositions, "--radius", "20000km"] + cache,
            ].map { ($0, RouteKitCLI.run($0, console: FuzzInput.console)) }
        case .row:
            let fields = bytes.split(separator: 0x09, omittingEmptySubsequences: false).map { field -> String? in
                let text = String(decoding: field, as: UTF8.self)
                return text == "\\N" ? nil : text
            }
            let code: ExitCode
            do {
                _ = try ClubroomRow.decode(fields, table: "fuzz")
                code = .success
            } catch is DatabaseError {
                code = .dataError  // a row that is no clubroom: what `near` reports with exit 65
            } catch {
                code = .software
            }
            return [(["(a row of a clubroom table)"], code)]
        }
        let results = commands.map { ($0, RouteKitCLI.run($0, console: FuzzInput.console)) }
        if self == .catalog {
            defer { FuzzInput.emptyOutputFolder() }
            // The table and the full reader disagreeing is a finding like a crash.
            for (pair, name) in [(results.suffix(4).prefix(2), ""), (results.suffix(2), "near-")]
            where pair.allSatisfy({ $0.1 == .success })
                && FuzzInput.contents(FuzzInput.outputFolder + "/\(name)table.csv")
                    != FuzzInput.contents(FuzzInput.outputFolder + "/\(name)full.csv")
            {
                return results + [(["the table and the full reader disagree (\(name)table.csv)"], .software)]
            }
        }
        return results
    }

    /// The libFuzzer entry: an internal error stops the fuzzer like a crash, with the command line.
    func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        for (arguments, code) in run(UnsafeRawBufferPointer(start: data, count: size)) where code == .software {
            fatalError("exit 70 for: routekit \(arguments.joined(separator: " "))")
        }
        return 0
    }
}

/// The fuzzed bytes as files the commands can open.
enum FuzzInput {
    /// Files written afresh for every input and unlinked at once (opened again through /proc), so that
    /// nothing is left behind however a run ends.
    private static let descriptors: [Int32] = (0..<2).map { _ in
        var template = Array("/tmp/routekit-fuzz-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }  // -1 on error
        precondition(fd >= 0, "cannot create a fuzz input file")
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }

    /// Writes `bytes` into input file `index` (0 or 1) and returns a path that opens it.
    static func file(_ index: Int, _ bytes: UnsafeRawBufferPointer) -> String {
        let fd = descriptors[index]
        precondition(ftruncate(fd, 0) == 0, "cannot empty a fuzz input file")
        var offset = 0
        while offset < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + offset, bytes.count - offset, off_t(offset))  // -1 on error
            precondition(n > 0, "cannot write a fuzz input file")
            offset += n
        }
        return "/proc/self/fd/\(fd)"
    }

    /// A folder for outputs, made once per process, emptied after every input and removed when the process exits.
    /// Its name holds the process's id, so that the folder of a run that crashed (on a finding) is removed by a later
    /// one.
    static let outputFolder: String = {
        removeOutputFoldersOfEndedProcesses()
        var template = Array("/tmp/\(outputFolderPrefix)\(getpid())-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }  // NULL on error
        precondition(made != nil, "cannot create a fuzz output folder")
        _ = atexit { FuzzInput.removeFolder(FuzzInput.outputFolder) }  // nonzero on error: the folder stays
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    static let outputFolderPrefix = "routekit-fuzz-out-"

    /// Removes what a run wrote into ``outputFolder`` (files only: the commands make no subfolders).
    static func emptyOutputFolder() { empty(outputFolder) }

    /// Removes the files in `folder` (a link among them goes, not what it points to).
    private static func empty(_ folder: String) {
        for name in names(in: folder) { _ = unlink(folder + "/" + name) }  // -1 on error: that file stays
    }

    /// Removes `folder` with the files in it.
    private static func removeFolder(_ folder: String) {
        empty(folder)
        _ = rmdir(folder)  // -1 on error (a file stayed, gone already): left
    }

    /// Removes the output folders that ended runs left: a folder of this user's (not a link to one), whose process
    /// no longer runs and which has not changed for an hour. A process in another PID namespace that shares /tmp
    /// looks ended to `kill`, but a running harness empties its folder after every input, so its folder changes.
    static func removeOutputFoldersOfEndedProcesses() {
        let hourAgo = time(nil) - 3_600  // -1 on error: then nothing is old enough
        for name in names(in: "/tmp") where name.hasPrefix(outputFolderPrefix) {
            let path = "/tmp/" + name
            var status = stat()
            guard let pid = Int32(name.dropFirst(outputFolderPrefix.count).prefix { $0 != "-" }),
                lstat(path, &status) == 0,  // -1 on error: gone already
                status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid(), status.st_mtim.tv_sec < hourAgo,
                kill(pid, 0) != 0, errno == ESRCH  // no signal sent: -1 with ESRCH when no such process runs
            else { continue }
            removeFolder(path)
        }
    }

    /// The names of the files in `folder`.
    static func names(in folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }  // NULL on error: nothing there
        defer { closedir(dir) }
        var names: [String] = []
        // The name is read where it lies, up to its NUL: readdir's record is only as long as its name, so copying the
        // whole struct (its 256-byte d_name) reads past the record's end.
        guard let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { return [] }
        while let entry = readdir(dir) {  // NULL at the end
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static let oneClubroom = Array("id,name,lat,lon\n1,Klubovna,50.0755,14.4378\n".utf8)

    /// A track with points where DEMs are (the Alps, the equator and the prime meridian, the antimeridian, a
    /// pole), one without an elevation, and a waypoint.
    static let everywhere = Array(
        (#"<gpx version="1.1" creator="fuzz"><wpt lat="46.5" lon="13.5"/><trk><trkseg>"#
            + [(46.5, 13.5), (46.0, 13.0), (0.25, 0.25), (-0.5, -0.5), (-33.9, 151.2), (89.99, 179.99), (-90, -180)]
            .map { #"<trkpt lat="\#($0.0)" lon="\#($0.1)"><ele>100</ele></trkpt>"# }.joined()
            + #"<trkpt lat="46.2" lon="13.2"/></trkseg></trk></gpx>"#).utf8)

    /// Six positions (more than ``CatalogTableSearch/scanLimit``: the table builds its index), written once.
    static let sixPositions = unlinkedFile("50,14\n-33.9,18.4\n89.9,0\n-89.9,179.9\n0,-180\n35.7,139.7\n")

    /// Two positions (a table for them keeps only the clubrooms that may be near them), written once.
    static let twoPositions = unlinkedFile("50,14\n49.2,16.6\n")

    /// A file of `text` (a file already unlinked, named through the process's descriptor).
    private static func unlinkedFile(_ text: String) -> String {
        var template = Array("/tmp/routekit-fuzz-file-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }  // -1 on error
        precondition(fd >= 0, "cannot create a fuzz file")
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        let bytes = Array(text.utf8)
        precondition(bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, 0) } == bytes.count)
        return "/proc/self/fd/\(fd)"
    }

    /// A CSV catalog of a megabyte (a table of it is kept): rows of one place, rows without an id or without
    /// coordinates, decimal commas, and a note a megabyte long; written once.
    static let largeCatalog: String = {
        var text = "Realty_ID;Unit;RegistrationNumber;MeetingDate_WeekDay;lat;lon;Note\n"
        for k in 0..<400 {
            let id = k % 9 == 0 ? "" : "\(k / 3)"
            let place = k % 23 == 0 ? ";" : "\(49 + Double(k % 40) * 0.05);\(14 + Double(k % 37) * 0.1)"
            text += "\(id);\(k % 7). oddíl;621.\(k % 5);\(["po", "út", "st"][k % 3]);\(place);n\(k)\n"
        }
        text += "9999;x;1;po;49,2;16,6;" + String(repeating: "x", count: 1 << 20) + "\n"
        let path = unlinkedFile(text)
        usleep(20_000)  // a table is kept only of a file whose times have settled (10 ms)
        return path
    }()

    /// The table kept for ``largeCatalog`` (its file's name and bytes), made once by a search.
    private static let keptTable: (name: String, bytes: [UInt8]) = {
        let search = [
            "near", "--at-file", sixPositions, "--cache", outputFolder, "-o", "/dev/null", largeCatalog,
        ]
        precondition(RouteKitCLI.run(search, console: console) == .success, "cannot keep a fuzz table")
        let name = names(in: outputFolder).first { $0.hasSuffix(".table") } ?? ""
        let bytes = contents(outputFolder + "/" + name) ?? []
        precondition(bytes.count > 80, "no fuzz table kept")
        emptyOutputFolder()
        return (name, bytes)
    }()

    /// Writes ``keptTable`` with `bytes` laid over it (see ``FuzzTarget/table``) where a search looks for it.
    static func layTable(over bytes: UnsafeRawBufferPointer) {
        var table = keptTable.bytes
        for (k, byte) in bytes.enumerated() {
            if 80 + k < table.count { table[80 + k] ^= byte } else { table.append(byte) }
        }
        let path = outputFolder + "/" + keptTable.name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)  // -1 on error
        precondition(fd >= 0, "cannot write a fuzz table")
        precondition(table.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) } == table.count)
        close(fd)
    }

    /// `near` over the catalog at `path` through the table and through the full reader: from six positions
    /// (the table with its index), then from two within 300 km (a table of the clubrooms near them only).
    static func tableAgainstFullReader(_ path: String) -> [[String]] {
        let search = ["near", "--at-file", sixPositions, "--radius", "20000km", "--format", "csv", path]
        let near = ["near", "--at-file", twoPositions, "--radius", "300km", "--format", "csv", path]
        return [
            search + ["-o", outputFolder + "/table.csv"], search + ["--exhaustive", "-o", outputFolder + "/full.csv"],
            near + ["-o", outputFolder + "/near-table.csv"],
            near + ["--exhaustive", "-o", outputFolder + "/near-full.csv"],
        ]
    }

    /// The bytes of a file (nil when it cannot be read).
    static func contents(_ path: String) -> [UInt8]? {
        guard let file = try? InputFile(path: path) else { return nil }
        return try? file.readAll()
    }

    /// Drops every message; results go to /dev/null.
    static let console = Console(
        writeError: { _ in }, standardOutput: { try OutputStream.create(path: "/dev/null") })
}
