/// Reads Garmin Training Center XML (TCX: the activities and courses Garmin Connect exports) in one
/// streaming pass and hands it on as GeoJSON features in the shape of togeojson's `tcx()`, or as GPX content.
///
/// Each `Lap` of an activity is one feature, and all the `Courses` together one more (after the laps), as
/// togeojson makes them: a LineString, or a MultiLineString when the lap has several `Track`s of two or more
/// positioned points; lap totals as properties (`totalTimeSeconds`, `distanceMeters`, `maxSpeed`,
/// `avgHeartRate`, `maxHeartRate`, and from the ActivityExtension `avgSpeed`, `avgWatts`, `maxWatts`; a
/// course's `name`); `coordinateProperties.times` and `.heart`; and per-point `cadences`, `speeds` and
/// `watts` (ActivityExtension) as togeojson writes them, one value per `Trackpoint`. Besides togeojson's,
/// `coordinateProperties` has `heart`, `cads`, `speeds` and `powers` aligned with the coordinates (`null`
/// where a point has none), so that the points keep their sensor values on the way to GPX.
///
/// Memory holds one lap at a time, its per-point values compactly (in a temporary file when long). As GPX
/// content (``read(_:handler:)``) each lap is a track whose segments are its `Track`s, with times, heart
/// rate, cadence, speed and power in its points.
public struct TCXReader: FeatureFileReader {
    /// When true, what would be a warning is an error (``XMLFormatError/invalidValue(line:column:reason:)``).
    public var strict: Bool
    /// Called for each value left out.
    public var onWarning: (ReadWarning) -> Void

    /// A reader; `onWarning` receives each value left out.
    public init(strict: Bool = false, onWarning: @escaping (ReadWarning) -> Void = { _ in }) {
        self.strict = strict
        self.onWarning = onWarning
    }

    /// Reads `input` to its end, handing each lap (and the courses) to `handler` as a track.
    ///
    /// - Throws: ``XMLFormatError`` for a file that is not TCX, ``IOError`` when reading fails, and whatever
    ///   `handler` throws.
    public func read(_ input: InputFile, handler: GPXHandler) throws {
        try readFeatures(input, into: handler)
    }

    /// Reads `input` to its end, calling `body` with each feature (a GeoJSON Feature in togeojson's shape)
    /// and the line and column where its lap starts.
    ///
    /// - Throws: ``XMLFormatError`` for a file that is not TCX, ``IOError`` when reading fails, and whatever
    ///   `body` throws.
    package func features(_ input: InputFile, body: @escaping (JSONValue, Int, Int) throws -> Void) throws {
        try TCXStateMachine(body: body).read(input, strict: strict, onWarning: onWarning)
    }

    /// The features for the track model (``read(_:handler:)``): also a course's CoursePoints (turns, summits,
    /// water), as Points with their name, `Notes` as `desc`, `PointType` as `type` and time; togeojson
    /// leaves them out.
    func trackFeatures(_ input: InputFile, body: @escaping (JSONValue, Int, Int) throws -> Void) throws {
        try TCXStateMachine(forTracks: true, body: body).read(input, strict: strict, onWarning: onWarning)
    }
}

/// The element-by-element logic of ``TCXReader``.
final class TCXStateMachine: XMLFormatMachine {
    /// Lap totals: element name → property.
    static let lapFields: [(String, String)] = [
        ("TotalTimeSeconds", "totalTimeSeconds"), ("DistanceMeters", "distanceMeters"), ("MaximumSpeed", "maxSpeed"),
        ("AverageHeartRateBpm", "avgHeartRate"), ("MaximumHeartRateBpm", "maxHeartRate"), ("AvgSpeed", "avgSpeed"),
        ("AvgWatts", "avgWatts"), ("MaxWatts", "maxWatts"),
    ]
    /// Per-point values togeojson writes beside the coordinates: element name → property.
    static let pointFields: [(String, String)] = [
        ("heartRate", "heartRates"), ("Cadence", "cadences"), ("Speed", "speeds"), ("Watts", "watts"),
    ]
    private static let lapNames = Set(lapFields.map(\.0) + ["Name"])
    /// What a CoursePoint has besides a Trackpoint's.
    private static let coursePointNames: Set<String> = ["Name", "PointType", "Notes"]
    private static let pointNames = Set(
        pointFields.map(\.0) + [
            "LongitudeDegrees", "LatitudeDegrees", "HeartRateBpm", "Time", "AltitudeMeters", "RunCadence",
        ])

