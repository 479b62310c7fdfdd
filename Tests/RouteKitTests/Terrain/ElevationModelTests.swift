import Foundation
import RouteKit
import Testing

/// DEM files for the tests, with elevations on a plane, which bilinear interpolation reproduces exactly: any
/// misplaced sample (half a pixel, a flipped row) shows as metres of error.
enum DEMFixture {
    /// Samples per side of a 3-arc-second SRTM tile.
    static let side = 1201

    /// Writes the SRTM tile whose south-west corner is at `lat`, `lon` (named like N46E013.hgt, or as
    /// `name` says), its sample in column `i` and row `j` (row 0 at the north edge) being `value(i, j)`.
    @discardableResult
    static func hgt(
        lat: Int, lon: Int, in folder: URL, name: String? = nil, value: (Int, Int) -> Int16
    ) throws -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(side * side * 2)
        for j in 0..<side {
            for i in 0..<side {
                let v = UInt16(bitPattern: value(i, j))
                bytes.append(UInt8(v >> 8))
                bytes.append(UInt8(v & 0xFF))
            }
        }
        let file =
            name
            ?? String(format: "%@%02d%@%03d.hgt", lat >= 0 ? "N" : "S", abs(lat), lon >= 0 ? "E" : "W", abs(lon))
        let path = folder.appendingPathComponent(file).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The plane of the tests' SRTM tiles: 100 m at 47° N 13° E, one metre more per sample east, two less per
    /// sample south.
    static func plane(_ c: Coordinate) -> Double {
        100 + (c.longitude - 13) * 1200 - 2 * (47 - c.latitude) * 1200
    }

    /// `bytes` in the gzip format, in stored (uncompressed) deflate blocks: a .gz file without a compressor.
    static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        var table = [UInt32](repeating: 0, count: 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            table[n] = c
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        crc ^= 0xFFFF_FFFF
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
        var start = 0
        repeat {
            let end = min(start + 65_535, bytes.count)
            let length = UInt16(end - start)
            out += [end == bytes.count ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8)]
            out += [UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += bytes[start..<end]
            start = end
        } while start < bytes.count
        return out + le32(crc) + le32(UInt32(truncatingIfNeeded: bytes.count))
    }

    /// Writes an ESRI ASCII grid (a raster GDAL reads without a sidecar, in degrees when it has no `.prj`) of
    /// `columns` × `rows` cells of `cell` degrees from `west`, `south`, each cell's value `value` at its centre;
    /// `noData` in its header when given.
    @discardableResult
    static func asciiGrid(
        west: Double, south: Double, cell: Double, columns: Int, rows: Int, in folder: URL, name: String,
        noData: Double? = -9999, value: (Coordinate) -> Double
    ) throws -> String {
        var grid = "ncols \(columns)\nnrows \(rows)\nxllcorner \(west)\nyllcorner \(south)\ncellsize \(cell)\n"
        if let noData { grid += "NODATA_value \(noData)\n" }
        for row in 0..<rows {
            let lat = south + (Double(rows - row) - 0.5) * cell
            grid +=
                (0..<columns).map {
                    String(value(Coordinate(latitude: lat, longitude: west + (Double($0) + 0.5) * cell)))
                }
                .joined(separator: " ") + "\n"
        }
        let path = folder.appendingPathComponent(name).path
        try Data(grid.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The plane's samples in the tile at `lat`, `lon`.
    static func planeSample(lat: Int, lon: Int) -> (Int, Int) -> Int16 {
        { i, j in Int16(100 + (lon - 13) * 1200 + i - 2 * ((47 - (lat + 1)) * 1200 + j)) }
    }
}

@Suite struct ElevationModelTests {
    @Test func anSRTMTilesSamplesSpanTheWholeDegree() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try DEMFixture.hgt(
            lat: 46, lon: 13, in: folder, value: DEMFixture.planeSample(lat: 46, lon: 13))
        let model = try ElevationModel(path: path)
        // The corners are samples (pixel-is-point): 1201 samples from 13° to 14°, not 1201 pixels.
        #expect(try model.elevation(at: Coordinate(latitude: 47, longitude: 13)) == 100)
        #expect(try model.elevation(at: Coordinate(latitude: 46, longitude: 14)) == 100 + 1200 - 2400)
        #expect(try model.elevation(at: Coordinate(latitude: 47, longitude: 13 + 0.5 / 1200)) == 100.5)
        for (lat, lon) in [(46.5, 13.5), (46.123456, 13.654321), (46.0001, 13.9999), (46.99, 13.01)] {
            let c = Coordinate(latitude: lat, longitude: lon)
            let e = try #require(try model.elevation(at: c))
            #expect(abs(e - DEMFixture.plane(c)) < 0.001, "\(lat), \(lon): \(e)")
        }
        #expect(try model.elevation(at: Coordinate(latitude: 45.5, longitude: 13.5)) == nil)
        #expect(try model.elevation(at: Coordinate(latitude: 46.5, longitude: 14.01)) == nil)
    }

    @Test func aFolderOfTilesAnswersFromTheTileThatCoversThePoint() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try DEMFixture.hgt(lat: 46, lon: 13, in: folder, value: DEMFixture.planeSample(lat: 46, lon: 13))
        let nested = folder.appendingPathComponent("more")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        // Lower case and zipped names are SRTM names too; a hidden file is not looked at.
        try DEMFixture.hgt(
            lat: 46, lon: 14, in: nested, name: "n46e014.hgt", value: DEMFixture.planeSample(lat: 46, lon: 14))
        try Data("not a raster".utf8).write(to: folder.appendingPathComponent(".N46E015.hgt"))
        let model = try ElevationModel(path: folder.path)
        for (lat, lon) in [(46.5, 13.5), (46.5, 14.5), (46.25, 14.0), (46.7, 13.999), (46.2, 14.0001), (46.5, 13.2)] {
            let c = Coordinate(latitude: lat, longitude: lon)
            let e = try #require(try model.elevation(at: c), "\(lat), \(lon)")
            #expect(abs(e - DEMFixture.plane(c)) < 0.001, "\(lat), \(lon): \(e)")
        }
        #expect(try model.elevation(at: Coordinate(latitude: 46.5, longitude: 15.5)) == nil)
        #expect(try model.elevation(at: Coordinate(latitude: 47.5, longitude: 13.5)) == nil)
    }

