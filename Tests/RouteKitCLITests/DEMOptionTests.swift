import Foundation
import RouteKit
import Testing

/// `--dem` and `--dem-mode` in the commands that read tracks, on DEMs written as ESRI ASCII grids in degrees
/// (no CRS file: longitude and latitude), which GDAL reads like any other raster.
@Suite struct DEMOptionTests {
    /// Rolling terrain: 0.001° cells over 13.0–13.2° E, 46.0–46.2° N; elevations of hills 40 m high.
    static func grid(west: Double = 13, noData: (Int, Int) -> Bool = { _, _ in false }) -> String {
        let n = 200
        var text = "ncols \(n)\nnrows \(n)\nxllcorner \(west)\nyllcorner 46\ncellsize 0.001\nNODATA_value -9999\n"
        for row in 0..<n {
            let lat = 46 + (Double(n - row) - 0.5) * 0.001
            text +=
                (0..<n).map { column in
                    let lon = west + (Double(column) + 0.5) * 0.001
                    guard !noData(column, row) else { return "-9999" }
                    return String(format: "%.3f", 500 + 40 * sin(lon * 900) * cos(lat * 700) + 300 * (lat - 46))
                }.joined(separator: " ") + "\n"
        }
        return text
    }

    /// A track across the grid from south-west to north-east, its recorded elevations noisy (±15 m).
    static func track(points: Int = 400, lonStart: Double = 13.01, lonEnd: Double = 13.19) -> String {
        var gpx = "<gpx version=\"1.1\" creator=\"t\"><trk><name>Across</name><trkseg>\n"
        for k in 0..<points {
            let f = Double(k) / Double(points - 1)
            let noise = 15 * sin(Double(k) * 12.9898).truncatingRemainder(dividingBy: 1)
            gpx +=
                "<trkpt lat=\"\(46.01 + f * 0.18)\" lon=\"\(lonStart + f * (lonEnd - lonStart))\">"
                + "<ele>\(500 + noise)</ele></trkpt>\n"
        }
        return gpx + "</trkseg></trk></gpx>\n"
    }

    /// A folder with `dem.asc` and `track.gpx`.
    static func setUp(track text: String = track()) throws -> (folder: URL, dem: String, track: String) {
        let folder = try CLI.temporaryFolder()
        let dem = folder.appendingPathComponent("dem.asc").path
        let track = folder.appendingPathComponent("track.gpx").path
        try Data(grid().utf8).write(to: URL(fileURLWithPath: dem))
        try Data(text.utf8).write(to: URL(fileURLWithPath: track))
        return (folder, dem, track)
    }

