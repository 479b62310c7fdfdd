import Foundation
import RouteKit

/// Paths and helpers shared by the tests.
enum Fixture {
    /// The Fixtures folder beside this file.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// A fresh temporary folder, removed by the caller when done.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("routekit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `bytes` to a temporary file and returns its path.
    static func write(_ bytes: [UInt8], name: String = "input.gpx", in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }
}

/// Runs a GPX → GeoJSON conversion in memory and returns the text and the warnings.
func convertToGeoJSON(
    _ gpx: [UInt8], layout: GeoJSONLayout = .featureCollection, precision: Int? = nil, kinds: FeatureKinds = .all,
    strict: Bool = false
) throws -> (text: String, warnings: [String]) {
    let folder = try Fixture.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = try Fixture.write(gpx, in: folder)
    let outputPath = folder.appendingPathComponent("out.geojson").path
    var warnings: [String] = []
    let output = try OutputStream.create(path: outputPath)
    let writer = GeoJSONWriter(output: output, layout: layout, precision: precision, kinds: kinds) {
        warnings.append($0)
    }
    try writer.begin()
    let reader = GPXReader(strict: strict) { warnings.append($0.description) }
    try reader.read(InputFile(path: input), handler: writer)
    try writer.finish()
    try output.commit()
    return (try String(contentsOfFile: outputPath, encoding: .utf8), warnings)
}

/// ZIP archives for the tests, written by Python's zipfile (Fixtures/make-zip.py).
enum Zip {
    /// One entry: bytes, a run of zero bytes (a bomb), or a symbolic link.
    struct Entry {
        var name: String
        var bytes: [UInt8] = []
        var zeros = 0
        var symlink: String?
    }

    /// Writes the archive at `path`.
    static func write(_ entries: [Entry], to path: String) throws {
        let spec: [String: Any] = [
            "path": path,
            "entries": entries.map { e -> [String: Any] in
                ["name": e.name, "base64": Data(e.bytes).base64EncodedString(), "zeros": e.zeros, "symlink": e.symlink ?? NSNull()]
            },
        ]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Fixture.path("make-zip.py")]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: spec))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// The bytes of a ZIP of `entries` (for a ZIP inside a ZIP).
    static func bytes(_ entries: [Entry]) throws -> [UInt8] {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("inner.zip").path
        try write(entries, to: path)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

extension String {
    var utf8Bytes: [UInt8] { Array(utf8) }
}
