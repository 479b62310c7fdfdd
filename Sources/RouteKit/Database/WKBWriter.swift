/// Geometries as PostGIS's extended well-known binary (EWKB: little-endian, SRID 4326), written as the hex
/// text PostGIS reads for `geometry` and `geography` values. Every double is written whole: nothing is
/// rounded on the way to the database.
struct WKBWriter {
    private(set) var bytes: [UInt8] = []

    private static let hasZ: UInt32 = 0x8000_0000
    private static let hasM: UInt32 = 0x4000_0000
    private static let hasSRID: UInt32 = 0x2000_0000

    /// A 2D MultiLineString of `lines` (each of two or more positions).
    mutating func multiLineString(_ lines: [[Coordinate]]) {
        header(type: 5, flags: Self.hasSRID)
        word(4326)
        word(UInt32(lines.count))
        for line in lines {
            header(type: 2, flags: 0)
            word(UInt32(line.count))
            for c in line {
                double(c.longitude)
                double(c.latitude)
            }
        }
    }

    /// A MultiLineString with Z (elevation, NaN where unknown) and, with `measures`, M (Unix time in
    /// seconds, NaN where unknown), of `lines` (each of two or more points).
    mutating func multiLineString(_ lines: [[TrackPoint]], measures: Bool) {
        let flags = Self.hasZ | (measures ? Self.hasM : 0)
        header(type: 5, flags: flags | Self.hasSRID)
        word(4326)
        word(UInt32(lines.count))
        for line in lines {
            header(type: 2, flags: flags)
            word(UInt32(line.count))
            for p in line {
                double(p.coordinate.longitude)
                double(p.coordinate.latitude)
                double(p.elevation ?? .nan)
                if measures { double(p.time?.timeIntervalSince1970 ?? .nan) }
            }
        }
    }

    private mutating func header(type: UInt32, flags: UInt32) {
        bytes.append(1)  // little-endian
        word(type | flags)
    }

    private mutating func word(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// The bytes as hex text.
    var hex: String {
        var buffer = ByteBuffer(capacity: bytes.count * 2)
        appendHex(to: &buffer)
        return buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends the bytes as hex text.
    func appendHex(to buffer: inout ByteBuffer) {
        let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
        for b in bytes {
            buffer.append(digits[Int(b >> 4)])
            buffer.append(digits[Int(b & 0xF)])
        }
    }
}
