/// How a ``GeoJSONWriter`` lays out its features.
public enum GeoJSONLayout: Sendable, Hashable {
    /// One RFC 7946 FeatureCollection.
    case featureCollection
    /// GeoJSON Text Sequences (RFC 8142): each Feature preceded by a record separator (U+001E) and
    /// followed by a line feed.
    case textSequence
    /// One Feature per line, without record separators (newline-delimited GeoJSON).
    case lineDelimited
}

/// Converts GPX to GeoJSON as it streams by, in the structure togeojson produces: tracks first, then
/// routes, then waypoints (across all the files read into one writer); a track with several segments of two
/// or more points is a MultiLineString, otherwise a LineString; coordinates `[lon, lat, ele]` with `ele`
/// only when known; per-point values in `properties.coordinateProperties` (`times`, `heart`, `cads`,
/// `atemps`, `wtemps`, `depths`, `speeds`, `courses`, `powers`), arrays aligned with the coordinates (nested
/// per segment for a MultiLineString) with `null` where a point has no value; `_gpxType` is `trk` or `rte`;
/// `time` is the time of the first point that has one. Like togeojson, an item without a name, comment,
/// description or type of its own shows the first one found inside it (``Details/inherited``); a track's
/// `time` is the first `time` inside it.
///
/// Numbers are written in their shortest form that reads back to the same double, or rounded to
/// ``precision`` decimals. Memory stays bounded: what must be written later than it is read (a track's
/// times come after its coordinates; routes and waypoints after all tracks) waits in a ``Spool`` that moves
/// to a temporary file beyond a few megabytes.
///
/// A line needs two positions: segments and routes with fewer are left out; a track or route left with
/// nothing is reported to `onWarning` when it had a point.
public final class GeoJSONWriter: GPXHandler {
    private let output: any ByteSink
    private let layout: GeoJSONLayout
    private let precision: Int?
    private let kinds: FeatureKinds
    private let onWarning: (String) -> Void

    private var featuresWritten = 0
    private let routeSpool = Spool()
    private var routeCount = 0
    private let waypointSpool = Spool()
    private var waypointCount = 0
    private var line: LineFeature?
    private var trackOrdinal = 0
    private var routeOrdinal = 0
    private var buffer = ByteBuffer(capacity: 1 << 16)

    /// Counts of what was written.
    public private(set) var counts = Counts()

    /// How many features and points a writer wrote.
    public struct Counts: Hashable, Sendable {
        /// Features written of each kind, and points in them.
        public var tracks = 0
        public var routes = 0
        public var waypoints = 0
        public var points = 0

        /// Tracks, routes and waypoints.
        public var features: Int { tracks + routes + waypoints }
    }

    /// A writer to `output`; `precision` rounds coordinates to that many decimals (nil: no rounding);
    /// `onWarning` hears of tracks and routes left out.
    public convenience init(
        output: OutputStream, layout: GeoJSONLayout = .featureCollection, precision: Int? = nil,
        kinds: FeatureKinds = .all, onWarning: @escaping (String) -> Void = { _ in }
    ) {
        self.init(sink: output, layout: layout, precision: precision, kinds: kinds, onWarning: onWarning)
    }

    /// A writer to any byte sink (a ``Spool`` for a part of a larger output); see
    /// ``init(output:layout:precision:kinds:onWarning:)``.
    package init(
        sink output: any ByteSink, layout: GeoJSONLayout = .featureCollection, precision: Int? = nil,
        kinds: FeatureKinds = .all, onWarning: @escaping (String) -> Void = { _ in }
    ) {
        self.output = output
        self.layout = layout
        self.precision = precision
        self.kinds = kinds
        self.onWarning = onWarning
    }

    /// Writes what comes before the first feature. Call once, before reading any file.
    public func begin() throws {
        if layout == .featureCollection {
            buffer.append("{\"type\":\"FeatureCollection\",\"features\":[")
            try output.write(&buffer)
        }
    }

    /// Writes the routes and waypoints held back, and what comes after the last feature. Call once, after
    /// the last file; then commit the output.
    public func finish() throws {
        if layout == .featureCollection && routeCount > 0 && featuresWritten > 0 { buffer.append(0x2C) }
        try output.write(&buffer)
        try routeSpool.drain(into: output)
        featuresWritten += routeCount
        if layout == .featureCollection && waypointCount > 0 && featuresWritten > 0 { buffer.append(0x2C) }
        try output.write(&buffer)
        try waypointSpool.drain(into: output)
        featuresWritten += waypointCount
        if layout == .featureCollection { buffer.append("\n]}\n") }
        try output.write(&buffer)
    }

