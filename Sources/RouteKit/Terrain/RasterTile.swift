import CGDAL

/// One elevation raster opened with GDAL: where its samples are, how to read them, and the windows of samples
/// read so far. Not thread-safe; ``ElevationModel`` serialises its use.
///
/// Positions go from WGS84 into the raster's CRS (when it has another) and through the inverse of its
/// geotransform to fractional pixel coordinates. GDAL's geotransform always places the edges of the pixels,
/// whatever the file's convention: for a pixel-is-point raster (an SRTM `.hgt` tile, whose 1201 or 3601
/// samples span the whole degree) it is shifted by half a pixel, so sample `i` lies at pixel coordinate
/// `i + 0.5` in both cases and bilinear interpolation between sample centres is right for both.
final class RasterTile {
    let path: String
    let width: Int
    let height: Int
    private let gdal: GDALLibrary
    private let dataset: GDALDatasetH
    private let band: GDALRasterBandH
    private let geotransform: [Double]
    private let inverse: [Double]
    private let transformation: OGRCoordinateTransformationH?
    /// True for a raster in longitude and latitude, whose longitudes may run on past ±180° (0…360°).
    private let geographic: Bool
    /// From the raster's CRS back to WGS84, made when first needed.
    private var backward: OGRCoordinateTransformationH?
    private let noData: Float?
    private let scale: Double
    private let offset: Double
    /// The windows read so far, by their index; a use stamp for each, to evict the least recently used.
    private var windows: [Int: Window] = [:]
    private var clock = 0
    private var last: (key: Int, window: Window)?

    /// Samples per side of the windows read at once.
    static let windowSide = 256
    /// Windows kept per tile: 256 windows of 256² samples are 64 MiB.
    static let windowsKept = 256

    final class Window {
        let values: [Float]
        let width: Int
        var used: Int
        init(values: [Float], width: Int, used: Int) {
            self.values = values
            self.width = width
            self.used = used
        }
    }

    /// Opens the raster at `path` (its first band); a gzipped one (`N46E013.hgt.gz`, as the AWS "skadi" tiles
    /// are) through GDAL's `/vsigzip/`.
    init(path: String) throws(ElevationModelError) {
        let gdal = try GDALLibrary.loaded(for: path)
        let name = path.lowercased().hasSuffix(".gz") && !path.hasPrefix("/vsi") ? "/vsigzip/" + path : path
        // NULL on error, with the reason in GDAL's last message.
        guard let dataset = gdal.openEx(name, UInt32(GDAL_OF_RASTER | GDAL_OF_READONLY), nil, nil, nil) else {
            throw .notARaster(path: path, reason: gdal.lastError(or: "GDAL knows no raster format for it"))
        }
        var ready = false
        defer { if !ready { gdal.close(dataset) } }
        guard gdal.rasterCount(dataset) >= 1, let band = gdal.rasterBand(dataset, 1) else {
            throw .notARaster(path: path, reason: "it has no band of samples")
        }
        let width = Int(gdal.rasterXSize(dataset))
        let height = Int(gdal.rasterYSize(dataset))
        guard width > 0, height > 0 else { throw .notARaster(path: path, reason: "it has no samples") }
        var geotransform = [Double](repeating: 0, count: 6)
        var inverse = [Double](repeating: 0, count: 6)
        guard gdal.geoTransform(dataset, &geotransform) == CE_None else {
            throw .notGeoreferenced(path: path, reason: "no geotransform")
        }
        guard geotransform.allSatisfy(\.isFinite), gdal.invertGeoTransform(&geotransform, &inverse) != 0 else {
            throw .notGeoreferenced(path: path, reason: "a geotransform that cannot be inverted")
        }
        transformation = try Self.transformation(for: dataset, geotransform, width, height, path: path, gdal: gdal)
        geographic = transformation.map { gdal.isGeographic(gdal.transformationTarget($0)) != 0 } ?? true
        var has: Int32 = 0
        let noData = gdal.noDataValue(band, &has)
        self.noData = has != 0 && noData.isFinite ? Float(noData) : nil
        let scale = gdal.rasterScale(band, &has)
        let offset = gdal.rasterOffset(band, &has)
        let unit = gdal.rasterUnitType(band).map { String(cString: $0).lowercased() } ?? ""
        let metresPerUnit = unit.contains("us survey") ? 1200.0 / 3937 : unit.hasPrefix("f") ? 0.3048 : 1
        self.scale = (scale.isFinite && scale != 0 ? scale : 1) * metresPerUnit
        self.offset = (offset.isFinite ? offset : 0) * metresPerUnit
        self.path = path
        self.gdal = gdal
        self.width = width
        self.height = height
        self.dataset = dataset
        self.band = band
        self.geotransform = geotransform
        self.inverse = inverse
        ready = true
    }

