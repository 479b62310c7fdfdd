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
    /// KML (or anything else) through convert to GeoJSON (togeojson's shape), to GPX and to KML, and the
    /// stats table.
    case kml
    /// TCX (or anything else) through convert to GeoJSON (togeojson's shape), to GPX and to KML, and the
    /// stats table.
    case tcx
    /// A clubroom catalog (SkautIS XML, CSV or GeoJSON, recognised from the content) searched the whole way
    /// round the Earth, so that every clubroom read is also measured and written (as GeoJSON and as the table),
    /// and filtered (by age, day and sex as CSV; by water scouts, unit and sex as the table).
    case catalog
    /// A stage bundle (a ZIP, or anything else) through `stages`: the archive, the GPX and JSON files in it,
    /// and everything written from them.
    case bundle
    /// The position and radius parsers: the first line is `--at`, the second `--radius`, the rest a positions
    /// file for `--at-file`, against a catalog of one clubroom.
    case position

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
            commands = [
                ["near", "--at", "50,14", "--radius", "20000km", "--format", "geojson", path],
                ["near", "--at", "50,14", "--radius", "20000km", path],
                // The filters over whatever was read: ages, days, sexes, water scouts, units.
                [
                    "near", "--at", "50,14", "--radius", "20000km", "--age", "9", "--day", "út", "--sex", "girls",
                    "--format", "csv", path,
                ],
                ["near", "--at", "50,14", "--radius", "20000km", "--water", "--unit", "621", "--sex", "boys", path],
            ]
        case .bundle:
            let path = FuzzInput.file(0, bytes)
            defer { FuzzInput.emptyOutputFolder() }
            return [["stages", path, "-o", FuzzInput.outputFolder, "-q"]].map {
                ($0, RouteKitCLI.run($0, console: FuzzInput.console))
            }
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
        }
        return commands.map { ($0, RouteKitCLI.run($0, console: FuzzInput.console)) }
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

    /// A folder for outputs, made once per process and emptied after every input.
    static let outputFolder: String = {
        var template = Array("/tmp/routekit-fuzz-out-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }  // NULL on error
        precondition(made != nil, "cannot create a fuzz output folder")
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Removes what a run wrote into ``outputFolder`` (files only: the commands make no subfolders).
    static func emptyOutputFolder() {
        guard let dir = opendir(outputFolder) else { return }  // NULL on error: nothing to remove
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {  // NULL at the end
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        for name in names { unlink(outputFolder + "/" + name) }
    }

    static let oneClubroom = Array("id,name,lat,lon\n1,Klubovna,50.0755,14.4378\n".utf8)

    /// Drops every message; results go to /dev/null.
    nonisolated(unsafe) static let console = Console(
        writeError: { _ in }, standardOutput: { try OutputStream.create(path: "/dev/null") })
}