    /// A Trackpoint as read: the first text of each name inside it.
    private struct Point {
        var texts: [String: String] = [:]
        /// The text's number as `parseFloat` reads it; nil when there is no such text or it is no finite number.
        func number(_ name: String) -> Double? {
            guard let text = texts[name] else { return nil }
            let value = JavaScriptNumber.parseFloat(Array(text.utf8))
            return value.isFinite ? value : nil
        }
    }

    /// A Track: its positioned points and the togeojson columns, in series (compact, and in a temporary file
    /// when long).
    private struct Segment {
        let coordinates = JSONSeries()
        let times = JSONSeries()
        let hearts = JSONSeries()
        /// Aligned with `coordinates`, for the GPX side: cadence, speed, power.
        let sensors = [JSONSeries(), JSONSeries(), JSONSeries()]
        var anyTime = false
        var anyHeart = false
        var anySensor = [false, false, false]
        /// togeojson's per-Trackpoint columns (one entry per Trackpoint, positioned or not).
        var columns: [String: JSONSeries] = [:]
        var trackpoints = 0
    }

    /// A Lap, or the Courses: its first texts, and its Tracks.
    private final class Scope {
        let line: Int
        let column: Int
        var texts: [String: String] = [:]
        var trackCount = 0
        var segments: [Segment] = []
        init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    private let body: (JSONValue, Int, Int) throws -> Void
    /// Whether CoursePoints are read (as Points, for the track model).
    private let forTracks: Bool
    private var inCoursePoint = false
    private var sawRoot = false
    private var names: [String] = []
    private var scopes: [Scope] = []
    private var courses: Scope?
    private var laps: [JSONValue] = []
    private var segment: Segment?
    private var point: Point?
    /// Texts being read: (depth where the element opened, name, text, is it the point's).
    private var captures: [(depth: Int, name: String, text: [UInt8], forPoint: Bool)] = []
    private var lapFeatures: [(JSONValue, Int, Int)] = []

    init(forTracks: Bool = false, body: @escaping (JSONValue, Int, Int) throws -> Void) {
        self.forTracks = forTracks
        self.body = body
    }

    override func finish() throws {
        if let failure { throw failure }
        if let error = XMLFormatError.from(parser, openElement: names.last, root: "TrainingCenterDatabase") {
            throw error
        }
        if !sawRoot {
            throw XMLFormatError.malformed(line: parser.line, column: parser.column, reason: "no root element")
        }
    }

    override func startElement(
        localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?, attributes: XMLAttributes
    ) {
        let name = XMLName.string(localName)
        guard sawRoot else {
            guard name == "TrainingCenterDatabase" else {
                fail(
                    XMLFormatError.wrongRoot(
                        line: parser.line, column: parser.column, format: "TCX", expected: "TrainingCenterDatabase",
                        root: name))
                return
            }
            sawRoot = true
            names.append(name)
            return
        }
        names.append(name)
        switch name {
        case "Lap", "Courses":
            scopes.append(Scope(line: parser.line, column: parser.column))
        case "Track" where !scopes.isEmpty:
            for scope in scopes { scope.trackCount += 1 }
            segment = Segment()
        case "Trackpoint" where segment != nil:
            point = Point()
            segment?.trackpoints += 1
        case "CoursePoint" where forTracks && point == nil:
            point = Point()
            inCoursePoint = true
        default:
            if point != nil, Self.pointNames.contains(name) || inCoursePoint && Self.coursePointNames.contains(name),
                point?.texts[name] == nil, !captures.contains(where: { $0.forPoint && $0.name == name })
            {
                captures.append((names.count, name, [], true))
            }
            if !inCoursePoint, let scope = scopes.last, Self.lapNames.contains(name), scope.texts[name] == nil,
                !captures.contains(where: { !$0.forPoint && $0.name == name })
            {
                captures.append((names.count, name, [], false))
            }
        }
    }