    @Test func copernicusTilesAreFoundByTheDegreeInTheirNames() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A tile of 47–48° N, 13–14° E as an ASCII grid of 0.1° samples on the plane, under a Copernicus name.
        var grid = "ncols 10\nnrows 10\nxllcorner 13\nyllcorner 47\ncellsize 0.1\n"
        for j in 0..<10 {
            let row = (0..<10).map { i in
                DEMFixture.plane(Coordinate(latitude: 47.95 - 0.1 * Double(j), longitude: 13.05 + 0.1 * Double(i)))
            }
            grid += row.map { String($0) }.joined(separator: " ") + "\n"
        }
        _ = try Fixture.write(Array(grid.utf8), name: "Copernicus_DSM_COG_10_N47_00_E013_00_DEM.asc", in: folder)
        // A damaged tile that only a position in its degree needs: the folder opens without reading it.
        _ = try Fixture.write(Array("not a raster".utf8), name: "Copernicus_DSM_30_S09_00_W078_00_DEM.tif", in: folder)
        let model = try ElevationModel(path: folder.path)
        let c = Coordinate(latitude: 47.42, longitude: 13.37)
        let e = try #require(try model.elevation(at: c))
        #expect(abs(e - DEMFixture.plane(c)) < 0.001, "\(e)")
        #expect(throws: ElevationModelError.self) {
            try model.elevation(at: Coordinate(latitude: -8.5, longitude: -77.5))
        }
        // The masks a Copernicus tile comes with lie over the same degree and are not elevations: left out. A tile
        // whose samples are not in the degree its name gives is an error that names it, not a point off the DEM.
        let masks = folder.appendingPathComponent("AUXFILES")
        try FileManager.default.createDirectory(at: masks, withIntermediateDirectories: true)
        let ones =
            "ncols 10\nnrows 10\nxllcorner 13\nyllcorner 47\ncellsize 0.1\n"
            + String(repeating: String(repeating: "1 ", count: 10) + "\n", count: 10)
        for mask in ["EDM", "FLM", "HEM", "WBM"] {
            _ = try Fixture.write(Array(ones.utf8), name: "Copernicus_DSM_COG_10_N47_00_E013_00_\(mask).asc", in: masks)
        }
        let misnamed = grid.replacingOccurrences(of: "yllcorner 47", with: "yllcorner 40")
        _ = try Fixture.write(Array(misnamed.utf8), name: "Copernicus_DSM_COG_10_N48_00_E013_00_DEM.asc", in: folder)
        let withMasks = try ElevationModel(path: folder.path)
        let again = try #require(try withMasks.elevation(at: c))
        #expect(abs(again - DEMFixture.plane(c)) < 0.001, "\(again)")
        #expect(
            throws: ElevationModelError.misplaced(
                path: folder.path + "/Copernicus_DSM_COG_10_N48_00_E013_00_DEM.asc",
                latitude: 48, longitude: 13)
        ) {
            try withMasks.elevation(at: Coordinate(latitude: 48.5, longitude: 13.5))
        }
    }

    @Test func tilesThatAbutAreInterpolatedAcrossTheirSeams() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Four tiles of 10 × 10 cells of 0.01° meeting at 13.1° E, 46.1° N, without a shared sample (as
        // Copernicus GLO-30's): between the last sample centres of two tiles, only both give the plane.
        func plane(_ c: Coordinate) -> Double { 100 + 100 * (c.longitude - 13) + 50 * (c.latitude - 46) }
        for (west, south) in [(13.0, 46.0), (13.1, 46.0), (13.0, 46.1), (13.1, 46.1)] {
            try DEMFixture.asciiGrid(
                west: west, south: south, cell: 0.01, columns: 10, rows: 10, in: folder,
                name: "tile_\(Int(west * 10))_\(Int(south * 10)).asc", value: plane)
        }
        let model = try ElevationModel(path: folder.path)
        // A track across the seams both ways, near the corner where the four meet, and back.
        let points = [
            (46.05, 13.05), (46.05, 13.0972), (46.05, 13.0991), (46.05, 13.1), (46.05, 13.1004), (46.05, 13.1031),
            (46.05, 13.15), (46.0998, 13.1003), (46.1002, 13.0996), (46.1049, 13.0951), (46.1, 13.1),
            (46.0961, 13.1049), (46.15, 13.1004), (46.15, 13.0999), (46.0999, 13.05), (46.1001, 13.15),
        ]
        for (lat, lon) in points + points.reversed() {
            let c = Coordinate(latitude: lat, longitude: lon)
            let e = try #require(try model.elevation(at: c), "\(lat), \(lon) not covered")
            #expect(abs(e - plane(c)) < 0.002, "\(lat), \(lon): \(e) against \(plane(c))")
        }
        // Beyond the mosaic's outer sample centres the edge samples stand in, as in one raster; beyond it, nothing.
        let edge = Coordinate(latitude: 46.05, longitude: 13.002)
        #expect(try model.elevation(at: edge) == 100 + 0.5 + 50 * 0.05)
        #expect(try model.elevation(at: Coordinate(latitude: 46.05, longitude: 12.998)) == nil)
        #expect(try model.elevation(at: Coordinate(latitude: 46.201, longitude: 13.15)) == nil)
    }

    @Test func sidecarFilesAreRead() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // ESRI's float grid: the samples in the .flt, their grid and no-data value in the .hdr beside it.
        var floats = [Float](repeating: 250, count: 16)
        floats[5] = -9999
        try Data(floats.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) })
            .write(to: folder.appendingPathComponent("grid.flt"))
        let header =
            "ncols 4\nnrows 4\nxllcorner 13\nyllcorner 46\ncellsize 0.01\nnodata_value -9999\nbyteorder LSBFIRST\n"
        try Data(header.utf8).write(to: folder.appendingPathComponent("grid.hdr"))
        let grid = try ElevationModel(path: folder.appendingPathComponent("grid.flt").path)
        #expect(try grid.elevation(at: Coordinate(latitude: 46.035, longitude: 13.005)) == 250)
        #expect(try grid.elevation(at: Coordinate(latitude: 46.025, longitude: 13.015)) == nil)

        // Scale, offset and unit in GDAL's .aux.xml: (10 + 0.5 × 100) feet.
        let sub = folder.appendingPathComponent("aux")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let ascii = try DEMFixture.asciiGrid(
            west: 13, south: 46, cell: 0.01, columns: 4, rows: 4, in: sub, name: "feet.asc", value: { _ in 100 })
        let aux = """
            <PAMDataset><PAMRasterBand band="1"><UnitType>ft</UnitType><Offset>10</Offset><Scale>0.5</Scale>\
            </PAMRasterBand></PAMDataset>
            """
        try Data(aux.utf8).write(to: URL(fileURLWithPath: ascii + ".aux.xml"))
        let feet = try ElevationModel(path: ascii)
        #expect(try feet.elevation(at: Coordinate(latitude: 46.035, longitude: 13.035)) == 18.288)
        // The same from a folder of tiles.
        let inFolder = try ElevationModel(path: sub.path)
        #expect(try inFolder.elevation(at: Coordinate(latitude: 46.035, longitude: 13.035)) == 18.288)

        // A world file places an image that has no position of its own; its no-data value is in the .aux.xml.
        let image = try Fixture.write(Array("P5\n2 2\n255\n".utf8) + [10, 20, 30, 40], name: "image.pgm", in: folder)
        try Data("0.01\n0\n0\n-0.01\n13.005\n46.995\n".utf8).write(to: folder.appendingPathComponent("image.wld"))
        let noData = #"<PAMDataset><PAMRasterBand band="1"><NoDataValue>40</NoDataValue></PAMRasterBand></PAMDataset>"#
        try Data(noData.utf8).write(to: URL(fileURLWithPath: image + ".aux.xml"))
        let placed = try ElevationModel(path: image)
        #expect(try placed.elevation(at: Coordinate(latitude: 46.995, longitude: 13.005)) == 10)
        #expect(try placed.elevation(at: Coordinate(latitude: 46.985, longitude: 13.005)) == 30)
        #expect(try placed.elevation(at: Coordinate(latitude: 46.985, longitude: 13.015)) == nil)
    }

    @Test func aLineThatKeepsRecordedElevationsIsMeasuredAsRecordedData() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try ElevationModel(
            path: try DEMFixture.hgt(lat: 46, lon: 13, in: folder, value: DEMFixture.planeSample(lat: 46, lon: 13)))
        // 2,000 fixes 5 m apart along a parallel, recorded with noise of ±5 m: one line on the DEM, one off it.
        var random = SeededRandom(state: 7)
        func line(latitude: Double) -> [TrackPoint] {
            (0..<2000).map { k in
                TrackPoint(
                    coordinate: Coordinate(latitude: latitude, longitude: 13.2 + Double(k) * 0.000065),
                    elevation: 500 + Double.random(in: -5...5, using: &random))
            }
        }
        let (on, off) = (line(latitude: 46.5), line(latitude: 45.5))
        func feed(_ lines: [[TrackPoint]], into handler: GPXHandler) throws {
            for points in lines {
                try handler.beginTrack()
                try handler.beginSegment()
                for p in points { try handler.trackPoint(p) }
                try handler.endSegment()
                try handler.endTrack(Details())
            }
        }
        // Exact data on the line the DEM covers; the other's recorded noise measured as such, across threads.
        let collector = StatisticsCollector(method: .exact)
        collector.methodForRecordedElevations = .standard
        let pipeline = GPXPipeline(into: collector)
        let handler = ElevationModelHandler(model: model, into: pipeline)
        try feed([on, off], into: handler)
        try pipeline.finish()
        #expect(handler.tally.linesKeepingRecordedElevations == 1)
        let rise = DEMFixture.plane(on[1999].coordinate) - DEMFixture.plane(on[0].coordinate)
        #expect(abs(try #require(collector.tracks[0].ascent).ascentMeters - rise) < 0.01)
        let standard = StatisticsCollector(method: .standard)
        let exact = StatisticsCollector(method: .exact)
        try feed([off], into: standard)
        try feed([off], into: exact)
        let measured = try #require(collector.tracks[1].ascent)
        #expect(measured == standard.tracks[0].ascent)
        #expect(measured.ascentMeters * 10 < (exact.tracks[0].ascent?.ascentMeters ?? 0))

        // The same count for a track in memory.
        var tally = ElevationModel.Tally()
        var inMemory = Track(segments: [TrackSegment(points: on)])
        try model.apply(to: &inMemory, mode: .replace, tally: &tally)
        #expect(tally.linesKeepingRecordedElevations == 0)
        inMemory = Track(segments: [TrackSegment(points: on), TrackSegment(points: off)])
        try model.apply(to: &inMemory, mode: .replace, tally: &tally)
        #expect(tally.linesKeepingRecordedElevations == 1)
    }

    @Test func aVoidInTheModelCostsTheAscentOnlyItsOwnStretch() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Hills of 80 m and 20 m along the parallels; the second tile has a void 1.3 km wide across them.
        func hills(_ i: Int, _ j: Int) -> Int16 { Int16(500 + 40 * sin(Double(i) / 15) + 10 * sin(Double(i) / 3)) }
        let whole = try ElevationModel(path: try DEMFixture.hgt(lat: 46, lon: 13, in: folder, value: hills))
        let sub = folder.appendingPathComponent("void")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let voided = try ElevationModel(
            path: try DEMFixture.hgt(lat: 46, lon: 13, in: sub) { i, j in (300..<320).contains(i) ? -32768 : hills(i, j)
            })
        // 2,000 fixes 5 m apart, recorded 20 m high with 3 m of noise.
        var random = SeededRandom(state: 11)
        let points = try (0..<2000).map { k in
            let c = Coordinate(latitude: 46.5, longitude: 13.2 + Double(k) * 0.000065)
            let terrain = try #require(try whole.elevation(at: c))
            return TrackPoint(coordinate: c, elevation: terrain + 20 + 3 * random.gaussian())
        }
        func ascent(_ model: ElevationModel) throws -> (Double, ElevationModel.Tally) {
            let collector = StatisticsCollector(method: .exact)
            collector.methodForRecordedElevations = .standard
            let handler = ElevationModelHandler(model: model, into: collector)
            try handler.beginTrack()
            try handler.beginSegment()
            for p in points { try handler.trackPoint(p) }
            try handler.endSegment()
            try handler.endTrack(Details())
            return (try #require(collector.tracks[0].ascent).ascentMeters, handler.tally)
        }
        let (truth, _) = try ascent(whole)
        let (measured, tally) = try ascent(voided)
        #expect(tally.notCovered > 200 && tally.linesKeepingRecordedElevations == 1)
        #expect(abs(measured - truth) / truth < 0.02)

        // The same for a track in memory, and its profile.
        var track = Track(segments: [TrackSegment(points: points)])
        var counted = ElevationModel.Tally()
        let recorded = try voided.apply(to: &track, mode: .replace, tally: &counted)
        #expect(recorded.count == counted.notCovered)
        #expect(recorded.allSatisfy { track.segments[0].points[$0].elevation == points[$0].elevation })
        let profile = ElevationProfile(track: track, method: .exact, recorded: recorded, recordedMethod: .standard)
        #expect(profile.statistics.ascent?.ascentMeters == measured)

        // In two segments, the void (fixes 763-1019) in the second: each measured on its own, the positions
        // counted across both.
        var split = Track(segments: [
            TrackSegment(points: Array(points[..<400])), TrackSegment(points: Array(points[400...])),
        ])
        let recordedInSplit = try voided.apply(to: &split, mode: .replace, tally: &counted)
        #expect(recordedInSplit == recorded)
        let parts = split.segments.map { Track(segments: [$0]) }
        let second = recorded.map { $0 - 400 }
        let sum =
            try #require(ElevationProfile(track: parts[0], method: .exact).statistics.ascent).ascentMeters
            + (try #require(
                ElevationProfile(track: parts[1], method: .exact, recorded: second, recordedMethod: .standard)
                    .statistics.ascent
            )
            .ascentMeters)
        let both = ElevationProfile(track: split, method: .exact, recorded: recordedInSplit, recordedMethod: .standard)
        #expect(abs(try #require(both.statistics.ascent).ascentMeters - sum) < 1e-6)
        #expect(abs(sum - truth) / truth < 0.02)

        // Filling a recording's gap: its recorded elevations kept and measured as such, the model's as exact.
        var gappy = Track(
            segments: [
                TrackSegment(
                    points: points.enumerated().map { k, p in
                        var p = p
                        if (900..<1100).contains(k) { p.elevation = nil }
                        return p
                    })
            ])
        var filledTally = ElevationModel.Tally()
        let kept = try whole.apply(to: &gappy, mode: .fill, tally: &filledTally)
        #expect(kept == Array(0..<900) + Array(1100..<2000))
        let filled = ElevationProfile(track: gappy, method: .exact, recorded: kept, recordedMethod: .standard)
        let recordedOnly = ElevationProfile(track: Track(segments: [TrackSegment(points: points)]))
        let filledAscent = try #require(filled.statistics.ascent).ascentMeters
        #expect(abs(filledAscent - truth) / truth < 0.03, "\(filledAscent) of \(truth)")
        #expect(abs(filledAscent - truth) < abs(try #require(recordedOnly.statistics.ascent).ascentMeters - truth) + 5)
    }

    @Test func gzippedSRTMTilesAreRead() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiles = folder.appendingPathComponent("skadi/N46")
        try FileManager.default.createDirectory(at: tiles, withIntermediateDirectories: true)
        for lon in [13, 14] {
            let plain = try DEMFixture.hgt(
                lat: 46, lon: lon, in: folder, value: DEMFixture.planeSample(lat: 46, lon: lon))
            let gzipped = tiles.appendingPathComponent(String(format: "N46E%03d.hgt.gz", lon))
            try Data(DEMFixture.gzip(Array(try Data(contentsOf: URL(fileURLWithPath: plain))))).write(to: gzipped)
            try FileManager.default.removeItem(atPath: plain)
        }
        let model = try ElevationModel(path: folder.path)
        for (lat, lon) in [(46.5, 13.5), (46.25, 14.0), (46.7, 14.9)] {
            let c = Coordinate(latitude: lat, longitude: lon)
            let e = try #require(try model.elevation(at: c), "\(lat), \(lon)")
            #expect(abs(e - DEMFixture.plane(c)) < 0.001, "\(lat), \(lon): \(e)")
        }
        let single = try ElevationModel(path: tiles.appendingPathComponent("N46E014.hgt.gz").path)
        #expect(
            try single.elevation(at: Coordinate(latitude: 46.5, longitude: 14.5))
                == DEMFixture.plane(
                    Coordinate(latitude: 46.5, longitude: 14.5)))
        // Nothing is left beside the tiles (GDAL would write an index of the .gz).
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: tiles.path).sorted() == [
                "N46E013.hgt.gz", "N46E014.hgt.gz",
            ])
        // A damaged one is no raster.
        let damaged = try Fixture.write(
            [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + Array("not deflate".utf8), name: "N47E013.hgt.gz", in: folder)
        #expect {
            try ElevationModel(path: damaged)
        } throws: { error in
            guard case .notARaster(damaged, _) = error as? ElevationModelError else { return false }
            return true
        }
    }

    @Test func longitudesPast180DegreesAreATurnAway() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Rasters in degrees across the antimeridian (179.9° to 180.1°) and in 0…360° (77° W as 283°), each on a
        // plane that rises 10 m a thousandth of a degree east from its west edge.
        func plane(_ west: Double) -> (Coordinate) -> Double {
            { c in 100 + 10_000 * (c.longitude - west) + 10 * c.latitude }
        }
        let across = try DEMFixture.asciiGrid(
            west: 179.9, south: -17.1, cell: 0.01, columns: 20, rows: 20, in: folder, name: "across.asc",
            value: plane(179.9))
        let sub = folder.appendingPathComponent("tiles")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try DEMFixture.asciiGrid(
            west: 282.9, south: -11.1, cell: 0.01, columns: 20, rows: 20, in: sub, name: "west.asc", value: plane(282.9)
        )
        let cases: [(String, Double, Double, Double, Double)] = [
            (across, 179.9, -17.0, 179.95, 179.95), (across, 179.9, -17.0, -179.95, 180.05),
            (across, 179.9, -16.95, -179.9055, 180.0945), (sub.path, 282.9, -11.0, -77.05, 282.95),
            (sub.path, 282.9, -10.955, -76.9449, 283.0551),
        ]
        for (path, west, lat, lon, inRaster) in cases {
            let e = try #require(
                try ElevationModel(path: path).elevation(at: Coordinate(latitude: lat, longitude: lon)))
            let expected = plane(west)(Coordinate(latitude: lat, longitude: inRaster))
            #expect(abs(e - expected) < 0.002, "\(lat), \(lon): \(e) against \(expected)")
        }
        #expect(try ElevationModel(path: across).elevation(at: Coordinate(latitude: -17, longitude: -179.8)) == nil)
        #expect(try ElevationModel(path: sub.path).elevation(at: Coordinate(latitude: -11, longitude: 76.95)) == nil)
    }

    @Test func samplesWithoutDataDropOut() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try DEMFixture.hgt(lat: 46, lon: 13, in: folder) { i, j in
            i == 600 && j == 600 ? -32768 : 500
        }
        let model = try ElevationModel(path: path)
        let hole = Coordinate(latitude: 47 - 600.0 / 1200, longitude: 13 + 600.0 / 1200)
        #expect(try model.elevation(at: hole) == nil)
        // Nearer a sample with data: the others share the weight, and the hole does not pull the value down.
        let beside = Coordinate(latitude: hole.latitude, longitude: hole.longitude + 0.7 / 1200)
        #expect(try model.elevation(at: beside) == 500)
    }

    @Test(.requires(.gdalTranslate), .requires(.gdalTransform))
    func aGeoTIFFInAProjectedCRSIsSampledWhereItsCRSPutsThePoint() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 400 × 400 cells of 30 m in UTM zone 33N, pixel-is-area, on a plane in metres east and north.
        let (x0, y0, cell, n) = (400_000.0, 5_100_000.0, 30.0, 400)
        func plane(_ x: Double, _ y: Double) -> Double { 200 + 0.01 * (x - x0) + 0.02 * (y - y0) }
        var grid = "ncols \(n)\nnrows \(n)\nxllcorner \(x0)\nyllcorner \(y0)\ncellsize \(cell)\nNODATA_value -9999\n"
        for row in 0..<n {
            let y = y0 + (Double(n - row) - 0.5) * cell
            grid += (0..<n).map { String(plane(x0 + (Double($0) + 0.5) * cell, y)) }.joined(separator: " ") + "\n"
        }
        let ascii = folder.appendingPathComponent("utm.asc").path
        let tiff = folder.appendingPathComponent("utm.tif").path
        try Data(grid.utf8).write(to: URL(fileURLWithPath: ascii))
        try Tool.gdalTranslate.run(["-q", "-a_srs", "EPSG:32633", "-ot", "Float64", ascii, tiff])
        let model = try ElevationModel(path: tiff)
        for (x, y) in [(410_000.0, 5_105_000.0), (400_100.5, 5_111_900.25), (411_111.0, 5_100_020.0)] {
            let lonLat = try Tool.gdalTransform.run(
                ["-s_srs", "EPSG:32633", "-t_srs", "EPSG:4326", "-output_xy"], input: "\(x) \(y)\n")
            let parts = lonLat.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
            let c = Coordinate(latitude: parts[1], longitude: parts[0])
            let e = try #require(try model.elevation(at: c))
            #expect(abs(e - plane(x, y)) < 0.002, "\(x), \(y): \(e) against \(plane(x, y))")
        }
        #expect(try model.elevation(at: Coordinate(latitude: 46.5, longitude: 13.5)) == nil)
    }

    @Test(.requires(.gdalBuildVRT)) func aVRTOfTilesIsOneModel() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiles = try [13, 14].map {
            try DEMFixture.hgt(lat: 46, lon: $0, in: folder, value: DEMFixture.planeSample(lat: 46, lon: $0))
        }
        let vrt = folder.appendingPathComponent("mosaic.vrt").path
        try Tool.gdalBuildVRT.run(["-q", vrt] + tiles)
        let model = try ElevationModel(path: vrt)
        for (lat, lon) in [(46.5, 13.5), (46.5, 14.5), (46.3, 14.0)] {
            let c = Coordinate(latitude: lat, longitude: lon)
            let e = try #require(try model.elevation(at: c))
            #expect(abs(e - DEMFixture.plane(c)) < 0.001, "\(lat), \(lon): \(e)")
        }
    }

    @Test func whatCannotBeAModelSaysWhy() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("none.tif").path
        #expect(throws: ElevationModelError.cannotOpen(path: missing, reason: "no such file or folder")) {
            try ElevationModel(path: missing)
        }
        let text = try Fixture.write(Array("<gpx></gpx>".utf8), name: "track.gpx", in: folder)
        #expect {
            try ElevationModel(path: text)
        } throws: { error in
            guard case .notARaster(text, _) = error as? ElevationModelError else { return false }
            return true
        }
        // A raster without a position on Earth: a plain grey image.
        let image = try Fixture.write(Array("P5\n2 2\n255\n".utf8) + [1, 2, 3, 4], name: "image.pgm", in: folder)
        #expect {
            try ElevationModel(path: image)
        } throws: { error in
            guard case .notGeoreferenced(image, _) = error as? ElevationModelError else { return false }
            return true
        }
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect(throws: ElevationModelError.noTiles(path: empty.path)) { try ElevationModel(path: empty.path) }
        // An SRTM name on a file of the wrong size.
        let short = try Fixture.write([0, 1, 2, 3], name: "N46E013.hgt", in: empty)
        #expect {
            try ElevationModel(path: empty.path).elevation(at: Coordinate(latitude: 46.5, longitude: 13.5))
        } throws: { error in
            guard case .notARaster(short, _) = error as? ElevationModelError else { return false }
            return true
        }
        // A gzipped tile cut short: said in words, without the place in GDAL's source.
        let cut = DEMFixture.gzip([UInt8](repeating: 7, count: 2 * DEMFixture.side * DEMFixture.side)).prefix(100_000)
        let gzipped = try Fixture.write(Array(cut), name: "N47E013.hgt.gz", in: empty)
        #expect {
            try ElevationModel(path: empty.path).elevation(at: Coordinate(latitude: 47.5, longitude: 13.5))
        } throws: { error in
            guard case .notARaster(gzipped, let reason) = error as? ElevationModelError else { return false }
            return !reason.contains(".cpp") && !reason.contains("at line")
        }
    }

    @Test func aTrackTakesTheModelsElevationsAsTheModeSays() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try DEMFixture.hgt(
            lat: 46, lon: 13, in: folder, value: DEMFixture.planeSample(lat: 46, lon: 13))
        let model = try ElevationModel(path: path)
        let points = [
            TrackPoint(coordinate: Coordinate(latitude: 46.5, longitude: 13.5), elevation: 7),
            TrackPoint(coordinate: Coordinate(latitude: 46.6, longitude: 13.6)),
            TrackPoint(coordinate: Coordinate(latitude: 45.6, longitude: 13.6), elevation: 9),
        ]
        let track = Track(segments: [TrackSegment(points: points)])
        var replaced = track
        var tally = ElevationModel.Tally()
        try model.apply(to: &replaced, mode: .replace, tally: &tally)
        #expect(replaced.segments[0].points.map(\.elevation) == [-500, -140, 9])
        #expect(tally.fromModel == 2 && tally.notCovered == 1)
        #expect(tally.firstNotCovered == points[2].coordinate)
        var filled = track
        var fillTally = ElevationModel.Tally()
        try model.apply(to: &filled, mode: .fill, tally: &fillTally)
        #expect(filled.segments[0].points.map(\.elevation) == [7, -140, 9])
        #expect(fillTally.fromModel == 1 && fillTally.notCovered == 0)

        // Streaming: the same through a handler, waypoints and route points included.
        let builder = GPXDocumentBuilder()
        let handler = ElevationModelHandler(model: model, into: builder)
        try handler.waypoint(Waypoint(coordinate: points[0].coordinate))
        try handler.beginTrack()
        try handler.beginSegment()
        for p in points { try handler.trackPoint(p) }
        try handler.endSegment()
        try handler.endTrack(Details())
        #expect(builder.document.waypoints.map(\.elevation) == [-500])
        #expect(builder.document.tracks[0].segments[0].points.map(\.elevation) == [-500, -140, 9])
        #expect(handler.tally.fromModel == 3 && handler.tally.notCovered == 1)
    }
}

