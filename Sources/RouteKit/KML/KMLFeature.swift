import Glibc

/// Properties being gathered for a feature: a later value for a key replaces the earlier one in its place,
/// as JavaScript's `Object.assign` does.
struct KMLProperties {
    private(set) var members: [(String, JSONValue)] = []

    subscript(key: String) -> JSONValue? {
        get { members.first { $0.0 == key }?.1 }
        set {
            guard let newValue else {
                members.removeAll { $0.0 == key }
                return
            }
            if let i = members.firstIndex(where: { $0.0 == key }) {
                members[i].1 = newValue
            } else {
                members.append((key, newValue))
            }
        }
    }

    mutating func merge(_ other: KMLProperties) {
        for (key, value) in other.members { self[key] = value }
    }
}

/// The styles and schemas of a KML file, gathered as the reader meets them.
final class KMLStyles {
    /// Each `Style` by `#id`, as simplestyle properties.
    private var styles: [String: KMLProperties] = [:]
    /// Each `StyleMap` by `#id`: the `#id` its first `styleUrl` names.
    private var maps: [String: String] = [:]
    /// Each `SimpleField` by name: its type.
    private var fields: [String: String] = [:]

    /// Registers the styles, style maps and schema fields in `element` (and `element` itself).
    func register(_ element: KMLElement) {
        let all =
            [element] + element.descendants("Style") + element.descendants("StyleMap")
            + element.descendants("SimpleField")
        for e in all {
            switch e.name {
            case "Style":
                var id = e.attribute("id") ?? ""
                if id.isEmpty, let parent = e.parent, parent.name == "CascadingStyle" {
                    id = parent.attribute("id") ?? ""
                }
                styles[Self.normalized(id)] = KMLFeature.style(of: e)
            case "StyleMap":
                let target = e.text(of: "styleUrl")
                if !target.isEmpty { maps[Self.normalized(e.attribute("id") ?? "")] = Self.normalized(target) }
            case "SimpleField":
                fields[e.attribute("name") ?? ""] = e.attribute("type") ?? ""
            default: break
            }
        }
    }

    /// Registers the styles inside a Placemark (not the Placemark itself).
    func registerInline(_ placemark: KMLElement) {
        for e in placemark.descendants("Style") + placemark.descendants("StyleMap") { register(e) }
    }

    /// `#id` for an id with or without its `#` (togeojson's `normalizeId`).
    static func normalized(_ id: String) -> String { id.hasPrefix("#") ? id : "#" + id }

    /// The properties of the style `url` names; nil when it names none (yet).
    func style(_ url: String) -> KMLProperties? {
        if let target = maps[url], let style = styles[target] ?? maps[target].flatMap({ styles[$0] }) {
            return style
        }
        return styles[url]
    }

    /// The type a `SimpleField` of this name gives its values; nil when none is declared (yet).
    func fieldType(_ name: String) -> String? { fields[name] }

    /// True when everything `element` refers to (its shared style, its schema's fields) is known.
    func canResolve(_ element: KMLElement) -> Bool {
        let url = element.text(of: "styleUrl")
        if !url.isEmpty && style(Self.normalized(url)) == nil { return false }
        guard let data = element.first("ExtendedData") else { return true }
        return data.descendants("SimpleData").allSatisfy { fields[$0.attribute("name") ?? ""] != nil }
    }
}

/// KML features as togeojson's `kml()` writes them.
enum KMLFeature {
    // MARK: Features

    /// The Placemark as togeojson makes it; `forTracks` makes a `gx:Track` of two positions a line.
    static func placemark(_ node: KMLElement, styles: KMLStyles, forTracks: Bool = false) throws -> JSONValue {
        let (geometries, times, lines) = try geometry(of: node, forTracks: forTracks)
        let geometry: JSONValue =
            geometries.isEmpty
            ? .null
            : geometries.count == 1
                ? geometries[0]
                : .object([("type", .string("GeometryCollection")), ("geometries", .array(geometries))])
        var properties = common(node, styles: styles, names: placemarkNames)
        properties.merge(timeProperties(node))
        // Per-point arrays: one line's alone, several lines' one array each, empty for a line without them
        // (a LineString, a track without times). For GeoJSON the times are as togeojson gives them: only
        // those of the tracks that have some, even when that leaves them out of step with the lines.
        func perLine(_ values: (KMLElement) -> JSONSeries?) throws -> JSONValue? {
            guard lines.contains(where: { $0.flatMap(values) != nil }) else { return nil }
            let arrays = try lines.map { line -> JSONValue in
                guard let line, let series = values(line) else { return .array([]) }
                return .series(try line.positions?.aligned(series) ?? series)
            }
            return arrays.count == 1 ? arrays[0] : .array(arrays)
        }
        var perPoint: [(String, JSONValue)] = []
        if forTracks {
            if let lineTimes = try perLine(\.times) { perPoint.append(("times", lineTimes)) }
        } else if !times.isEmpty {
            perPoint.append(("times", times.count == 1 ? times[0] : .array(times)))
        }
        for kind in SensorReadings.Kind.allCases {
            guard let arrays = try perLine({ track in track.sensors.first { $0.kind == kind }?.values }) else {
                continue
            }
            let key = kind.coordinatePropertiesKey.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
            perPoint.append((key, arrays))
        }
        if !perPoint.isEmpty { properties["coordinateProperties"] = .object(perPoint) }
        return feature(node, geometry: geometry, properties: properties)
    }