    override func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !captures.isEmpty else { return }
        for i in captures.indices where captures[i].text.count + bytes.count <= 4096 {
            captures[i].text.append(contentsOf: bytes)
        }
    }

    override func endElement() {
        let depth = names.count
        guard let name = names.popLast() else { return }
        while let last = captures.last, last.depth == depth {
            captures.removeLast()
            let text = String(decoding: last.text, as: UTF8.self)
            if last.forPoint {
                point?.texts[last.name] = text
            } else {
                scopes.last?.texts[last.name] = text
            }
        }
        switch name {
        case "Trackpoint" where point != nil:
            do {
                if let p = point { try add(p) }
            } catch {
                fail(error)
            }
            point = nil
        case "CoursePoint" where inCoursePoint:
            inCoursePoint = false
            if let p = point { coursePoint(p) }
            point = nil
        case "Track" where segment != nil:
            if let s = segment, s.trackpoints >= 2, s.coordinates.count >= 2 {
                for scope in scopes { scope.segments.append(s) }
            }
            segment = nil
        case "Lap", "Courses":
            guard let scope = scopes.popLast() else { return }
            // A lap's first texts are also the enclosing scope's, when it has none of its own yet.
            if let outer = scopes.last { outer.texts.merge(scope.texts) { own, _ in own } }
            do {
                if let feature = try Self.feature(scope) { try body(feature, scope.line, scope.column) }
            } catch {
                fail(error)
            }
        default: break
        }
    }

    private func add(_ p: Point) throws {
        // Taken out while it changes, so that its dictionary and arrays change in place.
        guard var s = segment else { return }
        segment = nil
        defer { segment = s }
        let index = s.trackpoints - 1
        guard let lon = p.number("LongitudeDegrees"), let lat = p.number("LatitudeDegrees") else {
            // A Trackpoint without a position is no fix (an indoor activity's); one whose position is no number is.
            if p.texts["LongitudeDegrees"] != nil || p.texts["LatitudeDegrees"] != nil {
                let written = "\(p.texts["LatitudeDegrees"] ?? "none"), \(p.texts["LongitudeDegrees"] ?? "none")"
                warn("a Trackpoint's position (\(written)) is not a latitude and longitude; left out")
            }
            return
        }
        // togeojson's per-Trackpoint columns have a value only where the Trackpoint has a position.
        for (element, key) in Self.pointFields {
            guard let value = p.number(element) else { continue }
            let column: JSONSeries
            if let known = s.columns[key] {
                column = known
            } else {
                column = JSONSeries()
                s.columns[key] = column
            }
            while column.count < index { try column.append(number: nil) }
            try column.append(number: value)
        }
        let altitude = p.number("AltitudeMeters")
        if altitude == nil, let text = p.texts["AltitudeMeters"] {
            warn("a Trackpoint's altitude '\(text)' is not a number; left out")
        }
        if let altitude {
            try s.coordinates.append(position: [lon, lat, altitude])
        } else {
            try s.coordinates.append(position: [lon, lat])
        }
        let time = p.texts["Time"].flatMap { $0.isEmpty ? nil : $0 }
        try s.times.append(string: time)
        s.anyTime = s.anyTime || time != nil
        // togeojson keeps a heart rate only when it is a number other than 0.
        let heart = p.texts["HeartRateBpm"].map { JavaScriptNumber.parseFloat(Array($0.utf8)) }
        let keptHeart = heart.flatMap { !$0.isFinite || $0 == 0 ? nil : $0 }
        try s.hearts.append(number: keptHeart)
        s.anyHeart = s.anyHeart || keptHeart != nil
        // Running watches write the cadence as RunCadence.
        let cadence = p.number("Cadence") ?? p.number("RunCadence")
        for (k, value) in [cadence, p.number("Speed"), p.number("Watts")].enumerated() {
            try s.sensors[k].append(number: value)
            s.anySensor[k] = s.anySensor[k] || value != nil
        }
    }

