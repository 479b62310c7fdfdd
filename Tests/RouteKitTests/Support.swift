import Foundation
import RouteKit
import Testing

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

/// Hands a whole document to `handler`, as a reader would: waypoints, routes, then tracks.
func send(_ document: GPXDocument, to handler: GPXHandler) throws {
    for waypoint in document.waypoints { try handler.waypoint(waypoint) }
    for route in document.routes {
        try handler.beginRoute()
        for point in route.points { try handler.routePoint(point) }
        try handler.endRoute(route.details)
    }
    for track in document.tracks {
        try handler.beginTrack()
        for segment in track.segments {
            try handler.beginSegment()
            for point in segment.points { try handler.trackPoint(point) }
            try handler.endSegment()
        }
        try handler.endTrack(track.details)
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

/// The programs some tests run besides RouteKit; `scripts/setup` installs each (its Debian package in brackets).
/// A test that needs one says so with ``Testing/Trait/requires(_:)``: without the program it is reported as
/// skipped, with the reason, never as passed.
enum Tool: String {
    /// GeographicLib's geodesic solver, the reference for lengths (geographiclib-tools).
    case geodSolve = "GeodSolve"
    /// libxml2's command-line parser (libxml2-utils).
    case xmllint
    /// Writes the ZIP archives of the tests with Fixtures/make-zip.py (python3).
    case python3
    /// GDAL's raster converter, which writes the GeoTIFFs of the elevation model tests (gdal-bin).
    case gdalTranslate = "gdal_translate"
    /// GDAL's coordinate transformer, the reference for a DEM's CRS (gdal-bin).
    case gdalTransform = "gdaltransform"
    /// GDAL's mosaic writer, for a VRT of tiles (gdal-bin).
    case gdalBuildVRT = "gdalbuildvrt"
    /// GDAL's converter: reads the KML RouteKit writes, as other programs will (gdal-bin).
    case ogr2ogr

    var package: String {
        switch self {
        case .geodSolve: "geographiclib-tools"
        case .xmllint: "libxml2-utils"
        case .python3: "python3"
        case .gdalTranslate, .gdalTransform, .gdalBuildVRT, .ogr2ogr: "gdal-bin"
        }
    }

    /// Runs the program with `arguments` (and `input` on standard input); its standard output.
    @discardableResult
    func run(_ arguments: [String], input: String = "") throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try requirePath())
        process.arguments = arguments
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolError.failed(self, status: process.terminationStatus, standardError: errors)
        }
        return output
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
                [
                    "name": e.name, "base64": Data(e.bytes).base64EncodedString(), "zeros": e.zeros,
                    "symlink": e.symlink ?? NSNull(),
                ]
            },
        ]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Tool.python3.requirePath())
        process.arguments = [Fixture.path("make-zip.py")]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: spec))
        try input.fileHandleForWriting.close()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolError.failed(.python3, status: process.terminationStatus, standardError: message)
        }
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