    static func groundOverlay(_ node: KMLElement, styles: KMLStyles) throws -> JSONValue {
        var box: (ring: [JSONValue], bbox: [Double]?)?
        if node.first("LatLonQuad") != nil {
            box = (closed(try node.first("coordinates")?.positions?.json() ?? []), nil)
        } else if let b = node.first("LatLonBox"), let north = b.number(of: "north"), let south = b.number(of: "south"),
            let east = b.number(of: "east"), let west = b.number(of: "west")
        {
            var ring = [[west, north], [east, north], [east, south], [west, south], [west, north]]
            if let rotation = b.number(of: "rotation") {
                let center = [(west + east) / 2, (south + north) / 2]
                ring = ring.map { p in
                    let dx = p[0] - center[0]
                    let dy = p[1] - center[1]
                    let distance = (dx * dx + dy * dy).squareRoot()
                    let angle = atan2(dy, dx) + rotation * Double.pi / 180
                    return [center[0] + cos(angle) * distance, center[1] + sin(angle) * distance]
                }
            }
            box = (ring.map { .numbers($0) }, [west, south, east, north])
        }
        var properties = KMLProperties()
        properties["@geometry-type"] = .string("groundoverlay")
        properties.merge(common(node, styles: styles, names: placemarkNames))
        properties.merge(iconHref(node))
        properties.merge(timeProperties(node))
        let geometry: JSONValue = box.map { polygon([.array($0.ring)]) } ?? .null
        return feature(node, geometry: geometry, properties: properties, bbox: box?.bbox)
    }

    static func networkLink(_ node: KMLElement, styles: KMLStyles) -> JSONValue {
        var geometry: JSONValue = .null
        var bbox: [Double]?
        var lod: JSONValue?
        if let region = node.first("Region") {
            if let b = region.first("LatLonAltBox"), let north = b.number(of: "north"),
                let south = b.number(of: "south"), let east = b.number(of: "east"), let west = b.number(of: "west")
            {
                let ring = [[west, north], [east, north], [east, south], [west, south], [west, north]]
                geometry = polygon([.array(ring.map { .numbers($0) })])
                bbox = [west, south, east, north]
            }
            if let l = node.first("Lod") {
                func value(_ name: String, _ fallback: Double?) -> JSONValue {
                    (l.number(of: name) ?? fallback).map(JSONValue.number) ?? .null
                }
                lod = .array([
                    value("minLodPixels", -1), value("maxLodPixels", -1), value("minFadeExtent", nil),
                    value("maxFadeExtent", nil),
                ])
            }
        }
        var properties = KMLProperties()
        properties["@geometry-type"] = .string("networklink")
        properties.merge(
            common(
                node, styles: styles,
                names: [
                    "name", "address", "visibility", "open", "phoneNumber", "styleUrl", "refreshVisibility",
                    "flyToView", "description",
                ]))
        properties.merge(iconHref(node))
        properties.merge(timeProperties(node))
        if let link = node.first("Link") {
            properties.merge(
                texts(
                    link,
                    [
                        "href", "refreshMode", "refreshInterval", "viewRefreshMode", "viewRefreshTime",
                        "viewBoundScale",
                        "viewFormat", "httpQuery",
                    ]))
        }
        if let lod { properties["lod"] = lod }
        return feature(node, geometry: geometry, properties: properties, bbox: bbox)
    }

    private static let placemarkNames = ["name", "address", "visibility", "open", "phoneNumber", "description"]