    /// A CoursePoint as a Point feature.
    private func coursePoint(_ p: Point) {
        guard let lon = p.number("LongitudeDegrees"), let lat = p.number("LatitudeDegrees") else {
            let name = p.texts["Name"].map { " '\($0)'" } ?? ""
            warn("a CoursePoint\(name) has no latitude and longitude; left out")
            return
        }
        let position = [lon, lat] + (p.number("AltitudeMeters").map { [$0] } ?? [])
        var properties: [(String, JSONValue)] = []
        for (element, key) in [("Name", "name"), ("Notes", "desc"), ("PointType", "type"), ("Time", "time")] {
            if let text = p.texts[element], !text.isEmpty { properties.append((key, .string(text))) }
        }
        let feature = JSONValue.object([
            ("type", .string("Feature")),
            ("geometry", .object([("type", .string("Point")), ("coordinates", .numbers(position))])),
            ("properties", .object(properties)),
        ])
        do {
            try body(feature, parser.line, parser.column)
        } catch {
            fail(error)
        }
    }

    private static func feature(_ scope: Scope) throws -> JSONValue? {
        let segments = scope.segments
        guard !segments.isEmpty else { return nil }
        var properties: [(String, JSONValue)] = []
        for (element, key) in lapFields {
            guard let text = scope.texts[element] else { continue }
            let value = JavaScriptNumber.parseFloat(Array(text.utf8))
            if !value.isNaN { properties.append((key, .number(value))) }
        }
        if let name = scope.texts["Name"] { properties.append(("name", .string(name))) }
        let multi = segments.count > 1
        // togeojson's per-Trackpoint columns: flat for a lap of one Track, else one array per line kept.
        for (_, key) in pointFields where segments.contains(where: { $0.columns[key] != nil }) {
            func column(_ s: Segment) throws -> JSONValue {
                let values = s.columns[key] ?? JSONSeries()
                while values.count < s.trackpoints { try values.append(number: nil) }
                return .series(values)
            }
            if scope.trackCount == 1 {
                properties.append((key, try column(segments[0])))
            } else {
                // A track without the column has nulls, one per position, as togeojson writes them.
                let lines = try segments.map { s -> JSONValue in
                    if s.columns[key] != nil { return try column(s) }
                    let nulls = JSONSeries()
                    for _ in 0..<s.coordinates.count { try nulls.append(number: nil) }
                    return .series(nulls)
                }
                properties.append((key, .array(lines)))
            }
        }
        func series(_ values: (Segment) -> JSONSeries) -> JSONValue {
            multi ? .array(segments.map { .series(values($0)) }) : .series(values(segments[0]))
        }
        var perPoint: [(String, JSONValue)] = []
        if segments.contains(where: \.anyTime) { perPoint.append(("times", series(\.times))) }
        if segments.contains(where: \.anyHeart) { perPoint.append(("heart", series(\.hearts))) }
        for (k, key) in ["cads", "speeds", "powers"].enumerated() where segments.contains(where: { $0.anySensor[k] }) {
            perPoint.append((key, series { $0.sensors[k] }))
        }
        if !perPoint.isEmpty { properties.append(("coordinateProperties", .object(perPoint))) }
        let geometry: JSONValue =
            multi
            ? .object([
                ("type", .string("MultiLineString")), ("coordinates", .array(segments.map { .series($0.coordinates) })),
            ])
            : .object([("type", .string("LineString")), ("coordinates", .series(segments[0].coordinates))])
        return .object([("type", .string("Feature")), ("geometry", geometry), ("properties", .object(properties))])
    }
}
