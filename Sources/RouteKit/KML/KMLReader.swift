/// Reads KML 2.2 (Google Earth, My Maps, GIS exports; with Google's `gx:` extensions) in one streaming pass
/// and hands it on as GeoJSON features in the shape of togeojson's `kml()`, or as GPX content.
///
/// What it reads: Placemarks with Point, LineString, LinearRing, Polygon, MultiGeometry (a
/// GeometryCollection), `gx:Track` and `gx:MultiTrack` (with their `when` times as
/// `coordinateProperties.times`); GroundOverlays (a Polygon from `LatLonBox`, rotated, or `gx:LatLonQuad`) and
/// NetworkLinks (the Region's box), which togeojson writes after all the Placemarks; ExtendedData (`Data`, and
/// `SimpleData` typed by the file's `SimpleField`s); styles (inline, shared through `styleUrl`, StyleMaps,
/// `gx:CascadingStyle`) as simplestyle properties; TimeSpan and TimeStamp; CDATA descriptions as
/// `{"@type": "html", "value": …}`. Values are kept as written (names are not trimmed), as togeojson does.
///
/// Memory holds one Placemark at a time, plus the file's styles and schemas; the positions and times of a
/// long line or `gx:Track` go to a temporary file (``JSONSeries``). A style may be defined after
/// the Placemark that uses it: such a Placemark (and those after it, to keep the order) waits until the
/// style turns up, the end of the file, or 4,096 waiting Placemarks, whichever comes first.
///
/// As GPX content (``read(_:handler:)``): lines (and the lines of a MultiGeometry or MultiTrack) are tracks,
/// with `gx:Track` times in their points; Points are waypoints with their name, description and timestamp;
/// polygons and features without geometry have no GPX form and are left out with a warning.
public struct KMLReader: FeatureFileReader {
    /// When true, what would be a warning is an error (``XMLFormatError/invalidValue(line:column:reason:)``).
    public var strict: Bool
    /// Called for each feature or value left out.
    public var onWarning: (ReadWarning) -> Void

    /// A reader; `onWarning` receives each feature or value left out.
    public init(strict: Bool = false, onWarning: @escaping (ReadWarning) -> Void = { _ in }) {
        self.strict = strict
        self.onWarning = onWarning
    }

    /// Reads `input` to its end, handing its lines and points to `handler`.
    ///
    /// - Throws: ``XMLFormatError`` for a file that is not KML (or, with ``strict``, has something GPX cannot
    ///   hold), ``IOError`` when reading fails, and whatever `handler` throws.
    public func read(_ input: InputFile, handler: GPXHandler) throws {
        try readFeatures(input, into: handler)
    }

    /// The features for the track model (``read(_:handler:)``): a `gx:Track` of two positions is a line.
    func trackFeatures(_ input: InputFile, body: @escaping (JSONValue, Int, Int) throws -> Void) throws {
        try KMLStateMachine(forTracks: true, body: body).read(input, strict: strict, onWarning: onWarning)
    }

    /// Reads `input` to its end, calling `body` with each feature (a GeoJSON Feature in togeojson's shape)
    /// and the line and column where it starts, in togeojson's order.
    ///
    /// - Throws: ``XMLFormatError`` for a file that is not KML, ``IOError`` when reading fails, and whatever
    ///   `body` throws.
    package func features(_ input: InputFile, body: @escaping (JSONValue, Int, Int) throws -> Void) throws {
        try KMLStateMachine(body: body).read(input, strict: strict, onWarning: onWarning)
    }
}

/// The element-by-element logic of ``KMLReader``: outside features it only looks for them (and for styles
/// and schemas); inside one it builds a ``KMLElement`` tree, reading coordinates as they stream by.
final class KMLStateMachine: XMLFormatMachine {
    /// Elements read whole, as trees, when they are not inside one another.
    private static let captured: Set<String> = [
        "Placemark", "GroundOverlay", "NetworkLink", "Style", "StyleMap", "CascadingStyle", "Schema",
    ]
    /// Elements whose content no feature uses and which can be large (per-point arrays of no sensor kind).
    private static let skipped: Set<String> = ["SimpleArrayData"]
    /// Placemarks that may wait for a style defined later in the file.
    private static let maximumWaiting = 4096