@Suite struct ReliefTests {
    /// The light of a slope: the alpha and colour of the middle pixel of a 3 × 3 plane with these gradients.
    static func pixel(east dzdx: Double, north dzdy: Double) -> [UInt8] {
        let e = (0..<3).flatMap { row in (0..<3).map { column in Double(column) * dzdx - Double(row) * dzdy } }
        return Array(Relief.shade(e, columns: 3, rows: 3, metresPerCell: 1)[16..<20])
    }

    @Test func slopesFacingTheSunAreLightAndTheOthersDark() {
        #expect(Self.pixel(east: 0, north: 0) == [255, 255, 255, 0])  // flat ground: transparent
        // Rising to the south-east faces the north-western sun: white; rising to the north-west: black.
        let lit = Self.pixel(east: 0.5, north: -0.5)
        #expect(lit[0] == 255 && lit[3] > 50)
        let shadow = Self.pixel(east: -0.5, north: 0.5)
        #expect(shadow[0] == 0 && shadow[3] > 100)
        // Across the sun's direction, a slope is lit nearly as flat ground.
        #expect(Self.pixel(east: 0.5, north: 0.5)[3] < 40)
    }

    @Test func theReliefOfAModelIsAPNGImage() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try ElevationModel(
            path: try DEMFixture.hgt(lat: 46, lon: 13, in: folder, value: DEMFixture.planeSample(lat: 46, lon: 13)))
        let png = try #require(
            try Relief.png(from: model, columns: 20, rows: 10, metresPerCell: 100) { column, row in
                Coordinate(latitude: 46.5 + Double(row) * 0.001, longitude: 13.5 + Double(column) * 0.001)
            })
        #expect(png.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let none = try Relief.png(from: model, columns: 20, rows: 10, metresPerCell: 100) { _, _ in
            Coordinate(latitude: 10, longitude: 10)
        }
        #expect(none == nil)
        // Put in base64 by GDAL, as a map's data: URL has it: the standard alphabet, padded, on one line.
        var random = SeededRandom(state: 3)
        for bytes in [[], [0], [1, 2], [0xFF, 0xFE, 0xFD], [0, 0, 0, 0], png]
            + (0..<20).map({ n in (0..<n * 7).map { _ in UInt8.random(in: 0...255, using: &random) } })
        {
            #expect(Relief.base64(bytes) == Data(bytes).base64EncodedString())
        }
    }
}
