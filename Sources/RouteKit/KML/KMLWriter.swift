/// Writes KML 2.2 as content streams by (from any reader), one Placemark per track, route and waypoint, in
/// the order they come.
///
/// A track whose points all have times is a `gx:Track` (a `gx:MultiTrack` of them for several segments),
/// the form Google Earth writes and plays back, unless a segment has only two points (togeojson reads a
/// two-point `gx:Track` as a Point); otherwise a LineString (a MultiGeometry of them for several
/// segments). Routes are LineStrings, waypoints Points with their name, description and time
/// (`TimeStamp`). Each kind has a simple shared style (`#track`, `#route`, `#waypoint`). Coordinates are
/// `lon,lat[,ele]` as KML writes them; a track's points wait in ``Spool``s until the track ends, so memory
/// stays bounded. A `gx:Track`'s sensor values (heart rate, cadence, power, …) are its `gx:SimpleArrayData`,
/// named as Google Earth names them (`heartrate`, `cadence`, `power`) after the Document's `Schema`; a
/// LineString has no place for them.
public final class KMLWriter: GPXHandler {
    private let output: any ByteSink
    private let precision: Int?
    private let kinds: FeatureKinds
    private var buffer = ByteBuffer(capacity: 1 << 16)

    /// Waypoints, routes and tracks written so far.
    public private(set) var itemsWritten = 0

    // The track or route being written: each segment in both forms, until it is known which one it takes.
    private var inItem = false
    private var isRoute = false
    private var allTimed = true
    private var points = 0
    private var segments = 0
    private var segmentPoints = 0
    private var whens = ByteBuffer(capacity: 1 << 14)
    private var coords = ByteBuffer(capacity: 1 << 14)
    private var line = ByteBuffer(capacity: 1 << 14)
    private let whenSpool = Spool()
    private let coordSpool = Spool()
    /// The segment's `gx:value`s of each sensor kind met in it (empty values before the first of a kind).
    private var sensorValues: [(kind: SensorReadings.Kind, spool: Spool)] = []
    private var sensorText = ByteBuffer(capacity: 64)
    private let lineSpool = Spool()
    private let tracks = Spool()
    private let lines = Spool()

    /// A writer to `output`; `precision` rounds coordinates and elevations to that many decimals; `kinds`
    /// chooses what is written.
    public convenience init(output: OutputStream, precision: Int? = nil, kinds: FeatureKinds = .all) {
        self.init(sink: output, precision: precision, kinds: kinds)
    }

    /// A writer to any byte sink; see ``init(output:precision:kinds:)``.
    package init(sink output: any ByteSink, precision: Int? = nil, kinds: FeatureKinds = .all) {
        self.output = output
        self.precision = precision
        self.kinds = kinds
    }