    private static func feature(
        _ node: KMLElement, geometry: JSONValue, properties: KMLProperties, bbox: [Double]? = nil
    ) -> JSONValue {
        var properties = properties
        if let visibility = properties["visibility"]?.string { properties["visibility"] = .bool(visibility != "0") }
        var members: [(String, JSONValue)] = [("type", .string("Feature"))]
        if let bbox { members.append(("bbox", .numbers(bbox))) }
        members.append(("geometry", geometry))
        members.append(("properties", .object(properties.members)))
        if let id = node.attribute("id"), !id.isEmpty { members.append(("id", .string(id))) }
        return .object(members)
    }

    /// The properties every kind of feature has: its texts, an HTML description, its shared and inline
    /// styles, and its ExtendedData.
    private static func common(_ node: KMLElement, styles: KMLStyles, names: [String]) -> KMLProperties {
        var properties = texts(node, names)
        if let description = node.first("description") {
            for case .cdata(let text) in description.content {
                properties["description"] = .object([
                    ("@type", .string("html")), ("value", .string(String(decoding: text, as: UTF8.self))),
                ])
                break
            }
        }
        let url = node.text(of: "styleUrl")
        if !url.isEmpty {
            let id = KMLStyles.normalized(url)
            properties["styleUrl"] = .string(id)
            if let shared = styles.style(id) { properties.merge(shared) }
        }
        properties.merge(style(of: node))
        if let data = node.first("ExtendedData") {
            for d in data.descendants("Data") { properties[d.attribute("name") ?? ""] = .string(d.text(of: "value")) }
            for d in data.descendants("SimpleData") {
                let name = d.attribute("name") ?? ""
                let text = d.text
                switch styles.fieldType(name) {
                case "int", "uint", "short", "ushort", "float", "double":
                    properties[name] = .number(JavaScriptNumber.number(text))
                case "bool": properties[name] = .bool(!text.isEmpty)
                default: properties[name] = .string(text)
                }
            }
        }
        return properties
    }

    /// The first text of each name, when not empty (togeojson's `getMulti`).
    private static func texts(_ node: KMLElement, _ names: [String]) -> KMLProperties {
        var properties = KMLProperties()
        for name in names {
            let text = node.text(of: name)
            if !text.isEmpty { properties[name] = .string(text) }
        }
        return properties
    }

    private static func timeProperties(_ node: KMLElement) -> KMLProperties {
        var properties = KMLProperties()
        if let span = node.first("TimeSpan") {
            properties["timespan"] = .object([
                ("begin", .string(span.text(of: "begin"))), ("end", .string(span.text(of: "end"))),
            ])
        }
        if let stamp = node.first("TimeStamp") { properties["timestamp"] = .string(stamp.text(of: "when")) }
        return properties
    }

    private static func iconHref(_ node: KMLElement) -> KMLProperties {
        var properties = KMLProperties()
        if let icon = node.first("Icon") {
            let href = icon.text(of: "href")
            if !href.isEmpty { properties["icon"] = .string(href) }
        }
        return properties
    }

    // MARK: Styles

    /// The simplestyle properties of the first PolyStyle, LineStyle, LabelStyle and IconStyle inside `node`.
    static func style(of node: KMLElement) -> KMLProperties {
        var properties = KMLProperties()
        if let poly = node.first("PolyStyle") {
            if let c = poly.first("color") { properties.merge(color(c.text, "fill")) }
            if poly.text(of: "fill") == "0" { properties["fill-opacity"] = .number(0) }
            if poly.text(of: "outline") == "0" { properties["stroke-opacity"] = .number(0) }
        }
        if let line = node.first("LineStyle") {
            if let c = line.first("color") { properties.merge(color(c.text, "stroke")) }
            if let width = line.number(of: "width") { properties["stroke-width"] = .number(width) }
        }
        if let label = node.first("LabelStyle") {
            if let c = label.first("color") { properties.merge(color(c.text, "label")) }
            if let scale = label.number(of: "scale") { properties["label-scale"] = .number(scale) }
        }
        if let icon = node.first("IconStyle") {
            if let c = icon.first("color") { properties.merge(color(c.text, "icon")) }
            if let scale = icon.number(of: "scale") { properties["icon-scale"] = .number(scale) }
            if let heading = icon.number(of: "heading") { properties["icon-heading"] = .number(heading) }
            if let spot = icon.first("hotSpot") {
                let x = JavaScriptNumber.parseFloat(Array((spot.attribute("x") ?? "").utf8))
                let y = JavaScriptNumber.parseFloat(Array((spot.attribute("y") ?? "").utf8))
                if !x.isNaN && !y.isNaN {
                    properties["icon-offset"] = .numbers([x, y])
                    properties["icon-offset-units"] = .array([
                        .string(spot.attribute("xunits") ?? ""), .string(spot.attribute("yunits") ?? ""),
                    ])
                }
            }
            properties.merge(iconHref(icon))
        }
        return properties
    }

