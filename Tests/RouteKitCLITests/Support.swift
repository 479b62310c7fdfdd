import Foundation
import RouteKit
import RouteKitCLI

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

    /// Runs the command line in this process, capturing standard output and standard error.
    static func run(_ arguments: [String]) throws -> Run {
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
        let spec: [String: Any] = ["path": path, "entries": entries.map { ["name": $0.name, "base64": Data($0.bytes).base64EncodedString(), "zeros": zeros[$0.name] ?? 0] }]
        let run = try runBinary([fixture("make-zip.py")], input: try JSONSerialization.data(withJSONObject: spec),
                                executable: URL(fileURLWithPath: "/usr/bin/python3"))
        guard run.status == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("routekit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