    /// Ends a text sequence that is one file's part of a larger one (files converted in parallel): the
    /// tracks are in the output; the routes and waypoints held back go to `routes` and `waypoints`, for
    /// the whole output to have every file's tracks, then routes, then waypoints, as one writer gives.
    package func finishPart(routes: any ByteSink, waypoints: any ByteSink) throws {
        precondition(layout != .featureCollection, "a FeatureCollection cannot be put together from parts")
        try output.write(&buffer)
        try routeSpool.drain(into: routes)
        try waypointSpool.drain(into: waypoints)
    }

    // MARK: GPXHandler

    public func waypoint(_ waypoint: Waypoint) throws {
        guard kinds.contains(.waypoints) else { return }
        var feature = ByteBuffer(capacity: 256)
        startFeature(separated: waypointCount > 0, into: &feature)
        feature.append("{\"type\":\"Feature\",\"properties\":{")
        var first = true
        appendDetails(waypoint.details, includeSymbol: true, first: &first, into: &feature)
        if let time = waypoint.time ?? waypoint.details.inherited.time.flatMap(Timestamp.init) {
            comma(&first, &feature)
            JSONText.appendKey("time", to: &feature)
            appendTime(time, into: &feature)
        }
        feature.append("},\"geometry\":{\"type\":\"Point\",\"coordinates\":")
        appendPosition(waypoint.coordinate, waypoint.elevation, into: &feature)
        feature.append("}}")
        endFeature(into: &feature)
        try waypointSpool.append(&feature)
        waypointCount += 1
        counts.waypoints += 1
    }

    public func beginRoute() throws {
        routeOrdinal += 1
        line = kinds.contains(.routes) ? LineFeature(kind: .route, ordinal: routeOrdinal) : nil
    }

    public func routePoint(_ point: Waypoint) throws {
        try line?.add(
            TrackPoint(
                coordinate: point.coordinate, elevation: point.elevation, time: point.time,
                sensors: point.sensors), writer: self)
    }

    public func endRoute(_ details: Details) throws {
        guard let route = line else { return }
        line = nil
        guard route.keptSegments > 0 else {
            warnLeftOut("route", details, route)
            return
        }
        var feature = ByteBuffer(capacity: 16)
        startFeature(separated: routeCount > 0, into: &feature)
        try routeSpool.append(&feature)
        try route.write(details: details, to: routeSpool, writer: self)
        endFeature(into: &feature)
        try routeSpool.append(&feature)
        routeCount += 1
        counts.routes += 1
        counts.points += route.pointsKept
    }

    public func beginTrack() throws {
        trackOrdinal += 1
        line = kinds.contains(.tracks) ? LineFeature(kind: .track, ordinal: trackOrdinal) : nil
    }

    public func beginSegment() throws {
        line?.beginSegment()
    }

    public func trackPoint(_ point: TrackPoint) throws {
        try line?.add(point, writer: self)
    }

    public func endSegment() throws {
        line?.endSegment()
    }

    public func endTrack(_ details: Details) throws {
        guard let track = line else { return }
        line = nil
        guard track.keptSegments > 0 else {
            warnLeftOut("track", details, track)
            return
        }
        if track.loneSegments > 0 {
            let name = details.name.map { " '\($0)'" } ?? " \(track.ordinal)"
            onWarning(
                "track\(name): \(track.loneSegments) segment\(track.loneSegments == 1 ? "" : "s") of a single point "
                    + "left out, since a GeoJSON line needs two positions")
        }
        startFeature(separated: featuresWritten > 0, into: &buffer)
        try output.write(&buffer)
        try track.write(details: details, to: output, writer: self)
        endFeature(into: &buffer)
        try output.write(&buffer)
        featuresWritten += 1
        counts.tracks += 1
        counts.points += track.pointsKept
    }

    /// Writes a whole Feature as it is (KML and TCX features in togeojson's shape), in its turn among the
    /// tracks: the geometry's numbers are rounded to ``precision`` when it is set, other members are written
    /// as they are. With `kinds` other than all, a feature is kept when its geometry is of a kind kept:
    /// points as waypoints, everything else as tracks; a feature without geometry only when all are kept.
    package func write(feature: JSONValue) throws {
        let type = feature["geometry"]?["type"]?.string
        let kind: FeatureKinds? =
            switch type {
            case nil: nil
            case "Point", "MultiPoint": .waypoints
            default: .tracks
            }
        if kinds != .all {
            guard let kind, kinds.contains(kind) else { return }
        }
        startFeature(separated: featuresWritten > 0, into: &buffer)
        guard case .object(let members) = feature else { return }
        buffer.append(0x7B)
        for (i, (key, value)) in members.enumerated() {
            if i > 0 { buffer.append(0x2C) }
            JSONText.appendString(key, to: &buffer)
            buffer.append(0x3A)
            let output = output
            try value.append(to: &buffer, precision: key == "geometry" ? precision : nil) { try output.write(&$0) }
            if buffer.count >= 1 << 16 { try output.write(&buffer) }
        }
        buffer.append(0x7D)
        endFeature(into: &buffer)
        try output.write(&buffer)
        featuresWritten += 1
        if kind == .waypoints { counts.waypoints += 1 } else { counts.tracks += 1 }
    }