    /// The DEM's own ascent along the track's points: the sum of its rises.
    static func ascent(of dem: String, along track: String) throws -> Double {
        let model = try ElevationModel(path: dem)
        let points = try GPXReader().document(at: track).tracks[0].segments[0].points
        let elevations = try points.map { try #require(try model.elevation(at: $0.coordinate)) }
        return zip(elevations, elevations.dropFirst()).reduce(0) { $0 + max(0, $1.1 - $1.0) }
    }

    /// A number as the writers write it.
    static func text(_ value: Double) -> String {
        var buffer = ByteBuffer()
        DecimalText.append(value, to: &buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func statsCountsTheAscentOfTheDEMsElevationsAndSaysWhereTheyCameFrom() throws {
        let (folder, dem, track) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try Self.ascent(of: dem, along: track)
        let run = try CLI.run(["stats", "--format", "json", "--dem", dem, track])
        #expect(run.status == 0 && run.standardError.isEmpty, "\(run.standardError)")
        let json = try Self.json(run.standardOutput)
        let stats = try #require((json["tracks"] as? [[String: Any]])?.first)
        let ascent = try #require(stats["ascent_m"] as? Double)
        #expect(abs(ascent - expected) <= 0.01 * expected, "\(ascent) against the DEM's \(expected)")
        let source = try #require(json["elevations"] as? [String: Any])
        #expect(source["source"] as? String == "dem" && source["dem"] as? String == dem)
        #expect(source["points_from_dem"] as? Int == 400 && source["points_not_covered"] as? Int == 0)
        // Without the DEM the noisy recording gives another ascent, and no "elevations" member.
        let plain = try Self.json(try CLI.run(["stats", "--format", "json", track]).standardOutput)
        #expect(plain["elevations"] == nil)
        let table = try CLI.run(["stats", "--dem", dem, track])
        #expect(table.standardOutput.contains("Elevations: from the DEM \(dem) (replace: 400 points)."))
    }

    @Test func convertWritesTheDEMsHeights() throws {
        let (folder, dem, track) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try ElevationModel(path: dem)
        let first = try #require(try model.elevation(at: Coordinate(latitude: 46.01, longitude: 13.01)))
        let geojson = try CLI.run(["convert", "--dem", dem, track])
        #expect(geojson.status == 0)
        #expect(geojson.standardOutput.contains("[13.01,46.01,\(Self.text(first))]"))
        let out = folder.appendingPathComponent("out.gpx").path
        #expect(try CLI.run(["convert", "--dem", dem, track, "-o", out]).status == 0)
        let written = try GPXReader().document(at: out).tracks[0].segments[0].points
        #expect(written.count == 400 && written[0].elevation == first)
        // Fill: the recorded elevations stay.
        let filled = try CLI.run(["convert", "--dem", dem, "--dem-mode", "fill", "--to", "gpx", track])
        #expect(filled.standardOutput.contains("<ele>500</ele>"))
        #expect(!filled.standardOutput.contains("<ele>\(Self.text(first))</ele>"))
    }

    @Test func batchConversionTakesTheDEMsHeightsInEveryFile() throws {
        let (folder, dem, track) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let second = folder.appendingPathComponent("long.gpx").path
        try Data(Self.track(lonEnd: 13.37).utf8).write(to: URL(fileURLWithPath: second))
        let out = folder.appendingPathComponent("out").path + "/"
        let run = try CLI.run(["convert", "--dem", dem, "--to", "gpx", track, second, "-o", out])
        #expect(run.status == 0)
        // One warning for the whole run, with the points off the DEM of both files counted together.
        #expect(run.standardError.split(separator: "\n").count == 1 && run.standardError.contains("points outside"))
        let model = try ElevationModel(path: dem)
        let first = try #require(try model.elevation(at: Coordinate(latitude: 46.01, longitude: 13.01)))
        for name in ["track.gpx", "long.gpx"] {
            let points = try GPXReader().document(at: out + name).tracks[0].segments[0].points
            #expect(points[0].elevation == first, "\(name)")
        }
    }

    @Test func pointsOffTheDEMKeepTheirElevationWithOneWarningOrFailWhenStrict() throws {
        let (folder, dem, _) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Half of the track runs east of the grid.
        let track = folder.appendingPathComponent("long.gpx").path
        try Data(Self.track(lonEnd: 13.37).utf8).write(to: URL(fileURLWithPath: track))
        let run = try CLI.run(["stats", "--format", "json", "--dem", dem, track])
        #expect(run.status == 0)
        let warnings = run.standardError.split(separator: "\n")
        #expect(warnings.count == 1 && warnings[0].contains("points outside \(dem)"))
        #expect(warnings.first?.contains("the first at 46.10") == true, "\(run.standardError)")
        let source = try #require(try Self.json(run.standardOutput)["elevations"] as? [String: Any])
        let notCovered = try #require(source["points_not_covered"] as? Int)
        #expect(notCovered > 150 && (source["points_from_dem"] as? Int) == 400 - notCovered)
        #expect(try CLI.run(["stats", "-q", "--dem", dem, track]).standardError.isEmpty)
        let out = folder.appendingPathComponent("out.geojson").path
        let strict = try CLI.run(["convert", "--strict", "--dem", dem, track, "-o", out])
        #expect(strict.status == 65 && strict.standardError.contains("has no elevation at 46.10"))
        #expect(!FileManager.default.fileExists(atPath: out))
        // Converting into a folder, the file off the DEM fails with its error and the other is written; no warning
        // counts points of the file that failed (a strict run warns of nothing).
        let inside = folder.appendingPathComponent("inside.gpx").path
        try Data(Self.track().utf8).write(to: URL(fileURLWithPath: inside))
        let outFolder = folder.appendingPathComponent("strict").path + "/"
        let batch = try CLI.run(["convert", "--strict", "--dem", dem, "--to", "gpx", track, inside, "-o", outFolder])
        #expect(batch.status == 65 && batch.standardError.contains("has no elevation at 46.10"))
        #expect(!batch.standardError.contains("warning"), "\(batch.standardError)")
        #expect(FileManager.default.fileExists(atPath: outFolder + "inside.gpx"))
        #expect(!FileManager.default.fileExists(atPath: outFolder + "long.gpx"))
        // convert measures no ascent: its warning says nothing of one.
        let lenient = try CLI.run(["convert", "--dem", dem, track, "-o", out])
        #expect(lenient.status == 0 && lenient.standardError.contains("points outside"))
        #expect(!lenient.standardError.contains("ascent"), "\(lenient.standardError)")
    }

    @Test(arguments: ["stats", "profile", "climbs", "convert"])
    func aDEMModeWithoutADEMIsAUsageError(command: String) throws {
        let (folder, _, track) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run([command, "--dem-mode", "fill", track])
        #expect(run.status == 64)
        #expect(run.standardError.contains("--dem-mode fill needs --dem PATH"), "\(run.standardError)")
        let stages = try CLI.run(["stages", "--dem-mode", "replace", folder.path, "-o", folder.path + "/out"])
        #expect(stages.status == 64 && stages.standardError.contains("needs --dem PATH"))
    }

    @Test func aDEMThatCannotBeUsedIsAnErrorAndNothingIsWritten() throws {
        let (folder, _, track) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("tiles")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("out.geojson").path
        for (dem, status, message) in [
            (folder.appendingPathComponent("none.tif").path, Int32(66), "cannot open: no such file or folder"),
            (track, 65, "not an elevation raster"),
            (empty.path, 65, "no elevation raster in the folder"),
        ] {
            let run = try CLI.run(["convert", "--dem", dem, track, "-o", out])
            #expect(run.status == status && run.standardError.contains("--dem \(dem): \(message)"), "\(run)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        // Hostile rasters: samples cut short, a VRT that points at itself, one that would fetch from the network.
        let cut = folder.appendingPathComponent("cut.asc").path
        try Data(Self.grid().split(separator: "\n").prefix(16).joined(separator: "\n").utf8).write(
            to: URL(fileURLWithPath: cut))
        func vrt(_ name: String, source: String) throws -> String {
            let path = folder.appendingPathComponent(name).path
            let text =
                #"<VRTDataset rasterXSize="10" rasterYSize="10"><GeoTransform>13,0.02,0,46.2,0,-0.02</GeoTransform>"#
                + #"<VRTRasterBand dataType="Float32" band="1"><SimpleSource><SourceFilename relativeToVRT="1">"#
                + source + "</SourceFilename><SourceBand>1</SourceBand></SimpleSource></VRTRasterBand></VRTDataset>"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let hostile = [
            (cut, "cannot read the elevations"),
            (try vrt("self.vrt", source: "self.vrt"), "cannot read the elevations"),
            (try vrt("net.vrt", source: "/vsicurl/http://127.0.0.1:9/dem.tif"), "cannot read the elevations"),
        ]
        for (dem, message) in hostile {
            let run = try CLI.run(["convert", "--dem", dem, track, "-o", out])
            #expect(run.status == 65 && run.standardError.contains("--dem \(dem): \(message)"), "\(run)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let mode = try CLI.run(["stats", "--dem", track, "--dem-mode", "both", track])
        #expect(mode.status == 64 && mode.standardError.contains("--dem-mode must be replace or fill"))
    }

    @Test func profileClimbsAndStagesTakeTheDEMsElevations() throws {
        let (folder, dem, track) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try ElevationModel(path: dem)
        let first = try #require(try model.elevation(at: Coordinate(latitude: 46.01, longitude: 13.01)))
        let profile = try Self.json(try CLI.run(["profile", "--format", "json", "--dem", dem, track]).standardOutput)
        let samples = try #require(profile["samples"] as? [[String: Any]])
        #expect(samples.first?["elevation_m"] as? Double == first)
        #expect(samples.first?["smoothed_elevation_m"] as? Double == first)
        let climbs = try CLI.run(["climbs", "--format", "json", "--dem", dem, track])
        #expect(climbs.status == 0)
        let bundle = folder.appendingPathComponent("bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: track, toPath: bundle.appendingPathComponent("Etapa 1.gpx").path)
        let out = folder.appendingPathComponent("site").path
        let stages = try CLI.run(["stages", "--dem", dem, bundle.path, "-o", out, "-q"])
        #expect(stages.status == 0)
        let json = try Self.json(try String(contentsOfFile: out + "/stages.json", encoding: .utf8))
        let stage = try #require((json["stages"] as? [[String: Any]])?.first)
        #expect(stage["elevation_source"] as? String == "dem" && stage["points_from_dem"] as? Int == 400)
        let ascent = try #require(stage["ascent_m"] as? Double)
        let expected = try Self.ascent(of: dem, along: track)
        #expect(abs(ascent - expected) <= 0.01 * expected)
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(html.contains("from a digital elevation model (400 points)"))
    }
}

@Suite struct MapReliefTests {
    @Test func mapShadesTheGroundWithTheDEMsRelief() throws {
        let (folder, dem, track) = try DEMOptionTests.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try CLI.run(["map", track])
        let shaded = try CLI.run(["map", "--dem", dem, track])
        #expect(shaded.status == 0 && !plain.standardOutput.contains("<image"))
        #expect(shaded.standardOutput.contains("preserveAspectRatio=\"none\" href=\"data:image/png;base64,iVBORw0KG"))
        let missing = try CLI.run(["map", "--dem", folder.appendingPathComponent("none").path, track])
        #expect(missing.status == 66 && missing.standardError.contains("cannot open"))
    }
}
