/// Reads GeoJSON (RFC 7946) — a FeatureCollection, a single Feature or geometry, or a text sequence of
/// them (RFC 8142, or one per line) — and hands it to a ``GPXHandler`` as GPX content, feature by
/// feature: memory holds one feature at a time.
///
/// LineStrings and MultiLineStrings become tracks (routes when `properties._gpxType` is `rte`), Points
/// and MultiPoints waypoints. Properties `name`, `cmt`, `desc`, `src`, `links`, `sym`, `type`, `number`
/// and a Point's `time` go back into their GPX fields; `coordinateProperties` (`times`, `heart`, `cads`,
/// `atemps`, `wtemps`, `depths`, `speeds`, `courses`, `powers`) go back into the points. Polygons and
/// features without geometry have no GPX form: each is left out with a warning, as is a position that is
/// not a pair of in-range numbers; ``strict`` makes these errors.
public struct GeoJSONReader {
    /// When true, what would be a warning is an error.
    public var strict: Bool
    /// Called for each feature or position left out.
    public var onWarning: (ReadWarning) -> Void

    public init(strict: Bool = false, onWarning: @escaping (ReadWarning) -> Void = { _ in }) {
        self.strict = strict
        self.onWarning = onWarning
    }

    /// Reads `input` to its end, handing its content to `handler`.
    ///
    /// - Throws: ``GeoJSONError`` when the input is not JSON or not GeoJSON, ``IOError`` when reading fails,
    ///   and whatever `handler` throws.
    public func read(_ input: InputFile, handler: GPXHandler) throws {
        let context = GeoJSONFeatureConverter(handler: handler, strict: strict, onWarning: onWarning) {
            GeoJSONError.invalidValue(line: $0, column: $1, reason: $2)
        }
        let cutOff = { (line: Int, column: Int) throws in try context.cutOff(line: line, column: column) }
        try GeoJSONFeatureStream.forEachFeature(in: input, onCutOff: cutOff) { feature, line, column in
            try context.convert(feature: feature, line: line, column: column)
        }
    }
}

/// Walks GeoJSON feature by feature: a FeatureCollection (its features streamed one at a time), a single
/// Feature, a bare geometry (as a Feature without properties), or a text sequence of any of these.
enum GeoJSONFeatureStream {
    static let geometryTypes: Set<String> = [
        "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection",
    ]

    /// Calls `body` with each Feature and the line and column where it starts.
    ///
    /// A text sequence whose last text is cut off (a log that was still being written) keeps what came before:
    /// `onCutOff` hears the line and column of the cut-off text, as RFC 7464 asks of a sequence parser.
    /// Anything else that ends early is an error.
    static func forEachFeature(
        in input: InputFile, onCutOff: (Int, Int) throws -> Void = { _, _ in },
        _ body: (JSONValue, Int, Int) throws -> Void
    ) throws {
        let parser = JSONStreamParser(input: input)
        try parser.skipByteOrderMark()
        var sawValue = false
        while true {
            try parser.skipSpace(separators: true)
            guard try parser.peek() != nil else { break }
            sawValue = true
            let line = parser.line
            let column = parser.column
            do {
                try readTopLevel(parser, body)
            } catch let error as GeoJSONError where parser.isAtEnd && parser.sawRecordSeparator {
                if case .malformed = error {
                    try onCutOff(line, column)
                    break
                }
                throw error
            }
        }
        guard sawValue else { throw GeoJSONError.notGeoJSON(line: 1, column: 1, reason: "the file is empty") }
    }