    deinit {
        if let transformation { gdal.destroyTransformation(transformation) }
        if let backward { gdal.destroyTransformation(backward) }
        gdal.close(dataset)
    }

    /// The transformation from WGS84 longitude and latitude into the raster's CRS; nil when the raster is in
    /// WGS84 longitude and latitude already, or has no CRS but a geotransform that fits longitudes and latitudes.
    private static func transformation(
        for dataset: GDALDatasetH, _ geotransform: [Double], _ width: Int, _ height: Int, path: String,
        gdal: GDALLibrary
    ) throws(ElevationModelError) -> OGRCoordinateTransformationH? {
        guard let own = gdal.spatialReference(dataset) else {
            let xs = [geotransform[0], geotransform[0] + Double(width) * geotransform[1]]
            let ys = [geotransform[3], geotransform[3] + Double(height) * geotransform[5]]
            guard xs.allSatisfy({ abs($0) <= 360 }), ys.allSatisfy({ abs($0) <= 90.5 }) else {
                throw .notGeoreferenced(path: path, reason: "no CRS, and its coordinates are not degrees")
            }
            return nil
        }
        let wgs84 = gdal.newSpatialReference(nil)
        let target = gdal.cloneSpatialReference(own)
        defer {
            gdal.destroySpatialReference(wgs84)
            gdal.destroySpatialReference(target)
        }
        _ = gdal.importFromEPSG(wgs84, 4326)
        gdal.setAxisMappingStrategy(wgs84, OAMS_TRADITIONAL_GIS_ORDER)
        gdal.setAxisMappingStrategy(target, OAMS_TRADITIONAL_GIS_ORDER)
        if gdal.isSame(wgs84, target) != 0 { return nil }
        guard let transformation = gdal.newTransformation(wgs84, target) else {  // NULL on error
            throw .notGeoreferenced(
                path: path, reason: gdal.lastError(or: "PROJ cannot transform WGS84 into its CRS"))
        }
        return transformation
    }

