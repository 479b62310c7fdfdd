import Glibc

/// A digital elevation model: one raster GDAL reads (GeoTIFF, SRTM `.hgt`, VRT, …) or a folder of tiles, giving
/// the terrain's elevation at a WGS84 position by bilinear interpolation between sample centres.
///
/// The raster's own geotransform and CRS place its samples (any CRS PROJ knows); no-data samples are left
/// out. A folder's tiles are found by name and opened when a position first needs them, each once: SRTM
/// tiles by the degree in their name (`N46E013.hgt`, also zipped or gzipped), Copernicus DEM tiles likewise
/// (`Copernicus_DSM_COG_10_N46_00_E013_00_DEM.tif`), other rasters by their extent,
/// read from their header when the folder is opened. Any tile that covers a position answers; beyond a tile's
/// outer sample centres the next tile's samples take part, so that tiles that abut are interpolated across
/// their seams as one raster of them would be. Sidecar files (`.aux.xml`, world files, `.hdr`) are read; a
/// raster in longitude and latitude past ±180° answers a turn away. Samples are read in windows of 256 × 256,
/// each read once and kept (the least recently used are dropped beyond 64 MiB a tile). Safe to use from several
/// threads: the lookups take turns under a ``Lock``.
public final class ElevationModel: @unchecked Sendable {
    /// What the model does to the elevations of a track.
    public enum Mode: String, Sendable, CaseIterable {
        /// Every point takes the model's elevation (where the model covers it).
        case replace
        /// Only points without an elevation take the model's.
        case fill
    }

    /// How many points took the model's elevation, and which it did not cover.
    public struct Tally: Hashable, Sendable {
        /// Points that took the model's elevation.
        public var fromModel = 0
        /// Points the model does not cover (or where it has no data), which kept their own elevation.
        public var notCovered = 0
        /// The first of those.
        public var firstNotCovered: Coordinate?
        /// Tracks and routes some of whose points kept their recorded elevations (not covered, or left as they
        /// were by ``Mode/fill``): their elevations are not all the model's.
        public var linesKeepingRecordedElevations = 0

        public init() {}

        /// Counts one point: `elevation` is the model's there, nil where it does not cover `coordinate`.
        mutating func count(_ elevation: Double?, at coordinate: Coordinate) {
            if elevation != nil {
                fromModel += 1
            } else {
                notCovered += 1
                if firstNotCovered == nil { firstNotCovered = coordinate }
            }
        }

        /// Adds the counts of `other`, keeping the first uncovered point seen.
        public mutating func add(_ other: Tally) {
            fromModel += other.fromModel
            notCovered += other.notCovered
            linesKeepingRecordedElevations += other.linesKeepingRecordedElevations
            if firstNotCovered == nil { firstNotCovered = other.firstNotCovered }
        }
    }

    /// The extensions of the raster files a folder is searched for (`.hgt.zip` and `.hgt.gz` count as `.hgt`).
    public static let tileExtensions: Set<String> = [
        "hgt", "tif", "tiff", "vrt", "img", "asc", "bil", "flt", "dem", "dt0", "dt1", "dt2",
    ]

    /// The file or folder the model was opened from.
    public let path: String
    /// Touched only under `lock`.
    private let tiles: Tiles
    private let lock = Lock()

    /// Opens the raster at `path`, or the folder of tiles at `path`.
    public init(path: String) throws(ElevationModelError) {
        self.path = path
        guard access(path, F_OK) == 0 else {  // -1 on error
            throw .cannotOpen(path: path, reason: "no such file or folder")
        }
        guard access(path, R_OK) == 0 else {
            throw .cannotOpen(path: path, reason: "permission denied")
        }
        tiles = Folder.exists(path) ? try Tiles(folder: path) : Tiles(tile: try RasterTile(path: path))
    }

    /// The terrain's elevation at `coordinate` in metres, or nil where the model has no data.
    public func elevation(at coordinate: Coordinate) throws(ElevationModelError) -> Double? {
        try lock.withLock { () throws(ElevationModelError) in try tiles.elevation(at: coordinate) }
    }