    /// Writes the XML declaration, the opening `kml` and `Document` elements and the shared styles.
    public func begin() throws {
        buffer.append(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
            <Document>
              <Style id="track"><LineStyle><color>ff0000ff</color><width>3</width></LineStyle></Style>
              <Style id="route"><LineStyle><color>ffff0000</color><width>3</width></LineStyle></Style>
              <Style id="waypoint"><IconStyle><Icon>\
            <href>http://maps.google.com/mapfiles/kml/paddle/red-circle.png</href></Icon></IconStyle></Style>
              <Schema id="sensors">

            """)
        for kind in SensorReadings.Kind.allCases {
            buffer.append("    <gx:SimpleArrayField name=\"")
            buffer.append(string: KMLSensorName.name(kind))
            buffer.append("\" type=\"float\"/>\n")
        }
        buffer.append("  </Schema>\n")
        try output.write(&buffer)
    }

    /// Closes the `Document` and `kml` elements.
    public func finish() throws {
        buffer.append("</Document>\n</kml>\n")
        try output.write(&buffer)
    }

    // MARK: GPXHandler

    public func waypoint(_ waypoint: Waypoint) throws {
        guard kinds.contains(.waypoints) else { return }
        itemsWritten += 1
        buffer.append("  <Placemark>")
        appendDetails(waypoint.details, into: &buffer)
        if let time = waypoint.time {
            buffer.append("<TimeStamp><when>")
            time.append(to: &buffer)
            buffer.append("</when></TimeStamp>")
        }
        buffer.append("<styleUrl>#waypoint</styleUrl><Point><coordinates>")
        appendTuple(waypoint.coordinate, waypoint.elevation, separator: 0x2C, into: &buffer)
        buffer.append("</coordinates></Point></Placemark>\n")
        if buffer.count >= 1 << 16 { try output.write(&buffer) }
    }

    public func beginRoute() throws {
        begin(route: true)
        if inItem { try beginSegment() }
    }

    public func routePoint(_ point: Waypoint) throws {
        try add(point.coordinate, point.elevation, point.time)
    }

    public func endRoute(_ details: Details) throws {
        try endSegment()
        try end(details)
    }

    public func beginTrack() throws {
        begin(route: false)
    }

    public func beginSegment() throws {
        segmentPoints = 0
    }

    public func trackPoint(_ point: TrackPoint) throws {
        try add(point.coordinate, point.elevation, point.time)
        if allTimed && inItem && (!point.sensors.isEmpty || !sensorValues.isEmpty) { try addSensors(point.sensors) }
    }

    public func endSegment() throws {
        guard inItem else { return }
        // A line needs two positions: a segment of one point is left out, as GeoJSON leaves it out.
        defer {
            whens.removeAll()
            coords.removeAll()
            line.removeAll()
            sensorValues.removeAll()
            segmentPoints = 0
        }
        guard segmentPoints >= 2 else {
            for spool in [whenSpool, coordSpool, lineSpool] { try spool.drain(into: DiscardingSink()) }
            return
        }
        segments += 1
        if segmentPoints == 2 { allTimed = false }
        var piece = ByteBuffer(capacity: 64)
        if allTimed {
            piece.append("<gx:Track>")
            try tracks.append(&piece)
            try whenSpool.append(&whens)
            try whenSpool.drain(into: tracks)
            try coordSpool.append(&coords)
            try coordSpool.drain(into: tracks)
            if !sensorValues.isEmpty {
                piece.append("<ExtendedData><SchemaData schemaUrl=\"#sensors\">")
                for k in sensorValues.indices {
                    piece.append("<gx:SimpleArrayData name=\"")
                    piece.append(string: KMLSensorName.name(sensorValues[k].kind))
                    piece.append("\">")
                    try tracks.append(&piece)
                    try sensorValues[k].spool.drain(into: tracks)
                    piece.append("</gx:SimpleArrayData>")
                }
                piece.append("</SchemaData></ExtendedData>")
            }
            piece.append("</gx:Track>")
            try tracks.append(&piece)
        } else {
            try whenSpool.drain(into: DiscardingSink())
            try coordSpool.drain(into: DiscardingSink())
        }
        piece.append("<LineString><coordinates>")
        try lines.append(&piece)
        try lineSpool.append(&line)
        try lineSpool.drain(into: lines)
        piece.append("</coordinates></LineString>")
        try lines.append(&piece)
    }

    public func endTrack(_ details: Details) throws {
        try end(details)
    }

    // MARK: Pieces

    private func begin(route: Bool) {
        inItem = kinds.contains(route ? .routes : .tracks)
        isRoute = route
        allTimed = !route
        points = 0
        segments = 0
        segmentPoints = 0
    }

    private func add(_ coordinate: Coordinate, _ elevation: Double?, _ time: Timestamp?) throws {
        guard inItem else { return }
        if segmentPoints > 0 { line.append(0x20) }
        appendTuple(coordinate, elevation, separator: 0x2C, into: &line)
        if allTimed, let time {
            whens.append("<when>")
            time.append(to: &whens)
            whens.append("</when>")
            coords.append("<gx:coord>")
            appendTuple(coordinate, elevation, separator: 0x20, into: &coords)
            coords.append("</gx:coord>")
        } else {
            allTimed = false
        }
        segmentPoints += 1
        points += 1
        if line.count >= 1 << 16 {
            try lineSpool.append(&line)
            try whenSpool.append(&whens)
            try coordSpool.append(&coords)
        }
    }

    /// Adds the point's sensor values to the segment's arrays: a kind met for the first time gets an empty
    /// value for each point before.
    private func addSensors(_ sensors: SensorReadings) throws {
        let all = SensorReadings.Kind.allCases
        for kind in all where sensors[kind] != nil && !sensorValues.contains(where: { $0.kind == kind }) {
            let spool = Spool()
            for _ in 1..<segmentPoints { sensorText.append("<gx:value/>") }
            try spool.append(&sensorText)
            sensorValues.append((kind, spool))
            // In the order of the kinds, whatever order they were met in.
            sensorValues = all.compactMap { kind in sensorValues.first { $0.kind == kind } }
        }
        for (kind, spool) in sensorValues {
            if let value = sensors[kind] {
                sensorText.append("<gx:value>")
                DecimalText.append(value, precision: nil, to: &sensorText)
                sensorText.append("</gx:value>")
            } else {
                sensorText.append("<gx:value/>")
            }
            try spool.append(&sensorText)
        }
    }

    private func end(_ details: Details) throws {
        guard inItem else { return }
        inItem = false
        defer {
            try? tracks.drain(into: DiscardingSink())
            try? lines.drain(into: DiscardingSink())
        }
        guard segments > 0 else { return }
        itemsWritten += 1
        buffer.append("  <Placemark>")
        appendDetails(details, into: &buffer)
        buffer.append(isRoute ? "<styleUrl>#route</styleUrl>" : "<styleUrl>#track</styleUrl>")
        let timed = allTimed && !isRoute
        let multi = segments > 1
        if multi { buffer.append(timed ? "<gx:MultiTrack>" : "<MultiGeometry>") }
        try output.write(&buffer)
        try (timed ? tracks : lines).drain(into: output)
        if multi { buffer.append(timed ? "</gx:MultiTrack>" : "</MultiGeometry>") }
        buffer.append("</Placemark>\n")
        try output.write(&buffer)
    }

    private func appendTuple(_ c: Coordinate, _ elevation: Double?, separator: UInt8, into buffer: inout ByteBuffer) {
        DecimalText.append(c.longitude, precision: precision, to: &buffer)
        buffer.append(separator)
        DecimalText.append(c.latitude, precision: precision, to: &buffer)
        if let elevation {
            buffer.append(separator)
            DecimalText.append(elevation, precision: precision, to: &buffer)
        }
    }

    /// The name, and the description (or the comment when there is no description).
    private func appendDetails(_ details: Details, into buffer: inout ByteBuffer) {
        if let name = details.name {
            buffer.append("<name>")
            XMLText.appendEscaped(name, to: &buffer)
            buffer.append("</name>")
        }
        if let description = details.description ?? details.comment {
            buffer.append("<description>")
            XMLText.appendEscaped(description, to: &buffer)
            buffer.append("</description>")
        }
    }
}

/// A sink that drops what it is given: for spooled pieces that turn out not to be needed.
private final class DiscardingSink: ByteSink {
    func write(_ buffer: inout ByteBuffer) throws { buffer.removeAll() }
}
