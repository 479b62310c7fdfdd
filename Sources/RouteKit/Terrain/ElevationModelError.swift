/// Why an elevation model (a DEM raster or a folder of tiles) cannot be used.
public enum ElevationModelError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path does not exist or cannot be read.
    case cannotOpen(path: String, reason: String)
    /// The file is not a raster GDAL can read, or has no band.
    case notARaster(path: String, reason: String)
    /// The raster has no geotransform (or one that cannot be inverted), so its samples have no position.
    case notGeoreferenced(path: String, reason: String)
    /// A folder without any raster file.
    case noTiles(path: String)
    /// Reading the samples failed part-way (a truncated or corrupt file).
    case readFailed(path: String, reason: String)
    /// A tile of a folder, found by the degree in its name (`N46E013.hgt`, a Copernicus DEM name), whose samples do
    /// not lie in that degree; `latitude` and `longitude` in degrees are the south-west corner its name gives.
    case misplaced(path: String, latitude: Double, longitude: Double)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): return "\(path): cannot open: \(reason)"
        case let .notARaster(path, reason): return "\(path): not an elevation raster: \(reason)"
        case let .notGeoreferenced(path, reason): return "\(path): the raster has no position on Earth: \(reason)"
        case let .noTiles(path):
            return "\(path): no elevation raster in the folder (looked for "
                + ElevationModel.tileExtensions.sorted().map { ".\($0)" }.joined(separator: ", ") + ")"
        case let .readFailed(path, reason): return "\(path): cannot read the elevations: \(reason)"
        case let .misplaced(path, latitude, longitude):
            let north = "\(Int(abs(latitude)))° \(latitude < 0 ? "S" : "N")"
            let east = "\(Int(abs(longitude)))° \(longitude < 0 ? "W" : "E")"
            let degree = "\(north), \(east)"
            return "\(path): its name places it in the degree from \(degree), but its samples lie elsewhere "
                + "(rename it, or give the file itself as --dem)"
        }
    }

    /// True for the errors of a path that cannot be opened at all (rather than of its content).
    public var isUnreadable: Bool {
        if case .cannotOpen = self { return true }
        return false
    }
}