    private func warnLeftOut(_ what: String, _ details: Details, _ line: LineFeature) {
        let name = details.name.map { " '\($0)'" } ?? ""
        if line.pointsSeen == 0 {
            onWarning("\(what)\(name) has no points; left out")
        } else {
            onWarning(
                "\(what)\(name) has no segment of two or more points (\(line.pointsSeen) "
                    + "point\(line.pointsSeen == 1 ? "" : "s")); "
                    + "left out, since a GeoJSON line needs two positions")
        }
    }

    // MARK: Pieces

    private func startFeature(separated: Bool, into buffer: inout ByteBuffer) {
        switch layout {
        case .featureCollection: buffer.append(separated ? ",\n" : "\n")
        case .textSequence: buffer.append(0x1E)
        case .lineDelimited: break
        }
    }

    private func endFeature(into buffer: inout ByteBuffer) {
        if layout != .featureCollection { buffer.append(0x0A) }
    }

    fileprivate func comma(_ first: inout Bool, _ buffer: inout ByteBuffer) {
        if first { first = false } else { buffer.append(0x2C) }
    }

    fileprivate func appendPosition(_ c: Coordinate, _ elevation: Double?, into buffer: inout ByteBuffer) {
        buffer.append(0x5B)
        DecimalText.append(c.longitude, precision: precision, to: &buffer)
        buffer.append(0x2C)
        DecimalText.append(c.latitude, precision: precision, to: &buffer)
        if let elevation {
            buffer.append(0x2C)
            DecimalText.append(elevation, precision: precision, to: &buffer)
        }
        buffer.append(0x5D)
    }

    fileprivate func appendTime(_ time: Timestamp, into buffer: inout ByteBuffer) {
        buffer.append(0x22)
        time.append(to: &buffer)
        buffer.append(0x22)
    }

    fileprivate func appendDetails(
        _ details: Details, includeSymbol: Bool, first: inout Bool, into buffer: inout ByteBuffer
    ) {
        func field(_ key: StaticString, _ value: String?) {
            guard let value else { return }
            comma(&first, &buffer)
            JSONText.appendKey(key, to: &buffer)
            JSONText.appendString(value, to: &buffer)
        }
        let inherited = details.inherited
        func nonEmpty(_ s: String?) -> String? { s?.isEmpty == false ? s : nil }
        field("name", details.name ?? nonEmpty(inherited.name))
        field("cmt", details.comment ?? nonEmpty(inherited.comment))
        field("desc", details.description ?? nonEmpty(inherited.description))
        field("src", details.source)
        if !details.links.isEmpty {
            comma(&first, &buffer)
            JSONText.appendKey("links", to: &buffer)
            buffer.append(0x5B)
            for (i, link) in details.links.enumerated() {
                if i > 0 { buffer.append(0x2C) }
                buffer.append("{\"href\":")
                JSONText.appendString(link.href, to: &buffer)
                if let text = link.text {
                    buffer.append(",\"text\":")
                    JSONText.appendString(text, to: &buffer)
                }
                if let type = link.type {
                    buffer.append(",\"type\":")
                    JSONText.appendString(type, to: &buffer)
                }
                buffer.append(0x7D)
            }
            buffer.append(0x5D)
        }
        if includeSymbol { field("sym", details.symbol) }
        field("type", details.type ?? nonEmpty(inherited.type))
        if let number = details.number {
            comma(&first, &buffer)
            JSONText.appendKey("number", to: &buffer)
            DecimalText.appendInteger(Int64(number), to: &buffer)
        }
    }
}

/// A track or route being converted: its coordinates and per-point columns, spooled until its end.
private final class LineFeature {
    enum Kind { case track, route }

    /// One per-point array of `coordinateProperties`, written only when some point has a value.
    final class Column {
        let key: StaticString
        var present = false
        var buffer = ByteBuffer()
        let spool = Spool()
        init(key: StaticString) { self.key = key }
    }

    let kind: Kind
    /// 1 for the first track (or route) read, 2 for the second, …; for messages.
    let ordinal: Int
    let coordinates = Spool()
    var coordinateBuffer = ByteBuffer(capacity: 1 << 16)
    let times = Column(key: "times")
    let sensorColumns: [(SensorReadings.Kind, Column)] = SensorReadings.Kind.allCases.map {
        ($0, Column(key: $0.coordinatePropertiesKey))
    }
    var anySensors = false

    /// Sizes of the segments kept so far (two or more points), the current one last once kept.
    var keptSizes: [Int] = []
    var pending: TrackPoint?
    var inSegmentCount = 0
    var pointsSeen = 0
    var pointsKept = 0
    /// Segments left out because they had a single point.
    var loneSegments = 0
    var firstTime: Timestamp?

