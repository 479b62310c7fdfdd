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

extension String {
    var utf8Bytes: [UInt8] { Array(utf8) }
}