    private let body: (JSONValue, Int, Int) throws -> Void
    /// Whether a `gx:Track` of two positions is a line (for tracks) rather than togeojson's Point.
    private let forTracks: Bool
    private var sawRoot = false
    /// Names of the open elements outside a captured tree (for messages).
    private var outerNames: [String] = []
    /// Elements deeper than this inside a feature are passed over: no KML writer nests so deep, and the tree
    /// stays shallow enough to walk.
    static let maximumDepth = 256
    /// The most elements one feature may have (gx:Track points and coordinates are not elements).
    static let maximumElements = 500_000
    /// The most text one feature may hold (coordinates are not kept as text).
    static let maximumTextBytes = 64 << 20
    private var depth = 0
    private var elementCount = 0
    private var textBytes = 0

    // The tree being built, and where.
    private var root: KMLElement?
    private var current: KMLElement?
    private var rootLine = 0
    private var rootColumn = 0
    /// Depth inside an element whose content is skipped.
    private var skipDepth = 0
    private var scanner = KMLCoordinateScanner()
    /// The text of a `gx:coord` or `when` inside a `gx:Track`, read into the track rather than kept as elements.
    private var trackLeaf: (track: KMLElement, isCoord: Bool)?
    /// The text of the `gx:coord` or `when` being read (reused: a track has one of each per point).
    private var leafText: [UInt8] = []
    /// The numbers of the `gx:coord` being read (reused).
    private var leafNumbers: [Double] = []
    /// The series of the `gx:SimpleArrayData` of sensor values being read inside a `gx:Track`; its `gx:value`
    /// texts are read into `leafText` one by one.
    private var sensorArray: JSONSeries?

    private let styles = KMLStyles()
    private var waiting: [(KMLElement, Int, Int)] = []
    /// Ground overlays and network links, written after all the Placemarks as togeojson does.
    private var overlays: [(JSONValue, Int, Int)] = []
    private var links: [(JSONValue, Int, Int)] = []

    init(forTracks: Bool = false, body: @escaping (JSONValue, Int, Int) throws -> Void) {
        self.forTracks = forTracks
        self.body = body
    }

    override func finish() throws {
        if let failure { throw failure }
        if let error = XMLFormatError.from(parser, openElement: current?.name ?? outerNames.last, root: "kml") {
            throw error
        }
        if !sawRoot {
            throw XMLFormatError.malformed(line: parser.line, column: parser.column, reason: "no root element")
        }
        try flushWaiting(all: true)
        for (feature, line, column) in overlays + links { try body(feature, line, column) }
    }

    // MARK: Events

    override func startElement(
        localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?, attributes: XMLAttributes
    ) {
        if skipDepth > 0 {
            skipDepth += 1
            if skipDepth == 2 && sensorArray != nil { leafText.removeAll(keepingCapacity: true) }
            return
        }
        // A track's points first, without making strings: a track has two elements per point.
        if let parent = current, parent.name == "Track" {
            let isCoord = XMLName.equals(localName, "coord")
            if isCoord || XMLName.equals(localName, "when") {
                trackLeaf = (parent, isCoord)
                leafText.removeAll(keepingCapacity: true)
                skipDepth = 1
                return
            }
        }
        let name = XMLName.string(localName)
        guard sawRoot else {
            // The root is `kml`; some writers leave it out and start with a Document (or Folder, Placemark) in
            // KML's namespace.
            let uri = namespaceURI.map { String(cString: $0) } ?? ""
            guard name == "kml" || uri.contains("opengis.net/kml") || uri.contains("earth.google.com/kml") else {
                fail(
                    XMLFormatError.wrongRoot(
                        line: parser.line, column: parser.column, format: "KML", expected: "kml", root: name))
                return
            }
            sawRoot = true
            guard name == "kml" else {
                outerNames.append("kml")
                startElement(localName: localName, namespaceURI: namespaceURI, attributes: attributes)
                return
            }
            outerNames.append(name)
            return
        }
        guard let parent = current else {
            if Self.captured.contains(name) {
                let element = KMLElement(name: name, attributes: attributes.byLocalName(), parent: nil)
                root = element
                current = element
                rootLine = parser.line
                rootColumn = parser.column
                depth = 1
                elementCount = 1
                textBytes = 0
            } else {
                outerNames.append(name)
            }
            return
        }
        if name == "SimpleArrayData", let array = sensorSeries(attributes.byLocalName(), in: parent) {
            sensorArray = array
            skipDepth = 1
            return
        }
        if Self.skipped.contains(name) || depth >= Self.maximumDepth {
            skipDepth = 1
            return
        }
        elementCount += 1
        guard elementCount <= Self.maximumElements else {
            fail(
                XMLFormatError.featureTooLarge(
                    line: parser.line, column: parser.column,
                    what: "a <\(root?.name ?? name)> of more than \(Self.maximumElements) elements"))
            return
        }
        let element = KMLElement(name: name, attributes: attributes.byLocalName(), parent: parent)
        if name == "coordinates" { element.positions = KMLPositions() }
        depth += 1
        parent.content.append(.element(element))
        current = element
    }