    private static func readTopLevel(_ parser: JSONStreamParser, _ body: (JSONValue, Int, Int) throws -> Void) throws {
        let line = parser.line
        let column = parser.column
        guard try parser.peek() == 0x7B else {
            throw GeoJSONError.notGeoJSON(line: line, column: column, reason: "expected an object at the top")
        }
        try parser.expect(0x7B, "'{'")
        var members: [(String, JSONValue)] = []
        var streamedFeatures = false
        if !(try parser.consume(0x7D)) {
            repeat {
                let key = try parser.string()
                try parser.expect(0x3A, "':' after a key")
                if key == "features" {
                    try parser.skipSpace()
                    if try parser.peek() == 0x5B {
                        try parser.expect(0x5B, "'['")
                        streamedFeatures = true
                        if !(try parser.consume(0x5D)) {
                            repeat {
                                try parser.skipSpace()
                                let featureLine = parser.line
                                let featureColumn = parser.column
                                let feature = try parser.value(depth: 2)
                                try body(feature, featureLine, featureColumn)
                            } while try parser.consume(0x2C)
                            try parser.expect(0x5D, "',' or ']' after a feature")
                        }
                        continue
                    }
                }
                members.append((key, try parser.value(depth: 1)))
            } while try parser.consume(0x2C)
            try parser.expect(0x7D, "',' or '}' in an object")
        }
        let object = JSONValue.object(members)
        switch object["type"]?.string {
        case "FeatureCollection":
            if !streamedFeatures {
                throw GeoJSONError.notGeoJSON(
                    line: line, column: column, reason: "a FeatureCollection without a features array")
            }
        case "Feature":
            try body(object, line, column)
        case let type? where geometryTypes.contains(type):
            try body(.object([("type", .string("Feature")), ("geometry", object)]), line, column)
        case let type?:
            throw GeoJSONError.notGeoJSON(line: line, column: column, reason: "unknown type '\(type)'")
        case nil:
            throw GeoJSONError.notGeoJSON(line: line, column: column, reason: "the object has no \"type\"")
        }
    }
}

/// A reader whose content comes as GeoJSON features in togeojson's shape (KML, TCX), and reaches a
/// ``GPXHandler`` through a ``GeoJSONFeatureConverter``.
protocol FeatureFileReader {
    var strict: Bool { get }
    var onWarning: (ReadWarning) -> Void { get }
    /// Calls `body` with each feature of `input`, and the line and column where it starts.
    func features(_ input: InputFile, body: @escaping (JSONValue, Int, Int) throws -> Void) throws
    /// The features as the track model reads them (by default the same).
    func trackFeatures(_ input: InputFile, body: @escaping (JSONValue, Int, Int) throws -> Void) throws
}

extension FeatureFileReader {
    func trackFeatures(_ input: InputFile, body: @escaping (JSONValue, Int, Int) throws -> Void) throws {
        try features(input, body: body)
    }
}

extension FeatureFileReader {
    /// Reads `input` to its end, handing each feature's lines and points to `handler`; with ``strict``, what
    /// GPX cannot hold is ``XMLFormatError/invalidValue(line:column:reason:)``.
    func readFeatures(_ input: InputFile, into handler: GPXHandler) throws {
        let converter = GeoJSONFeatureConverter(handler: handler, strict: strict, onWarning: onWarning) {
            XMLFormatError.invalidValue(line: $0, column: $1, reason: $2)
        }
        try trackFeatures(input) { feature, line, column in
            try converter.convert(feature: feature, line: line, column: column)
        }
    }
}

