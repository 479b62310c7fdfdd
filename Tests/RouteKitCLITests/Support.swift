import Foundation
import RouteKit
import RouteKitCLI
import Testing

/// The result of one `routekit` run.
struct Run {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

enum CLI {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/RouteKitTests/Fixtures")
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// A GPX track `name` due north from 46° N 14° E, a fix every `spacing` metres, at each of `elevations`.
    static func northwardTrack(name: String, spacing: Double, elevations: [Double]) -> String {
        var gpx = "<gpx><trk><name>\(name)</name><trkseg>"
        for (k, e) in elevations.enumerated() {
            let x = Double(k) * spacing
            gpx += "<trkpt lat=\"\(46 + x / 111_150)\" lon=\"14\"><ele>\(e)</ele></trkpt>"
        }
        return gpx + "</trkseg></trk></gpx>"
    }

    /// Runs the command line in this process, capturing standard output and standard error.
    static func run(_ arguments: [String]) throws -> Run {
        // The tables `near` keeps go to the folder the run names (scripts/test gives one), else to the tests'
        // own: never to the user's cache.
        let arguments =
            arguments.first == "near" && !arguments.contains("--cache")
                && (ProcessInfo.processInfo.environment["ROUTEKIT_CACHE"] ?? "").isEmpty
            ? arguments + ["--cache", keptTables] : arguments
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("routekit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outPath = folder.appendingPathComponent("stdout").path
        final class Capture { var text = "" }
        let errors = Capture()
        let console = Console(
            writeError: { errors.text += $0 }, standardOutput: { try OutputStream.create(path: outPath) })
        let status = RouteKitCLI.run(arguments, console: console).rawValue
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        return Run(status: status, standardOutput: out, standardError: errors.text)
    }

    /// The built `routekit` executable: `ROUTEKIT_BINARY` when set (the sanitizer runs point it at their own
    /// build), else the debug build.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["ROUTEKIT_BINARY"] { return URL(fileURLWithPath: path) }
        let candidates = [
            root.appendingPathComponent(".build/debug/routekit"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("routekit"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// Runs the real executable (or another program) as a separate process.
    static func runBinary(_ arguments: [String], input: Data? = nil, executable: URL = binary) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inPipe
        try process.run()
        if let input {
            inPipe.fileHandleForWriting.write(input)
            try inPipe.fileHandleForWriting.close()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self))
    }

    /// Writes a ZIP at `path` with Tests/RouteKitTests/Fixtures/make-zip.py: each entry its bytes, or `zeros`
    /// zero bytes (a ZIP bomb).
    static func zip(_ entries: [(name: String, bytes: [UInt8])], zeros: [String: Int] = [:], to path: String) throws {
        let spec: [String: Any] = [
            "path": path,
            "entries": entries.map {
                ["name": $0.name, "base64": Data($0.bytes).base64EncodedString(), "zeros": zeros[$0.name] ?? 0]
            },
        ]
        let run = try runBinary(
            [fixture("make-zip.py")], input: try JSONSerialization.data(withJSONObject: spec),
            executable: URL(fileURLWithPath: try Tool.python3.requirePath()))
        guard run.status == 0 else {
            throw ToolError.failed(.python3, status: run.status, standardError: run.standardError)
        }
    }

    /// Where `near` keeps tables in tests run without `ROUTEKIT_CACHE`.
    static let keptTables = FileManager.default.temporaryDirectory.appendingPathComponent("routekit-tests-cache").path

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("routekit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The programs some tests run besides RouteKit; `scripts/setup` installs each (its Debian package in brackets).
/// A test that needs one says so with ``Testing/Trait/requires(_:)``: without the program it is reported as
/// skipped, with the reason, never as passed.
enum Tool: String {
    /// Writes the ZIP archives of the tests with Tests/RouteKitTests/Fixtures/make-zip.py (python3).
    case python3
    /// Reads the PostGIS tables RouteKit writes, as other programs will (gdal-bin).
    case ogr2ogr
    /// Writes what RouteKit never writes into the test server's tables (postgresql-client-15).
    case psql

    var package: String {
        switch self {
        case .python3: "python3"
        case .ogr2ogr: "gdal-bin"
        case .psql: "postgresql-client-15"
        }
    }

    /// The program's path, found on PATH; nil when it is not installed.
    var path: String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(rawValue)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The program's path, or an error saying how to install it.
    func requirePath() throws -> String {
        guard let path else { throw ToolError.missing(self) }
        return path
    }
}

enum ToolError: Error, CustomStringConvertible {
    case missing(Tool)
    case failed(Tool, status: Int32, standardError: String)

    var description: String {
        switch self {
        case .missing(let tool):
            "\(tool.rawValue) is not installed (Debian package \(tool.package); scripts/setup installs it)"
        case let .failed(tool, status, standardError): "\(tool.rawValue) ended with exit \(status): \(standardError)"
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when `tool` is installed; otherwise the test is reported as skipped, saying why.
    static func requires(_ tool: Tool) -> Self {
        .enabled(
            if: tool.path != nil,
            "\(tool.rawValue) is not installed (Debian package \(tool.package); scripts/setup installs it)")
    }
}