    override func endElement() {
        if skipDepth > 0 {
            skipDepth -= 1
            if skipDepth == 1, let array = sensorArray {
                endSensorValue(array)
            } else if skipDepth == 0 {
                sensorArray = nil
                if let leaf = trackLeaf {
                    trackLeaf = nil
                    endTrackLeaf(leaf)
                }
            }
            return
        }
        guard let element = current else {
            outerNames.removeLast()
            return
        }
        depth -= 1
        if element.positions != nil && element.name == "coordinates" {
            do {
                try scanner.finish(into: &element.positions!)
            } catch {
                fail(error)
            }
            let (count, first) = scanner.takeUnreadable()
            if count > 0 {
                let what = count == 1 ? "a tuple that is" : "\(count) tuples that are"
                warn("<coordinates> has \(what) not a position (the first: '\(first)'); left out")
            }
        }
        current = element.parent
        guard current == nil else { return }
        root = nil
        do {
            try finishCaptured(element)
        } catch {
            fail(error)
        }
    }

    override func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        if skipDepth > 0 {
            let inLeaf = skipDepth == 1 ? trackLeaf != nil : skipDepth == 2 && sensorArray != nil
            if inLeaf, leafText.count + bytes.count <= 4096 {
                leafText.append(contentsOf: bytes)
            }
            return
        }
        guard let element = current else { return }
        if element.positions != nil {
            do {
                try scanner.scan(bytes, into: &element.positions!)
            } catch {
                fail(error)
            }
            return
        }
        guard countText(bytes.count) else { return }
        // Taken out of the array before it grows, so that it grows in place.
        if case .text? = element.content.last, case .text(var text) = element.content.removeLast() {
            text.append(contentsOf: bytes)
            element.content.append(.text(text))
        } else {
            element.content.append(.text(Array(bytes)))
        }
    }

    override func cdata(_ bytes: UnsafeBufferPointer<UInt8>) {
        // An empty section (`<![CDATA[]]>`) is no section: the DOM togeojson reads has no node for it.
        guard !bytes.isEmpty else { return }
        guard skipDepth == 0, let element = current, element.positions == nil else {
            characters(bytes)
            return
        }
        // libxml2's push parser hands a long CDATA section over in pieces: they make one section.
        guard countText(bytes.count) else { return }
        if case .cdata? = element.content.last, case .cdata(var text) = element.content.removeLast() {
            text.append(contentsOf: bytes)
            element.content.append(.cdata(text))
        } else {
            element.content.append(.cdata(Array(bytes)))
        }
    }

    /// Counts text kept for the feature being read; false (and the reading stopped) beyond the limit.
    private func countText(_ count: Int) -> Bool {
        textBytes += count
        guard textBytes > Self.maximumTextBytes else { return true }
        fail(
            XMLFormatError.featureTooLarge(
                line: parser.line, column: parser.column,
                what: "a <\(root?.name ?? "Placemark")> of more than \(Self.maximumTextBytes >> 20) MiB of text"))
        return false
    }

    /// A `gx:coord` ("lon lat alt": numbers between any white space or commas, where togeojson splits at each
    /// single space and writes the NaNs that makes) or a `when`. A `gx:coord` that is no position is left out,
    /// and its time and sensor values with it (``KMLPositions/dropped``).
    private func endTrackLeaf(_ leaf: (track: KMLElement, isCoord: Bool)) {
        do {
            guard leaf.isCoord else {
                let times = leaf.track.times ?? JSONSeries()
                leaf.track.times = times
                try leafText.withUnsafeBufferPointer { try times.append(string: $0) }
                return
            }
            var positions = leaf.track.positions ?? KMLPositions()
            leaf.track.positions = nil
            defer { leaf.track.positions = positions }
            let isPosition = leafText.withUnsafeBufferPointer {
                KMLCoordinateScanner.trackCoordinate($0, into: &leafNumbers)
            }
            guard isPosition else {
                positions.dropped.append(positions.count + positions.dropped.count)
                let text = String(decoding: leafText.prefix(40), as: UTF8.self)
                warn("<gx:coord>\(text)</gx:coord> is not a position; left out with its time and sensor values")
                return
            }
            try positions.series.append(position: leafNumbers)
        } catch {
            fail(error)
        }
    }

    /// The series for a `gx:SimpleArrayData` of a sensor kind inside a `gx:Track` (named as Google Earth and
    /// other writers name them: `heartrate`, `cadence`, `power`, …); nil for other arrays.
    private func sensorSeries(_ attributes: [(String, String)], in parent: KMLElement) -> JSONSeries? {
        guard let name = attributes.first(where: { $0.0 == "name" })?.1, let kind = KMLSensorName.kind(name) else {
            return nil
        }
        var element: KMLElement? = parent
        while let e = element, e.name != "Track" { element = e.parent }
        guard let track = element else { return nil }
        // A second array of a kind (`heartrate` and `hr`) is passed over: the first one is the track's.
        guard !track.sensors.contains(where: { $0.kind == kind }) else { return nil }
        let values = JSONSeries()
        track.sensors.append((kind, values))
        return values
    }

    /// A `gx:value` of a sensor array: a number, or null when it is empty or no number.
    private func endSensorValue(_ array: JSONSeries) {
        let value = leafText.withUnsafeBufferPointer { JavaScriptNumber.parseFloat($0) }
        do {
            try array.append(number: value.isNaN ? nil : value)
        } catch {
            fail(error)
        }
    }

    // MARK: Features

    private func finishCaptured(_ element: KMLElement) throws {
        switch element.name {
        case "Style", "StyleMap", "CascadingStyle", "Schema":
            styles.register(element)
            if !waiting.isEmpty { try flushWaiting(all: false) }
        case "Placemark":
            styles.registerInline(element)
            if waiting.isEmpty && styles.canResolve(element) {
                try body(try KMLFeature.placemark(element, styles: styles, forTracks: forTracks), rootLine, rootColumn)
            } else {
                waiting.append((element, rootLine, rootColumn))
                if waiting.count > Self.maximumWaiting { try flushWaiting(all: true) }
            }
        case "GroundOverlay":
            overlays.append((try KMLFeature.groundOverlay(element, styles: styles), rootLine, rootColumn))
        case "NetworkLink":
            links.append((KMLFeature.networkLink(element, styles: styles), rootLine, rootColumn))
        default: break
        }
    }

    /// Writes the waiting Placemarks that can now be written (all of them when `all`), in order.
    private func flushWaiting(all: Bool) throws {
        while let (element, line, column) = waiting.first, all || styles.canResolve(element) {
            waiting.removeFirst()
            try body(try KMLFeature.placemark(element, styles: styles, forTracks: forTracks), line, column)
        }
    }
}

extension XMLAttributes {
    /// Every attribute as (local name, value), whatever its namespace.
    func byLocalName() -> [(String, String)] {
        (0..<count).compactMap { i in
            guard let (local, value) = self[i] else { return nil }
            return (local, value)
        }
    }
}
