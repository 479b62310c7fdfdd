/// The formats RouteKit reads, told apart by their first bytes rather than by file name.
public enum InputFormat: String, Sendable {
    case gpx
    case geojson

    /// The format of `input`, judged from its first character (after a byte-order mark and white space), in
    /// UTF-8 or UTF-16: `<` is XML, hence GPX; `{`, `[` or a record separator is GeoJSON. Nil for anything else.
    /// (UTF-16 GeoJSON is recognised only to be refused with a clear message: JSON must be UTF-8.)
    public static func detect(_ input: InputFile) throws -> InputFormat? {
        let head = try input.peek(512)
        var i = 0
        var wide = false
        if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF {
            i = 3
        } else if head.count >= 2, (head[0] == 0xFE && head[1] == 0xFF) || (head[0] == 0xFF && head[1] == 0xFE) {
            i = 2
            wide = true
        } else if head.count >= 2, head[0] == 0 || head[1] == 0 {
            wide = true
        }
        while i < head.count,
            head[i] == 0x20 || head[i] == 0x09 || head[i] == 0x0A || head[i] == 0x0D || (wide && head[i] == 0)
        {
            i += 1
        }
        guard i < head.count else { return nil }
        switch head[i] {
        case 0x3C: return .gpx
        case 0x7B, 0x5B, 0x1E: return .geojson
        default: return nil
        }
    }
}
