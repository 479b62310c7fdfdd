/// Writes GPX 1.1 as content streams by (from a ``GPXReader`` or a ``GeoJSONReader``), in the order the
/// GPX schema asks for: waypoints, then routes, then tracks. Routes and tracks wait in ``Spool``s until the
/// end, so memory stays bounded.
///
/// Sensor values go into Garmin's TrackPointExtension v2 (`hr`, `cad`, `atemp`, `wtemp`, `depth`,
/// `speed`, `course`) and power into Garmin's PowerExtension (`PowerInWatts`), the forms most apps read.
public final class GPXWriter: GPXHandler {
    private let output: any ByteSink
    private let precision: Int?
    private let kinds: FeatureKinds
    private let routes = Spool()
    private let tracks = Spool()
    private var buffer = ByteBuffer(capacity: 1 << 16)
    private var inTrack = false
    private var inRoute = false
    private var inSegment = false
    private var itemBody = ByteBuffer(capacity: 1 << 16)
    private let itemSpool = Spool()

    /// A writer to `output`; `precision` rounds coordinates and elevations to that many decimals.
    /// Waypoints, routes and tracks written so far.
    public private(set) var itemsWritten = 0

    public convenience init(output: OutputStream, precision: Int? = nil, kinds: FeatureKinds = .all) {
        self.init(sink: output, precision: precision, kinds: kinds)
    }

    /// A writer to any byte sink; see ``init(output:precision:kinds:)``.
    package init(sink output: any ByteSink, precision: Int? = nil, kinds: FeatureKinds = .all) {
        self.output = output
        self.precision = precision
        self.kinds = kinds
    }

