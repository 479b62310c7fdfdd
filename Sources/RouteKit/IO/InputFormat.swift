/// The formats RouteKit reads, told apart by their first bytes rather than by file name.
public enum InputFormat: String, Sendable, CaseIterable {
    case gpx
    case geojson
    /// KML 2.2 (Google Earth, My Maps, GIS exports), with Google's `gx:` extensions.
    case kml
    /// Garmin Training Center XML: activities and courses.
    case tcx

    /// The format of `input`, judged from its first character (after a byte-order mark and white space), in
    /// UTF-8 or UTF-16: `{`, `[` or a record separator is GeoJSON; `<` is XML, told apart by the name of its
    /// root element (`kml`, `TrainingCenterDatabase`, or another root in KML's namespace, as a bare `Document`;
    /// anything else is taken for GPX, whose reader names the root it found). Nil for anything else. (UTF-16
    /// GeoJSON is recognised only to be refused with a clear message: JSON must be UTF-8.)
    public static func detect(_ input: InputFile) throws -> InputFormat? {
        var head = try input.peek(512)
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
        case 0x3C:
            var root = rootName(head[i...].filter { !wide || $0 != 0 })
            // A long comment or document type before the root: look further (only then, since reading more of
            // standard input waits for it).
            if root == nil && head.count == 512 {
                head = try input.peek(8192)
                root = rootName(head[i...].filter { !wide || $0 != 0 })
            }
            switch root {
            case "kml": return .kml
            case "TrainingCenterDatabase": return .tcx
            case "gpx": return .gpx
            default:
                // KML without its `kml` root (a bare Document): its namespace still says what it is.
                let text = String(decoding: head[i...].filter { !wide || $0 != 0 }, as: UTF8.self)
                let isKML = ["opengis.net/kml", "earth.google.com/kml"].contains { text.contains($0) }
                return isKML ? .kml : .gpx
            }
        case 0x7B, 0x5B, 0x1E: return .geojson
        default: return nil
        }
    }

    /// The local name of the first element in `text` (XML from its first `<`), past the declaration,
    /// processing instructions, comments and a document type; nil when it is not within `text`.
    static func rootName(_ text: [UInt8]) -> String? {
        var i = 0
        func skip(past end: [UInt8]) {
            while i < text.count {
                if text[i...].starts(with: end) {
                    i += end.count
                    return
                }
                i += 1
            }
        }
        while i < text.count {
            guard text[i] == 0x3C else {
                i += 1
                continue
            }
            let rest = text[(i + 1)...]
            if rest.starts(with: Array("?".utf8)) {
                skip(past: Array("?>".utf8))
            } else if rest.starts(with: Array("!--".utf8)) {
                skip(past: Array("-->".utf8))
            } else if rest.first == 0x21 {  // <!DOCTYPE …>, perhaps with an internal subset
                var depth = 0
                while i < text.count {
                    if text[i] == 0x5B { depth += 1 }
                    if text[i] == 0x5D { depth -= 1 }
                    i += 1
                    if text[i - 1] == 0x3E && depth <= 0 { break }
                }
            } else {
                var name: [UInt8] = []
                var j = i + 1
                while j < text.count, ![0x20, 0x09, 0x0A, 0x0D, 0x3E, 0x2F].contains(text[j]) {
                    name.append(text[j])
                    j += 1
                }
                guard j < text.count else { return nil }
                let qualified = String(decoding: name, as: UTF8.self)
                return qualified.split(separator: ":").last.map(String.init) ?? qualified
            }
        }
        return nil
    }
}