    /// A KML colour (`aabbggrr`, or `rrggbb` / `rgb` as some writers put it) as a CSS colour and an opacity.
    private static func color(_ text: String, _ prefix: String) -> KMLProperties {
        var properties = KMLProperties()
        let key = prefix == "stroke" || prefix == "fill" ? prefix : prefix + "-color"
        var v = Array(text.utf16)
        if v.first == 0x23 { v.removeFirst() }
        let s = { (range: Range<Int>) in String(decoding: v[range], as: UTF16.self) }
        if v.count == 6 || v.count == 3 {
            properties[key] = .string("#" + s(0..<v.count))
        } else if v.count == 8 {
            properties[prefix + "-opacity"] = .number(parseHex(s(0..<2)) / 255)
            properties[key] = .string("#" + s(6..<8) + s(4..<6) + s(2..<4))
        }
        return properties
    }

    /// JavaScript's `parseInt(text, 16)`: the hexadecimal digits at the start, NaN when there are none.
    private static func parseHex(_ text: String) -> Double {
        var value = 0.0
        var any = false
        for c in text.trimmingSpaces() {
            guard let digit = c.hexDigitValue else { break }
            value = value * 16 + Double(digit)
            any = true
        }
        return any ? value : .nan
    }

    // MARK: Geometry

    /// The geometries of the element's own children (MultiGeometry and MultiTrack read through), the times
    /// of each `gx:Track` that has some, and for each line among the geometries its `gx:Track` (nil for a
    /// LineString), whose times and sensor arrays go with it.
    private static func geometry(
        of node: KMLElement, forTracks: Bool
    ) throws -> (geometries: [JSONValue], times: [JSONValue], lines: [KMLElement?]) {
        var geometries: [JSONValue] = []
        var times: [JSONValue] = []
        var lines: [KMLElement?] = []
        for child in node.elements {
            switch child.name {
            case "MultiGeometry", "MultiTrack":
                let inner = try geometry(of: child, forTracks: forTracks)
                geometries += inner.geometries
                times += inner.times
                lines += inner.lines
            case "Point":
                // The first tuple (togeojson joins them all: `1,2 3,4` would be [1, 23, 4]).
                if let position = try child.first("coordinates")?.positions?.first() {
                    geometries.append(point(position))
                }
            case "LineString", "LinearRing":
                if let positions = child.first("coordinates")?.positions, positions.count >= 2 {
                    geometries.append(line(positions.array))
                    lines.append(nil)
                }
            case "Polygon":
                var rings: [JSONValue] = []
                for ring in child.descendants("LinearRing") {
                    let positions = closed(try ring.first("coordinates")?.positions?.json() ?? [])
                    if positions.count >= 4 { rings.append(.array(positions)) }
                }
                if !rings.isEmpty { geometries.append(polygon(rings)) }
            case "Track":
                guard let positions = child.positions, let first = try positions.first() else { break }
                // As togeojson 7.1.2: a track of two positions is a Point (of the first); its next release makes it
                // a line, as the track model does. The KML writer never writes one.
                let isLine = positions.count > (forTracks ? 1 : 2)
                geometries.append(isLine ? line(positions.array) : point(first))
                if let series = child.times { times.append(.series(try positions.aligned(series))) }
                if isLine { lines.append(child) }
            default: break
            }
        }
        return (geometries, times, lines)
    }

    /// The ring with its first position repeated at its end, unless it is there already.
    private static func closed(_ ring: [JSONValue]) -> [JSONValue] {
        guard let first = ring.first, let last = ring.last else { return ring }
        return first == last ? ring : ring + [first]
    }

    private static func point(_ position: JSONValue) -> JSONValue {
        .object([("type", .string("Point")), ("coordinates", position)])
    }

    private static func line(_ positions: JSONValue) -> JSONValue {
        .object([("type", .string("LineString")), ("coordinates", positions)])
    }

    private static func polygon(_ rings: [JSONValue]) -> JSONValue {
        .object([("type", .string("Polygon")), ("coordinates", .array(rings))])
    }
}
