import CGDAL
import Synchronization

/// Shaded relief from an elevation model, for a map's background: a grid of cells over the map, each lit by
/// the sun from the north-west (azimuth 315°, 45° high, as maps have it since Swiss cartographers made it
/// the rule), by Horn's slope and aspect. The image is transparent where the ground is lit as flat ground
/// is, darkens slopes turned away from the sun and lightens those facing it, so that it lies over any
/// background colour; cells the model does not cover stay transparent.
public enum Relief {
    /// The sun's direction: azimuth clockwise from north and altitude above the horizon, degrees.
    static let azimuth = 315.0
    static let altitude = 45.0

    /// The shaded relief as a PNG image of `columns` × `rows` cells, each `metresPerCell` across, where
    /// `position(column, row)` is the ground under the centre of a cell (nil off the Earth); nil when the model
    /// covers no cell.
    public static func png(
        from model: ElevationModel, columns: Int, rows: Int, metresPerCell: Double,
        position: (Int, Int) -> Coordinate?
    ) throws(ElevationModelError) -> [UInt8]? {
        guard columns >= 3, rows >= 3, metresPerCell > 0 else { return nil }
        var elevations = [Double](repeating: .nan, count: columns * rows)
        var covered = false
        for row in 0..<rows {
            for column in 0..<columns {
                guard let c = position(column, row), let e = try model.elevation(at: c) else { continue }
                elevations[row * columns + column] = e
                covered = true
            }
        }
        guard covered else { return nil }
        return encode(shade(elevations, columns: columns, rows: rows, metresPerCell: metresPerCell), columns, rows)
    }

    /// RGBA pixels: black over slopes in shadow, white over slopes in the sun, in proportion to how much
    /// their light differs from flat ground's.
    package static func shade(_ e: [Double], columns: Int, rows: Int, metresPerCell: Double) -> [UInt8] {
        // The sun as a unit vector east, north, up; flat ground is lit by its height alone.
        let (a, h) = (azimuth * .pi / 180, altitude * .pi / 180)
        let sun = (east: sin(a) * cos(h), north: cos(a) * cos(h), up: sin(h))
        let flat = sun.up
        var pixels = [UInt8](repeating: 0, count: columns * rows * 4)
        func at(_ column: Int, _ row: Int) -> Double {
            e[min(max(row, 0), rows - 1) * columns + min(max(column, 0), columns - 1)]
        }
        for row in 0..<rows {
            for column in 0..<columns {
                let z = (-1...1).flatMap { dy in (-1...1).map { dx in at(column + dx, row + dy) } }
                guard z.allSatisfy(\.isFinite) else { continue }
                // Horn's weighted differences, east and north positive.
                let dzdx = ((z[2] + 2 * z[5] + z[8]) - (z[0] + 2 * z[3] + z[6])) / (8 * metresPerCell)
                let dzdy = ((z[0] + 2 * z[1] + z[2]) - (z[6] + 2 * z[7] + z[8])) / (8 * metresPerCell)
                // The light is the cosine between the ground's normal (−dz/dx, −dz/dy, 1) and the sun.
                let light =
                    (-dzdx * sun.east - dzdy * sun.north + sun.up) / (dzdx * dzdx + dzdy * dzdy + 1).squareRoot()
                let k = (row * columns + column) * 4
                if light < flat {
                    pixels[k + 3] = UInt8(min(150, 150 * (flat - light) / flat))
                } else {
                    (pixels[k], pixels[k + 1], pixels[k + 2]) = (255, 255, 255)
                    pixels[k + 3] = UInt8(min(110, 110 * (light - flat) / (1 - flat)))
                }
            }
        }
        return pixels
    }

    /// Numbers the images being encoded (in GDAL's memory files, which all threads share).
    private static let serial = Atomic(0)

    /// `bytes` in base64 (for a `data:` URL), as GDAL writes it; nil when GDAL cannot be loaded.
    package static func base64(_ bytes: [UInt8]) -> String? {
        guard let gdal = GDALLibrary.available, bytes.count <= Int(Int32.max) / 4 * 3,
            let text = bytes.withUnsafeBufferPointer({ gdal.base64Encode(Int32($0.count), $0.baseAddress) })
        else { return nil }
        defer { gdal.free(text) }
        return String(cString: text)
    }

    /// PNG bytes of RGBA pixels, written by GDAL's PNG driver into memory.
    static func encode(_ pixels: [UInt8], _ columns: Int, _ rows: Int) -> [UInt8]? {
        guard let gdal = GDALLibrary.available, let memory = gdal.driverByName("MEM"),
            let png = gdal.driverByName("PNG"),
            let image = gdal.create(memory, "", Int32(columns), Int32(rows), 4, GDT_Byte, nil)
        else { return nil }
        defer { gdal.close(image) }
        var copied = pixels
        let status = copied.withUnsafeMutableBytes { bytes in
            // Interleaved: 4 bytes a pixel, a row after the other; band k starts at byte k.
            gdal.datasetRasterIO(
                image, GF_Write, 0, 0, Int32(columns), Int32(rows), bytes.baseAddress, Int32(columns), Int32(rows),
                GDT_Byte, 4, nil, 4, Int32(columns * 4), 1)
        }
        guard status == CE_None else { return nil }
        let name = "/vsimem/routekit-relief-\(serial.wrappingAdd(1, ordering: .relaxed).oldValue).png"
        guard let written = gdal.createCopy(png, name, image, 0, nil, nil, nil) else { return nil }
        gdal.close(written)
        defer { _ = gdal.unlink(name) }
        var length: vsi_l_offset = 0
        guard let buffer = gdal.memoryFileBuffer(name, &length, 0) else { return nil }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(length)))
    }
}