    /// Sets the elevations of `track`'s points from the model as `mode` says, counting into `tally`.
    ///
    /// - Returns: the points that kept recorded elevations, as positions among the track's points counted across
    ///   its segments, ascending (for ``ElevationProfile/init(track:method:recorded:recordedMethod:)``).
    @discardableResult
    public func apply(to track: inout Track, mode: Mode, tally: inout Tally) throws(ElevationModelError) -> [Int] {
        try lock.withLock { () throws(ElevationModelError) in try setElevations(of: &track, mode: mode, tally: &tally) }
    }

    /// ``apply(to:mode:tally:)``, with the lock held.
    private func setElevations(
        of track: inout Track, mode: Mode, tally: inout Tally
    ) throws(ElevationModelError) -> [Int] {
        var recorded: [Int] = []
        var position = 0
        for s in track.segments.indices {
            for p in track.segments[s].points.indices {
                defer { position += 1 }
                let point = track.segments[s].points[p]
                guard mode == .replace || point.elevation == nil else {
                    recorded.append(position)
                    continue
                }
                let e = try tiles.elevation(at: point.coordinate)
                tally.count(e, at: point.coordinate)
                if let e {
                    track.segments[s].points[p].elevation = e
                } else if point.elevation != nil {
                    recorded.append(position)
                }
            }
        }
        if !recorded.isEmpty { tally.linesKeepingRecordedElevations += 1 }
        return recorded
    }

}

/// The tiles of an elevation model, opened when first needed, and which one answered last.
private final class Tiles {
    private struct Entry {
        let path: String
        var tile: RasterTile?
        /// Longitude and latitude bounds, to find the candidates for a position before opening anything.
        let west: Double, south: Double, east: Double, north: Double
        /// Whether the bounds are the degree the file's name gives (checked against its samples when opened).
        var named = false
    }

    private var entries: [Entry]
    /// Entries by whole degree of latitude and longitude (`cell`) that their bounds touch.
    private var byCell: [Int: [Int]] = [:]
    private var lastHit: Int?

    init(tile: RasterTile) {
        entries = [Entry(path: tile.path, tile: tile, west: -180, south: -90, east: 180, north: 90, named: false)]
    }

    init(folder: String) throws(ElevationModelError) {
        entries = []
        let files = Self.rasterFiles(in: folder)
        guard !files.isEmpty else { throw .noTiles(path: folder) }
        for path in files {
            let name = String(path[(path.lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex)...])
            if let degree = Self.srtmDegree(name) ?? Self.copernicusDegree(name) {
                let margin = 0.01
                entries.append(
                    Entry(
                        path: path, tile: nil, west: degree.lon - margin, south: degree.lat - margin,
                        east: degree.lon + 1 + margin, north: degree.lat + 1 + margin, named: true))
            } else {
                // Opened now for its extent; kept open, unless the folder has so many that file handles run short.
                let tile = try RasterTile(path: path)
                let b = tile.bounds()
                entries.append(
                    Entry(
                        path: path, tile: entries.count < 200 ? tile : nil, west: b.west, south: b.south, east: b.east,
                        north: b.north, named: false))
            }
        }
        // The whole degree of a bound, within ±limit (a damaged raster's extent can be any double).
        func degree(_ value: Double, _ limit: Double) -> Int { Int(min(max(value, -limit), limit).rounded(.down)) }
        for (index, e) in entries.enumerated() {
            guard [e.south, e.north, e.west, e.east].allSatisfy(\.isFinite) else { continue }
            let (south, north) = (degree(e.south, 90), degree(e.north, 90))
            // Longitudes past ±180° (a raster in 0…360°) are found a turn back too.
            for turn in [0.0, -360, 360] where e.west + turn <= 180 && e.east + turn >= -180 {
                let (west, east) = (degree(e.west + turn, 180), degree(e.east + turn, 180))
                guard south <= north, west <= east else { continue }
                for lat in south...north {
                    for lon in west...east where !(byCell[Self.cell(lat, lon)]?.last == index) {
                        byCell[Self.cell(lat, lon), default: []].append(index)
                    }
                }
            }
        }
    }

    private static func cell(_ lat: Int, _ lon: Int) -> Int { (lat + 90) * 361 + (lon + 180) }