/// Turns one GeoJSON Feature into GPX handler calls: for the GeoJSON reader, and for the KML and TCX readers,
/// which make features in togeojson's shape first.
///
/// Besides GPX's own properties it understands those of togeojson's KML features: `description` (text, or
/// `{"@type": "html", "value": …}`) when there is no `desc`, and `timestamp` when there is no `time`. A
/// GeometryCollection's lines become the segments of one track (with per-line times as a MultiLineString's)
/// and its points waypoints.
package final class GeoJSONFeatureConverter {
    private static let columns: [(String, SensorReadings.Kind)] = SensorReadings.Kind.allCases.map { kind in
        (kind.coordinatePropertiesKey.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }, kind)
    }

    let handler: GPXHandler
    /// Hears what is left out, with the line and column of its feature; throws to stop (strict reading).
    private let onProblem: (Int, Int, String) throws -> Void
    private var line = 0
    private var column = 0
    private var featureIndex = 0

    /// A converter into `handler`: what is left out goes to `onWarning`, or, when `strict`, stops the reading
    /// with the error `strictError` makes of its line, column and message.
    package init(
        handler: GPXHandler, strict: Bool, onWarning: @escaping (ReadWarning) -> Void,
        strictError: @escaping (Int, Int, String) -> Error
    ) {
        self.handler = handler
        self.onProblem = { line, column, message in
            if strict { throw strictError(line, column, message) }
            onWarning(ReadWarning(line: line, column: column, message: message))
        }
    }

    private func warn(_ message: String) throws {
        try onProblem(line, column, message)
    }

    /// The last text of a sequence is cut off: a warning (an error when strict).
    func cutOff(line: Int, column: Int) throws {
        self.line = line
        self.column = column
        try warn("the last text of the sequence is cut off (the file ends early); left out")
    }

    /// Hands one Feature (starting at `line` and `column` of its file) to the handler.
    package func convert(feature: JSONValue, line: Int, column: Int) throws {
        self.line = line
        self.column = column
        featureIndex += 1
        guard feature["type"]?.string == "Feature" else {
            try warn("feature \(featureIndex) is not an object of type \"Feature\"; left out")
            return
        }
        let properties = feature["properties"] ?? .null
        let details = self.details(properties)
        guard let geometry = feature["geometry"], !geometry.isNull else {
            try warn("feature \(featureIndex) has no geometry; left out")
            return
        }
        let type = geometry["type"]?.string ?? ""
        let coordinates = geometry["coordinates"]
        switch type {
        case "Point":
            if let point = try position(coordinates, "point") {
                try handler.waypoint(waypoint(point, details: details, properties: properties))
            }
        case "MultiPoint":
            for value in coordinates?.elements ?? [] {
                if let point = try position(value, "point") {
                    try handler.waypoint(waypoint(point, details: details, properties: properties))
                }
            }
        case "LineString":
            try convertLine(segments: [coordinates ?? .null], multi: false, details: details, properties: properties)
        case "MultiLineString":
            try convertLine(
                segments: coordinates?.elements ?? [], multi: true, details: details, properties: properties)
        case "GeometryCollection":
            let parts = geometry["geometries"]?.elements ?? []
            let lines = parts.filter { $0["type"]?.string == "LineString" }.compactMap { $0["coordinates"] }
            if !lines.isEmpty {
                try convertLine(segments: lines, multi: lines.count > 1, details: details, properties: properties)
            }
            for part in parts where part["type"]?.string == "Point" {
                if let point = try position(part["coordinates"], "point") {
                    try handler.waypoint(waypoint(point, details: details, properties: properties))
                }
            }
            let others = parts.count - lines.count - parts.filter { $0["type"]?.string == "Point" }.count
            if others > 0 {
                let what = others == 1 ? "geometry" : "geometries"
                let verb = others == 1 ? "is" : "are"
                try warn("feature \(featureIndex): \(others) \(what) that \(verb) no track, route or waypoint left out")
            }
        default:
            try warn(
                "feature \(featureIndex) is a \(type.isEmpty ? "geometry without a type" : type), which is no "
                    + "track, route or waypoint; left out"
            )
        }
    }

    private func details(_ properties: JSONValue) -> Details {
        var details = Details()
        details.name = properties["name"]?.string
        details.comment = properties["cmt"]?.string
        details.description =
            properties["desc"]?.string ?? properties["description"]?.string
            ?? properties["description"]?["value"]?.string
        details.source = properties["src"]?.string
        details.symbol = properties["sym"]?.string
        details.type = properties["type"]?.string
        if let n = properties["number"]?.number, n == n.rounded(), abs(n) < 1e15 { details.number = Int(n) }
        for link in properties["links"]?.elements ?? [] {
            guard let href = link["href"]?.string else { continue }
            details.links.append(Link(href: href, text: link["text"]?.string, type: link["type"]?.string))
        }
        return details
    }

    private struct Position {
        var coordinate: Coordinate
        var elevation: Double?
    }

    private func position(_ value: JSONValue?, _ what: String) throws -> Position? {
        guard case .numbers(let n)? = value, n.count >= 2 else {
            try warn("feature \(featureIndex): a \(what) is not a position [lon, lat] or [lon, lat, ele]; left out")
            return nil
        }
        let coordinate = Coordinate(latitude: n[1], longitude: n[0])
        guard coordinate.isValid else {
            try warn(
                "feature \(featureIndex): position [\(DecimalText.string(n[0])), \(DecimalText.string(n[1]))] is "
                    + "out of range; left out"
            )
            return nil
        }
        var elevation = n.count >= 3 ? n[2] : nil
        if let value = elevation, !TrackPoint.elevationRange.contains(value) {
            try warn("feature \(featureIndex): elevation \(DecimalText.string(value)) m is beyond ±100 km; left out")
            elevation = nil
        }
        return Position(coordinate: coordinate, elevation: elevation)
    }

    private func waypoint(_ p: Position, details: Details, properties: JSONValue) throws -> Waypoint {
        var time: Timestamp? = nil
        if let text = properties["time"]?.string ?? properties["timestamp"]?.string {
            time = Timestamp(text)
            if time == nil {
                try warn("feature \(featureIndex): time '\(text)' is not an ISO 8601 date and time; left out")
            }
        }
        return Waypoint(coordinate: p.coordinate, elevation: p.elevation, time: time, details: details)
    }

    private func convertLine(segments: [JSONValue], multi: Bool, details: Details, properties: JSONValue) throws {
        let isRoute = properties["_gpxType"]?.string == "rte"
        let per = properties["coordinateProperties"] ?? .null
        /// A cursor over the segment's values of a per-point series, aligned with its positions.
        func series(_ key: String, segment: Int) -> JSONValue.ElementCursor? {
            guard let all = per[key] else { return nil }
            if !multi { return all.elementCursor }
            guard let lines = all.elements, segment < lines.count else { return nil }
            return lines[segment].elementCursor
        }
        if isRoute { try handler.beginRoute() } else { try handler.beginTrack() }
        for (s, segment) in segments.enumerated() {
            guard var positions = segment.elementCursor else {
                try warn("feature \(featureIndex): line coordinates are not an array; left out")
                continue
            }
            var times = series("times", segment: s)
            var sensorSeries = Self.columns.map { (series($0.0, segment: s), $0.1) }
            if !isRoute { try handler.beginSegment() }
            while let value = try positions.next() {
                // The point's values are read whether or not its position is kept, to stay aligned.
                let timeText = try times?.next()?.string
                var sensors = SensorReadings()
                for k in sensorSeries.indices {
                    if let v = try sensorSeries[k].0?.next()?.number { sensors[sensorSeries[k].1] = v }
                }
                guard let p = try position(value, "line position") else { continue }
                var time: Timestamp? = nil
                if let text = timeText {
                    time = Timestamp(text)
                    if time == nil {
                        try warn("feature \(featureIndex): time '\(text)' is not an ISO 8601 date and time; left out")
                    }
                }
                if isRoute {
                    try handler.routePoint(
                        Waypoint(coordinate: p.coordinate, elevation: p.elevation, time: time, sensors: sensors))
                } else {
                    try handler.trackPoint(
                        TrackPoint(coordinate: p.coordinate, elevation: p.elevation, time: time, sensors: sensors))
                }
            }
            if !isRoute { try handler.endSegment() }
        }
        if isRoute { try handler.endRoute(details) } else { try handler.endTrack(details) }
    }
}