    /// The raster's extent in WGS84 longitude and latitude: its corners and the middles of its sides, taken
    /// back from its CRS, with a margin of a hundredth of a degree.
    func bounds() -> (west: Double, south: Double, east: Double, north: Double) {
        var xs: [Double] = []
        var ys: [Double] = []
        for (px, py) in [(0.0, 0.0), (0.5, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (0.5, 1), (1, 1)] {
            let column = px * Double(width)
            let row = py * Double(height)
            xs.append(geotransform[0] + column * geotransform[1] + row * geotransform[2])
            ys.append(geotransform[3] + column * geotransform[4] + row * geotransform[5])
        }
        if let transformation,
            let back = gdal.newTransformation(
                gdal.transformationTarget(transformation), gdal.transformationSource(transformation))
        {
            defer { gdal.destroyTransformation(back) }
            _ = gdal.transform(back, Int32(xs.count), &xs, &ys, nil)
        }
        let lon = xs.filter(\.isFinite)
        let lat = ys.filter(\.isFinite)
        guard !lon.isEmpty, !lat.isEmpty else { return (-180, -90, 180, 90) }
        let margin = 0.01
        return (
            (lon.min() ?? -180) - margin, (lat.min() ?? -90) - margin, (lon.max() ?? 180) + margin,
            (lat.max() ?? 90) + margin
        )
    }

    /// The fractional pixel coordinates of a position (0…width across the raster), or nil when PROJ cannot
    /// transform it into the raster's CRS. A position off a raster in longitude and latitude is tried 360° east
    /// and west too, for a raster whose longitudes run on past ±180° (0…360°, or across the antimeridian).
    func pixel(of coordinate: Coordinate) -> (x: Double, y: Double)? {
        var x = coordinate.longitude
        var y = coordinate.latitude
        if let transformation {
            guard gdal.transform(transformation, 1, &x, &y, nil) != 0, x.isFinite, y.isFinite else { return nil }
        }
        let p = (x: inverse[0] + x * inverse[1] + y * inverse[2], y: inverse[3] + x * inverse[4] + y * inverse[5])
        guard geographic, !covers(p) else { return p }
        for turn in [360.0, -360.0] {
            let wrapped = (x: p.x + turn * inverse[1], y: p.y + turn * inverse[4])
            if covers(wrapped) { return wrapped }
        }
        return p
    }

    /// True when the pixel coordinates lie on the raster.
    func covers(_ p: (x: Double, y: Double)) -> Bool {
        p.x >= 0 && p.x <= Double(width) && p.y >= 0 && p.y <= Double(height)
    }

    /// True when the pixel coordinates lie between sample centres, where no neighbouring tile is needed (within
    /// `tolerance` pixels).
    func coversBetweenSamples(_ p: (x: Double, y: Double), tolerance: Double = 0) -> Bool {
        p.x >= 0.5 - tolerance && p.x <= Double(width) - 0.5 + tolerance && p.y >= 0.5 - tolerance
            && p.y <= Double(height) - 0.5 + tolerance
    }

    /// A sample beyond the raster's edge, as another tile of the model gives it.
    enum SampleBeyond {
        /// The sample's value in metres.
        case metres(Double)
        /// The tile there has no data at the sample.
        case noData
        /// No other tile covers the sample: the raster's own edge sample stands in for it.
        case uncovered
    }

    /// The elevation at pixel coordinates on the raster, in metres to the millimetre: bilinear between the four
    /// sample centres around it. Beyond the outer centres, `beyond` gives the samples past the edge (another
    /// tile's, so that a mosaic of tiles is interpolated across its seams as one raster would be); where it
    /// gives none, the nearest edge samples stand in. Samples without data drop out and the others share their
    /// weight; nil when the nearest sample has no data.
    func elevation(
        at p: (x: Double, y: Double), beyond: ((Int, Int) throws(ElevationModelError) -> SampleBeyond)? = nil
    ) throws(ElevationModelError) -> Double? {
        guard let raw = try interpolated(at: p, beyond: beyond) else { return nil }
        // To the millimetre: no DEM is finer, and single-precision samples would otherwise show their last bits.
        return ((offset + scale * raw) * 1000).rounded() / 1000
    }

    /// The elevation at pixel coordinates in metres, not rounded, with the nearest edge samples beyond the
    /// outer centres; nil when the nearest sample has no data.
    func metres(at p: (x: Double, y: Double)) throws(ElevationModelError) -> Double? {
        try interpolated(at: p, beyond: nil).map { offset + scale * $0 }
    }

    /// Bilinear between the four sample centres around pixel coordinates `p`, as stored (before scale and
    /// offset); see ``elevation(at:beyond:)``.
    private func interpolated(
        at p: (x: Double, y: Double), beyond: ((Int, Int) throws(ElevationModelError) -> SampleBeyond)?
    ) throws(ElevationModelError) -> Double? {
        let u = p.x - 0.5
        let v = p.y - 0.5
        let i = Int(u.rounded(.down))
        let j = Int(v.rounded(.down))
        let fx = u - Double(i)
        let fy = v - Double(j)
        let corners = [
            (i, j, (1 - fx) * (1 - fy)), (i + 1, j, fx * (1 - fy)), (i, j + 1, (1 - fx) * fy), (i + 1, j + 1, fx * fy),
        ]
        let nearest = (fx < 0.5 ? 0 : 1) + (fy < 0.5 ? 0 : 2)
        var sum = 0.0
        var weight = 0.0
        for (k, (ci, cj, w)) in corners.enumerated() where w > 0 || k == nearest {
            let value: Double?
            if ci >= 0, ci < width, cj >= 0, cj < height {
                value = try sample(ci, cj)
            } else {
                switch try beyond?(ci, cj) ?? .uncovered {
                case .metres(let metres): value = (metres - offset) / scale
                case .noData: value = nil
                case .uncovered: value = try sample(min(max(ci, 0), width - 1), min(max(cj, 0), height - 1))
                }
            }
            guard let value else {
                if k == nearest { return nil }
                continue
            }
            guard w > 0 else { continue }
            sum += w * value
            weight += w
        }
        guard weight > 0 else { return nil }
        return sum / weight
    }

    /// The WGS84 position of the centre of sample `i`, `j` (which may lie beyond the raster's edge); nil when
    /// PROJ cannot take it back from the raster's CRS.
    func sampleCentre(_ i: Int, _ j: Int) -> Coordinate? {
        let column = Double(i) + 0.5
        let row = Double(j) + 0.5
        var x = geotransform[0] + column * geotransform[1] + row * geotransform[2]
        var y = geotransform[3] + column * geotransform[4] + row * geotransform[5]
        if let transformation {
            if backward == nil {
                // NULL on error: the position is then unknown.
                backward = gdal.newTransformation(
                    gdal.transformationTarget(transformation), gdal.transformationSource(transformation))
            }
            guard let backward, gdal.transform(backward, 1, &x, &y, nil) != 0 else { return nil }
        }
        guard x.isFinite, y.isFinite, abs(y) <= 90 else { return nil }
        return Coordinate(latitude: y, longitude: x)
    }

    /// The sample at column `i`, row `j`, as stored (before scale and offset); nil where it has no data.
    private func sample(_ i: Int, _ j: Int) throws(ElevationModelError) -> Double? {
        let side = Self.windowSide
        let columns = (width + side - 1) / side
        let key = (j / side) * columns + i / side
        let window: Window
        if let last, last.key == key {
            window = last.window
        } else {
            window = try self.window(key, column: i / side, row: j / side)
            last = (key, window)
        }
        let value = window.values[(j % side) * window.width + i % side]
        guard value.isFinite, value != noData else { return nil }
        return Double(value)
    }

    /// The window of samples `key` (at window column `column`, row `row`), read when not kept.
    private func window(_ key: Int, column: Int, row: Int) throws(ElevationModelError) -> Window {
        clock += 1
        if let kept = windows[key] {
            kept.used = clock
            return kept
        }
        let side = Self.windowSide
        let x = column * side
        let y = row * side
        let w = min(side, width - x)
        let h = min(side, height - y)
        var values = [Float](repeating: .nan, count: w * h)
        let status = values.withUnsafeMutableBytes {
            gdal.rasterIO(
                band, GF_Read, Int32(x), Int32(y), Int32(w), Int32(h), $0.baseAddress, Int32(w), Int32(h),
                GDT_Float32, 0, 0)
        }
        guard status == CE_None else {
            throw .readFailed(path: path, reason: gdal.lastError(or: "GDAL could not read its samples"))
        }
        if windows.count >= Self.windowsKept, let oldest = windows.min(by: { $0.value.used < $1.value.used }) {
            windows[oldest.key] = nil
        }
        let window = Window(values: values, width: w, used: clock)
        windows[key] = window
        return window
    }
}