    var keptSegments: Int { keptSizes.count }

    init(kind: Kind, ordinal: Int) {
        self.kind = kind
        self.ordinal = ordinal
        if kind == .route { beginSegment() }
    }

    func beginSegment() {
        pending = nil
        inSegmentCount = 0
    }

    /// Ends the segment; a segment of a single point is left out and counted.
    func endSegment() {
        if pending != nil { loneSegments += 1 }
        pending = nil
        inSegmentCount = 0
    }

    func add(_ point: TrackPoint, writer: GeoJSONWriter) throws {
        pointsSeen += 1
        if firstTime == nil, let time = point.time { firstTime = time }
        if inSegmentCount == 0 && pending == nil {
            pending = point
            return
        }
        if let first = pending {
            pending = nil
            if !keptSizes.isEmpty { separateSegments() }
            keptSizes.append(0)
            try emit(first, writer: writer)
        }
        try emit(point, writer: writer)
    }

    private func separateSegments() {
        coordinateBuffer.append("],[")
        if times.present { times.buffer.append("],[") }
        if anySensors {
            for (_, column) in sensorColumns where column.present { column.buffer.append("],[") }
        }
    }

    private func emit(_ point: TrackPoint, writer: GeoJSONWriter) throws {
        let separator = inSegmentCount > 0
        if separator { coordinateBuffer.append(0x2C) }
        writer.appendPosition(point.coordinate, point.elevation, into: &coordinateBuffer)

        if let time = point.time {
            if !times.present { backfill(times) }
            if separator { times.buffer.append(0x2C) }
            writer.appendTime(time, into: &times.buffer)
        } else if times.present {
            if separator { times.buffer.append(0x2C) }
            times.buffer.append("null")
        }
        if anySensors || !point.sensors.isEmpty {
            for (kind, column) in sensorColumns {
                if let value = point.sensors[kind] {
                    if !column.present {
                        backfill(column)
                        anySensors = true
                    }
                    if separator { column.buffer.append(0x2C) }
                    DecimalText.append(value, to: &column.buffer)
                } else if column.present {
                    if separator { column.buffer.append(0x2C) }
                    column.buffer.append("null")
                }
            }
        }
        inSegmentCount += 1
        keptSizes[keptSizes.count - 1] += 1
        pointsKept += 1
        if coordinateBuffer.count >= 1 << 16 { try flushBuffers() }
    }

    /// Starts a column that appears part-way: `null` for every point kept before.
    private func backfill(_ column: Column) {
        column.present = true
        for (i, size) in keptSizes.enumerated() {
            if i > 0 { column.buffer.append("],[") }
            let count = i == keptSizes.count - 1 ? inSegmentCount : size
            for k in 0..<count {
                if k > 0 { column.buffer.append(0x2C) }
                column.buffer.append("null")
            }
        }
    }

    private func flushBuffers() throws {
        try coordinates.append(&coordinateBuffer)
        if times.present { try times.spool.append(&times.buffer) }
        for (_, column) in sensorColumns where column.present { try column.spool.append(&column.buffer) }
    }

    /// Writes the feature to `sink`: properties with the per-point columns, then the geometry.
    func write(details: Details, to sink: ByteSink, writer: GeoJSONWriter) throws {
        try flushBuffers()
        var feature = ByteBuffer(capacity: 1024)
        feature.append("{\"type\":\"Feature\",\"properties\":{\"_gpxType\":")
        feature.append(kind == .track ? "\"trk\"" : "\"rte\"")
        var first = false
        writer.appendDetails(details, includeSymbol: false, first: &first, into: &feature)
        if let time = details.inherited.time.flatMap(Timestamp.init) ?? firstTime {
            feature.append(",\"time\":")
            writer.appendTime(time, into: &feature)
        }
        let multi = keptSizes.count > 1
        let columns = ([times] + sensorColumns.map(\.1)).filter(\.present)
        if !columns.isEmpty {
            feature.append(",\"coordinateProperties\":{")
            for (i, column) in columns.enumerated() {
                if i > 0 { feature.append(0x2C) }
                JSONText.appendKey(column.key, to: &feature)
                feature.append(multi ? "[[" : "[")
                try sink.write(&feature)
                try column.spool.drain(into: sink)
                feature.append(multi ? "]]" : "]")
            }
            feature.append(0x7D)
        }
        feature.append("},\"geometry\":{\"type\":")
        feature.append(multi ? "\"MultiLineString\",\"coordinates\":[[" : "\"LineString\",\"coordinates\":[")
        try sink.write(&feature)
        try coordinates.drain(into: sink)
        feature.append(multi ? "]]}}" : "]}}")
        try sink.write(&feature)
    }
}