    /// The raster files under `folder` (sub-folders too), in name order; hidden files are left out.
    private static func rasterFiles(in folder: String) -> [String] {
        var found: [String] = []
        // Sub-folders are entered, but not through links (which could lead back up).
        func walk(_ path: String) {
            guard let items = try? Folder.list(path) else { return }
            for item in items where !item.name.hasPrefix(".") {
                let itemPath = path.hasSuffix("/") ? path + item.name : path + "/" + item.name
                if item.isFolder {
                    var info = stat()
                    if lstat(itemPath, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { walk(itemPath) }
                    continue
                }
                let name = item.name.lowercased()
                var ext = name.lastIndex(of: ".").map { String(name[name.index(after: $0)...]) } ?? ""
                if ext == "zip" || ext == "gz", name.hasSuffix(".hgt." + ext) { ext = "hgt" }
                if ElevationModel.tileExtensions.contains(ext) && !isCopernicusMask(name) { found.append(itemPath) }
            }
        }
        walk(folder)
        return found.sorted()
    }

    /// The south-west corner of an SRTM tile named like `N46E013.hgt`, `N46E013.hgt.gz` or
    /// `s09w078.SRTMGL1.hgt.zip`.
    static func srtmDegree(_ name: String) -> (lat: Double, lon: Double)? {
        let chars = Array(name.uppercased().utf8.prefix(7))
        guard chars.count == 7, chars[0] == UInt8(ascii: "N") || chars[0] == UInt8(ascii: "S"),
            chars[3] == UInt8(ascii: "E") || chars[3] == UInt8(ascii: "W"),
            let lat = Int(String(decoding: chars[1..<3], as: UTF8.self)),
            let lon = Int(String(decoding: chars[4..<7], as: UTF8.self)), lat <= 90, lon <= 180,
            name.lowercased().contains(".hgt")
        else { return nil }
        return (Double(chars[0] == UInt8(ascii: "N") ? lat : -lat), Double(chars[3] == UInt8(ascii: "E") ? lon : -lon))
    }

    /// Whether `name` (lower case) is one of the masks a Copernicus DEM tile comes with (its editing, filling,
    /// height error and water body masks: `…_EDM.tif`, `_FLM`, `_HEM`, `_WBM`), which lie over the same degree as
    /// its elevations and are no elevations.
    static func isCopernicusMask(_ name: String) -> Bool {
        guard name.hasPrefix("copernicus_dsm_"), let dot = name.lastIndex(of: ".") else { return false }
        return ["_edm", "_flm", "_hem", "_wbm"].contains { name[..<dot].hasSuffix($0) }
    }

    /// The south-west corner of a Copernicus DEM tile (GLO-30 or GLO-90) named like
    /// `Copernicus_DSM_COG_10_N46_00_E014_00_DEM.tif` or `Copernicus_DSM_30_S09_00_W078_00_DEM.dt2`: each covers
    /// the one degree its name gives, so a folder of the 26,000 tiles of the world need not open each for its extent.
    static func copernicusDegree(_ name: String) -> (lat: Double, lon: Double)? {
        let parts = name.uppercased().split(separator: "_")
        guard parts.count >= 6, parts[0] == "COPERNICUS", parts[1] == "DSM" else { return nil }
        // The latitude and longitude parts: N46 or S09, then 00, then E014 or W078, then 00.
        for k in 2..<(parts.count - 3) {
            let (lat, lon) = (Array(parts[k].utf8), Array(parts[k + 2].utf8))
            guard lat.count == 3, lon.count == 4, parts[k + 1] == "00", parts[k + 3].hasPrefix("00"),
                lat[0] == UInt8(ascii: "N") || lat[0] == UInt8(ascii: "S"),
                lon[0] == UInt8(ascii: "E") || lon[0] == UInt8(ascii: "W"),
                lat.dropFirst().allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                lon.dropFirst().allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let degreesNorth = Int(String(decoding: lat[1...], as: UTF8.self)),
                let degreesEast = Int(String(decoding: lon[1...], as: UTF8.self)), degreesNorth < 90,
                degreesEast < 180 || (degreesEast == 180 && lon[0] == UInt8(ascii: "W"))
            else { continue }
            return (
                Double(lat[0] == UInt8(ascii: "N") ? degreesNorth : -degreesNorth),
                Double(lon[0] == UInt8(ascii: "E") ? degreesEast : -degreesEast)
            )
        }
        return nil
    }

    /// The elevation at `coordinate`: from a tile that has it between its sample centres, else from a tile that
    /// covers it in the half pixel beyond its outer centres, interpolated across the seam with the samples of the
    /// tiles next to it (as one raster of all the tiles would be); nil where no tile covers it.
    func elevation(at coordinate: Coordinate) throws(ElevationModelError) -> Double? {
        if let lastHit, let p = try pixel(of: coordinate, in: lastHit),
            entries[lastHit].tile?.coversBetweenSamples(p) == true
        {
            return try entries[lastHit].tile?.elevation(at: p)
        }
        var onEdge: (index: Int, p: (x: Double, y: Double))?
        for index in candidates(for: coordinate) {
            guard let p = try pixel(of: coordinate, in: index), let tile = entries[index].tile, tile.covers(p) else {
                continue
            }
            if tile.coversBetweenSamples(p) {
                lastHit = index
                return try tile.elevation(at: p)
            }
            if onEdge == nil { onEdge = (index, p) }
        }
        guard let onEdge, let tile = entries[onEdge.index].tile else { return nil }
        lastHit = onEdge.index
        return try tile.elevation(at: onEdge.p) { (i, j) throws(ElevationModelError) in
            try self.sample(i, j, beyond: onEdge.index)
        }
    }

    /// The entries whose bounds contain `coordinate`.
    private func candidates(for coordinate: Coordinate) -> [Int] {
        let indices: [Int]
        if entries.count == 1 {
            indices = [0]
        } else {
            let lat = Int(min(max(coordinate.latitude, -90), 90).rounded(.down))
            let lon = Int(min(max(coordinate.longitude, -180), 180).rounded(.down))
            indices = byCell[Self.cell(lat, lon)] ?? []
        }
        let lon = coordinate.longitude
        return indices.filter {
            let e = entries[$0]
            return coordinate.latitude >= e.south && coordinate.latitude <= e.north
                && [lon, lon + 360, lon - 360].contains { $0 >= e.west && $0 <= e.east }
        }
    }

    /// Sample `i`, `j` of the tile of entry `index`, which lies beyond its edge, in metres from the tile next to
    /// it that covers the sample's centre (one that has it between its own sample centres first).
    private func sample(_ i: Int, _ j: Int, beyond index: Int) throws(ElevationModelError) -> RasterTile.SampleBeyond {
        guard let centre = entries[index].tile?.sampleCentre(i, j) else { return .uncovered }
        var onEdge: (tile: RasterTile, p: (x: Double, y: Double))?
        for other in candidates(for: centre) where other != index {
            guard let p = try pixel(of: centre, in: other), let tile = entries[other].tile, tile.covers(p) else {
                continue
            }
            // A sample centre of an aligned grid, to rounding.
            if tile.coversBetweenSamples(p, tolerance: 1e-6) {
                onEdge = (tile, p)
                break
            }
            if onEdge == nil { onEdge = (tile, p) }
        }
        guard let onEdge else { return .uncovered }
        return try onEdge.tile.metres(at: onEdge.p).map { .metres($0) } ?? .noData
    }

    /// The fractional pixel coordinates of `coordinate` in the tile of entry `index`, opening the tile when first
    /// needed; nil when PROJ cannot put the position into the tile's CRS.
    private func pixel(of coordinate: Coordinate, in index: Int) throws(ElevationModelError) -> (x: Double, y: Double)?
    {
        let tile: RasterTile
        if let open = entries[index].tile {
            tile = open
        } else {
            let entry = entries[index]
            tile = try RasterTile(path: entry.path)
            if entry.named {
                // The degree its name gives must hold its samples: else it answers nowhere, least of all there.
                let b = tile.bounds()
                let (lat, lon) = ((entry.south + entry.north) / 2, (entry.west + entry.east) / 2)
                guard b.south < lat, lat < b.north, b.west < lon, lon < b.east else {
                    throw .misplaced(path: entry.path, latitude: lat - 0.5, longitude: lon - 0.5)
                }
            }
            entries[index].tile = tile
        }
        return tile.pixel(of: coordinate)
    }
}