    /// Writes the XML declaration and the opening `gpx` element.
    public func begin() throws {
        buffer.append(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="RouteKit" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" \
            xmlns:pwr="http://www.garmin.com/xmlschemas/PowerExtension/v1">

            """)
        try output.write(&buffer)
    }

    /// Writes the routes and tracks held back and closes the `gpx` element.
    public func finish() throws {
        try output.write(&buffer)
        try routes.drain(into: output)
        try tracks.drain(into: output)
        buffer.append("</gpx>\n")
        try output.write(&buffer)
    }

    // MARK: GPXHandler

    public func waypoint(_ waypoint: Waypoint) throws {
        guard kinds.contains(.waypoints) else { return }
        itemsWritten += 1
        appendPoint(
            "wpt", waypoint.coordinate, waypoint.elevation, waypoint.time, waypoint.details,
            waypoint.sensors, indent: "  ", into: &buffer)
        if buffer.count >= 1 << 16 { try output.write(&buffer) }
    }

    public func beginRoute() throws {
        inRoute = kinds.contains(.routes)
        itemBody.removeAll()
    }

    public func routePoint(_ point: Waypoint) throws {
        guard inRoute else { return }
        appendPoint(
            "rtept", point.coordinate, point.elevation, point.time, point.details, point.sensors,
            indent: "    ", into: &itemBody)
        if itemBody.count >= 1 << 16 { try itemSpool.append(&itemBody) }
    }

    public func endRoute(_ details: Details) throws {
        guard inRoute else { return }
        inRoute = false
        itemsWritten += 1
        try closeItem("rte", details, into: routes)
    }

    public func beginTrack() throws {
        inTrack = kinds.contains(.tracks)
        itemBody.removeAll()
    }

    public func beginSegment() throws {
        guard inTrack else { return }
        itemBody.append("    <trkseg>\n")
    }

    public func trackPoint(_ point: TrackPoint) throws {
        guard inTrack else { return }
        appendPoint(
            "trkpt", point.coordinate, point.elevation, point.time, Details(), point.sensors,
            indent: "      ", into: &itemBody)
        if itemBody.count >= 1 << 16 { try itemSpool.append(&itemBody) }
    }

    public func endSegment() throws {
        guard inTrack else { return }
        itemBody.append("    </trkseg>\n")
    }

    public func endTrack(_ details: Details) throws {
        guard inTrack else { return }
        inTrack = false
        itemsWritten += 1
        try closeItem("trk", details, into: tracks)
    }

    /// Writes the item's opening tag and details (which GPX wants before the points), then its points.
    private func closeItem(_ tag: StaticString, _ details: Details, into spool: Spool) throws {
        var head = ByteBuffer(capacity: 256)
        head.append("  <")
        head.append(tag)
        head.append(">\n")
        appendDetails(details, indent: "    ", point: false, into: &head)
        try spool.append(&head)
        try itemSpool.append(&itemBody)
        try itemSpool.drain(into: spool)
        head.append("  </")
        head.append(tag)
        head.append(">\n")
        try spool.append(&head)
    }

    // MARK: Pieces

    private func appendPoint(
        _ tag: StaticString, _ coordinate: Coordinate, _ elevation: Double?, _ time: Timestamp?,
        _ details: Details, _ sensors: SensorReadings, indent: StaticString, into buffer: inout ByteBuffer
    ) {
        buffer.append(indent)
        buffer.append("<")
        buffer.append(tag)
        buffer.append(" lat=\"")
        DecimalText.append(coordinate.latitude, precision: precision, to: &buffer)
        buffer.append("\" lon=\"")
        DecimalText.append(coordinate.longitude, precision: precision, to: &buffer)
        buffer.append("\">")
        if let elevation {
            buffer.append("<ele>")
            DecimalText.append(elevation, precision: precision, to: &buffer)
            buffer.append("</ele>")
        }
        if let time {
            buffer.append("<time>")
            time.append(to: &buffer)
            buffer.append("</time>")
        }
        appendDetails(details, indent: nil, point: true, into: &buffer)
        if !sensors.isEmpty {
            buffer.append("<extensions>")
            let garmin: [(SensorReadings.Kind, StaticString)] = [
                (.airTemperature, "atemp"), (.waterTemperature, "wtemp"), (.depth, "depth"), (.heartRate, "hr"),
                (.cadence, "cad"), (.speed, "speed"), (.course, "course"),
            ]
            if garmin.contains(where: { sensors[$0.0] != nil }) {
                buffer.append("<gpxtpx:TrackPointExtension>")
                for (kind, name) in garmin {
                    guard let value = sensors[kind] else { continue }
                    buffer.append("<gpxtpx:")
                    buffer.append(name)
                    buffer.append(">")
                    DecimalText.append(value, to: &buffer)
                    buffer.append("</gpxtpx:")
                    buffer.append(name)
                    buffer.append(">")
                }
                buffer.append("</gpxtpx:TrackPointExtension>")
            }
            if let power = sensors.power {
                buffer.append("<pwr:PowerInWatts>")
                DecimalText.append(power, to: &buffer)
                buffer.append("</pwr:PowerInWatts>")
            }
            buffer.append("</extensions>")
        }
        buffer.append("</")
        buffer.append(tag)
        buffer.append(">\n")
    }

    /// Appends details in the schema's order: name, cmt, desc, src, link, then sym (points) or number
    /// (routes and tracks), then type.
    private func appendDetails(_ details: Details, indent: StaticString?, point: Bool, into buffer: inout ByteBuffer) {
        func element(_ tag: StaticString, _ value: String?) {
            guard let value else { return }
            if let indent { buffer.append(indent) }
            buffer.append("<")
            buffer.append(tag)
            buffer.append(">")
            XMLText.appendEscaped(value, to: &buffer)
            buffer.append("</")
            buffer.append(tag)
            buffer.append(indent == nil ? ">" : ">\n")
        }
        element("name", details.name)
        element("cmt", details.comment)
        element("desc", details.description)
        element("src", details.source)
        for link in details.links {
            if let indent { buffer.append(indent) }
            buffer.append("<link href=\"")
            XMLText.appendEscaped(link.href, to: &buffer)
            buffer.append("\">")
            if let text = link.text {
                buffer.append("<text>")
                XMLText.appendEscaped(text, to: &buffer)
                buffer.append("</text>")
            }
            if let type = link.type {
                buffer.append("<type>")
                XMLText.appendEscaped(type, to: &buffer)
                buffer.append("</type>")
            }
            buffer.append(indent == nil ? "</link>" : "</link>\n")
        }
        if point {
            element("sym", details.symbol)
        } else if let number = details.number {
            element("number", String(number))
        }
        element("type", details.type)
    }
}
