/// Reads GPX 1.0 and 1.1 files in one streaming pass, in constant memory, and hands their content to a
/// ``GPXHandler``.
///
/// Reads waypoints, routes and tracks with their segments; per point the elevation, time (fraction and
/// offset kept), name, comment, description, source, links, symbol and type; sensor values from extensions,
/// matched by namespace URI rather than prefix (Garmin TrackPointExtension v1 and v2: `hr`, `cad`,
/// `atemp`, `wtemp`, `depth`, `speed`, `course`; Garmin PowerExtension `PowerInWatts`; and the un-prefixed
/// `power`, `hr`, `cad` that some apps write). Byte-order marks, UTF-16, CDATA and comments are handled by
/// libxml2.
///
/// Bad values do not stop the reading: a point whose `lat` or `lon` is missing, not a number or out of
/// range is left out; an `ele`, `time` or sensor value that cannot be read is left out of its point. Each
/// is reported once to `onWarning` with its line, and counted in the result. With ``strict`` the first such
/// problem is an error instead. A file that is not well-formed XML, or whose root is not `gpx`, is an error.
public struct GPXReader {
    /// When true, a bad value is an error (``GPXError/invalidValue(line:column:reason:)``) instead of a
    /// warning.
    public var strict: Bool
    /// Called for each problem the reader got past.
    public var onWarning: (ReadWarning) -> Void

    /// The longest text value kept (a name, a description, a number): 1 MiB. A longer one is left out with a
    /// warning, so that a hostile file cannot make the reader hold gigabytes of one value.
    public static let maximumTextLength = XMLStreamParser.maximumTextLength

    /// A reader; `onWarning` receives each value or point left out.
    public init(strict: Bool = false, onWarning: @escaping (ReadWarning) -> Void = { _ in }) {
        self.strict = strict
        self.onWarning = onWarning
    }

    /// What a read found besides the content.
    public struct Summary: Hashable, Sendable {
        /// Points left out because their position was unusable.
        public var skippedPoints = 0
        /// Warnings reported (points and values left out).
        public var warnings = 0
    }

    /// Reads `input` to its end, handing its content to `handler`.
    ///
    /// - Throws: ``GPXError`` for a file that is not GPX (or, with ``strict``, has a bad value),
    ///   ``IOError`` when reading fails, and whatever `handler` throws.
    @discardableResult
    public func read(_ input: InputFile, handler: GPXHandler) throws -> Summary {
        let machine = GPXStateMachine(handler: handler, reader: self)
        let parser = XMLStreamParser(handler: machine, name: input.path)
        machine.parser = parser
        guard try parser.feed(input) else { throw GPXError.malformed(line: 1, column: 1, reason: "the file is empty") }
        return try withExtendedLifetime(parser) { try machine.finish() }
    }

    /// Reads GPX from bytes in memory.
    @discardableResult
    public func read(bytes: [UInt8], name: String = "-", handler: GPXHandler) throws -> Summary {
        let machine = GPXStateMachine(handler: handler, reader: self)
        let parser = XMLStreamParser(handler: machine, name: name)
        machine.parser = parser
        guard !bytes.isEmpty else { throw GPXError.malformed(line: 1, column: 1, reason: "the file is empty") }
        bytes.withUnsafeBytes { parser.parse($0, isLast: false) }
        parser.parse(UnsafeRawBufferPointer(start: nil, count: 0), isLast: true)
        return try withExtendedLifetime(parser) { try machine.finish() }
    }

    /// Reads a whole file into a ``GPXDocument``.
    public func document(at path: String) throws -> GPXDocument {
        let builder = GPXDocumentBuilder()
        try read(InputFile(path: path), handler: builder)
        return builder.document
    }

    /// Reads GPX bytes into a ``GPXDocument``; `name` is the file's name in messages.
    public func document(bytes: [UInt8], name: String = "-") throws -> GPXDocument {
        let builder = GPXDocumentBuilder()
        try read(bytes: bytes, name: name, handler: builder)
        return builder.document
    }
}

/// Namespace URIs of the extensions the reader understands.
enum GPXNamespace {
    static let trackPointExtensionV1: StaticString = "http://www.garmin.com/xmlschemas/TrackPointExtension/v1"
    static let trackPointExtensionV2: StaticString = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
    static let powerExtension: StaticString = "http://www.garmin.com/xmlschemas/PowerExtension/v1"
}

/// The element-by-element logic of ``GPXReader``: a stack of what is open, the point and item being
/// read, and the text of the leaf element being read.
final class GPXStateMachine: XMLStreamHandler {
    private enum Node: UInt8 {
        case gpx, waypoint, route, routePoint, track, segment, trackPoint, link, pointExtensions, extensionGroup
        case ignored, leaf
    }

    private enum Leaf {
        case elevation, time, name, comment, description, source, symbol, type, number, url, urlName
        case linkText, linkType
        case sensor(SensorReadings.Kind)
        /// An element of one of the names togeojson looks for anywhere inside an item.
        case inherited(InheritedField)
    }

    private enum InheritedField { case name, comment, description, type, time }

    private let handler: GPXHandler
    private let reader: GPXReader
    unowned(unsafe) var parser: XMLStreamParser! = nil

    private var stack: [Node] = []
    private var leaf: Leaf = .name
    private var leafOwner: Node = .gpx
    private var text: [UInt8] = []
    /// The leaf's text went over ``GPXReader/maximumTextLength`` and is being skipped.
    private var textTooLong = false
    private var sawRoot = false
    private var failure: Error?
    private var summary = GPXReader.Summary()

    // The point being read.
    private var coordinate = Coordinate(latitude: 0, longitude: 0)
    private var pointIsValid = false
    private var elevation: Double?
    private var time: Timestamp?
    private var sensors = SensorReadings()
    private var pointDetails = Details()
    // The route or track being read.
    private var itemDetails = Details()
    // The first texts of some names inside the current waypoint, route or track.
    private var inherited = InheritedText()
    // The link being read, and GPX 1.0's url/urlname pair.
    private var link = Link(href: "")
    private var url: String?
    private var urlName: String?

    init(handler: GPXHandler, reader: GPXReader) {
        self.handler = handler
        self.reader = reader
        super.init()
        stack.reserveCapacity(32)
        text.reserveCapacity(256)
    }

    func finish() throws -> GPXReader.Summary {
        if let failure { throw failure }
        if let failure = parser.failure(openElement: stack.last.map(Self.elementName), root: "gpx") {
            switch failure.kind {
            case .truncated, .malformed:
                throw GPXError.malformed(line: failure.line, column: failure.column, reason: failure.reason)
            case .tooLarge: throw GPXError.tooLarge(line: failure.line, column: failure.column, reason: failure.reason)
            }
        }
        if !sawRoot { throw GPXError.malformed(line: parser.line, column: parser.column, reason: "no root element") }
        return summary
    }

    private static func elementName(_ node: Node) -> String {
        switch node {
        case .gpx: "gpx"
        case .waypoint: "wpt"
        case .route: "rte"
        case .routePoint: "rtept"
        case .track: "trk"
        case .segment: "trkseg"
        case .trackPoint: "trkpt"
        case .link: "link"
        case .pointExtensions, .extensionGroup: "extensions"
        case .ignored, .leaf: "an element"
        }
    }

    // MARK: Events

    override func startElement(
        localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?, attributes: XMLAttributes
    ) {
        guard let parent = stack.last else {
            guard XMLName.equals(localName, "gpx") else {
                fail(GPXError.notGPX(line: parser.line, column: parser.column, root: XMLName.string(localName)))
                return
            }
            sawRoot = true
            stack.append(.gpx)
            return
        }
        switch parent {
        case .gpx: startInGPX(localName, attributes)
        case .track:
            if XMLName.equals(localName, "trkseg") {
                stack.append(.segment)
                call { try $0.beginSegment() }
            } else {
                startDetail(localName, attributes, owner: .track)
            }
        case .route:
            if XMLName.equals(localName, "rtept") {
                startPoint(.routePoint, attributes)
            } else {
                startDetail(localName, attributes, owner: .route)
            }
        case .segment:
            if XMLName.equals(localName, "trkpt") {
                startPoint(.trackPoint, attributes)
            } else {
                stack.append(.ignored)
            }
        case .waypoint, .routePoint, .trackPoint: startInPoint(parent, localName, attributes)
        case .link:
            if XMLName.equals(localName, "text") {
                startLeaf(.linkText, owner: .link)
            } else if XMLName.equals(localName, "type") {
                startLeaf(.linkType, owner: .link)
            } else {
                stack.append(.ignored)
            }
        case .pointExtensions, .extensionGroup, .ignored: startInExtension(parent, localName, namespaceURI)
        case .leaf:
            stack.append(.ignored)
        }
    }

    /// A child of `<gpx>`: a track, a route, a waypoint, or something passed over.
    @inline(__always) private func startInGPX(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        if XMLName.equals(localName, "trk") {
            startItem(.track)
            call { try $0.beginTrack() }
        } else if XMLName.equals(localName, "rte") {
            startItem(.route)
            call { try $0.beginRoute() }
        } else if XMLName.equals(localName, "wpt") {
            startPoint(.waypoint, attributes)
        } else {
            stack.append(.ignored)
        }
    }

    /// A child of a point: elevation, time, extensions, GPX 1.0's speed and course, or a detail.
    @inline(__always) private func startInPoint(
        _ parent: Node, _ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes
    ) {
        if XMLName.equals(localName, "ele") {
            startLeaf(.elevation, owner: parent)
        } else if XMLName.equals(localName, "time") {
            startLeaf(.time, owner: parent)
        } else if XMLName.equals(localName, "extensions") {
            stack.append(.pointExtensions)
        } else if XMLName.equals(localName, "speed") {
            startLeaf(.sensor(.speed), owner: parent)  // GPX 1.0
        } else if XMLName.equals(localName, "course") {
            startLeaf(.sensor(.course), owner: parent)  // GPX 1.0
        } else {
            startDetail(localName, attributes, owner: parent)
        }
    }

    /// Inside extensions (sensor values matched by namespace) or an element passed over (where a name or
    /// description other programs nest may still be found).
    @inline(__always) private func startInExtension(
        _ parent: Node, _ localName: UnsafePointer<UInt8>, _ namespaceURI: UnsafePointer<UInt8>?
    ) {
        if parent == .ignored {
            if stack.count > 2, let field = inheritedField(localName) {
                startLeaf(.inherited(field), owner: .ignored)
            } else {
                stack.append(.ignored)
            }
        } else if let kind = sensorKind(localName, namespaceURI) {
            startLeaf(.sensor(kind), owner: .trackPoint)
        } else if let field = inheritedField(localName) {
            startLeaf(.inherited(field), owner: .extensionGroup)
        } else {
            stack.append(.extensionGroup)
        }
    }

    override func endElement() {
        guard let node = stack.popLast() else { return }
        switch node {
        case .leaf: endLeaf()
        case .waypoint, .routePoint, .trackPoint: endPoint(node)
        case .segment: call { try $0.endSegment() }
        case .track:
            let details = finishDetails(itemDetails)
            call { try $0.endTrack(details) }
        case .route:
            let details = finishDetails(itemDetails)
            call { try $0.endRoute(details) }
        case .link:
            let link = self.link
            if stack.last == .route || stack.last == .track {
                itemDetails.links.append(link)
            } else {
                pointDetails.links.append(link)
            }
        case .gpx, .pointExtensions, .extensionGroup, .ignored: break
        }
    }

    override func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard stack.last == .leaf else { return }
        if textTooLong || text.count + bytes.count > GPXReader.maximumTextLength {
            textTooLong = true
            return
        }
        text.append(contentsOf: bytes)
    }

    /// Which inherited text an element of this name would give, if that text is still missing.
    private func inheritedField(_ localName: UnsafePointer<UInt8>) -> InheritedField? {
        if XMLName.equals(localName, "name") { return inherited.name == nil ? .name : nil }
        if XMLName.equals(localName, "cmt") { return inherited.comment == nil ? .comment : nil }
        if XMLName.equals(localName, "desc") { return inherited.description == nil ? .description : nil }
        if XMLName.equals(localName, "type") { return inherited.type == nil ? .type : nil }
        if XMLName.equals(localName, "time") { return inherited.time == nil ? .time : nil }
        return nil
    }

    private func inherit(_ field: InheritedField, _ value: @autoclosure () -> String?) {
        // Nothing is taken from a point that was left out.
        if !pointIsValid && (leafOwner == .trackPoint || leafOwner == .routePoint || leafOwner == .waypoint) { return }
        switch field {
        case .name: if inherited.name == nil { inherited.name = value() ?? "" }
        case .comment: if inherited.comment == nil { inherited.comment = value() ?? "" }
        case .description: if inherited.description == nil { inherited.description = value() ?? "" }
        case .type: if inherited.type == nil { inherited.type = value() ?? "" }
        case .time: if inherited.time == nil { inherited.time = value() ?? "" }
        }
    }

    // MARK: Points and items

    private func startItem(_ node: Node) {
        stack.append(node)
        itemDetails = Details()
        inherited = InheritedText()
        url = nil
        urlName = nil
    }

    private func startPoint(_ node: Node, _ attributes: XMLAttributes) {
        stack.append(node)
        elevation = nil
        time = nil
        sensors = SensorReadings()
        if node == .waypoint { inherited = InheritedText() }
        if node != .trackPoint {
            pointDetails = Details()
            url = nil
            urlName = nil
        }
        pointIsValid = false
        guard let latitude = coordinateValue(attributes, "lat", "latitude", limit: 90),
            let longitude = coordinateValue(attributes, "lon", "longitude", limit: 180)
        else {
            summary.skippedPoints += 1
            return
        }
        coordinate = Coordinate(latitude: latitude, longitude: longitude)
        pointIsValid = true
    }

    private func coordinateValue(
        _ attributes: XMLAttributes, _ attribute: StaticString, _ what: String, limit: Double
    ) -> Double? {
        guard let raw = attributes.value(attribute) else {
            warn("the point has no \(attribute) attribute; point skipped")
            return nil
        }
        guard let value = DecimalText.parse(raw) else {
            warn("\(what) '\(shown(raw))' is not a number; point skipped")
            return nil
        }
        guard abs(value) <= limit else {
            warn("\(what) \(shown(raw)) is outside −\(Int(limit))…\(Int(limit)); point skipped")
            return nil
        }
        return value
    }

    private func endPoint(_ node: Node) {
        guard pointIsValid else { return }
        switch node {
        case .trackPoint:
            let point = TrackPoint(coordinate: coordinate, elevation: elevation, time: time, sensors: sensors)
            guard failure == nil else { return }
            do { try handler.trackPoint(point) } catch { fail(error) }
        case .routePoint, .waypoint:
            let point = Waypoint(
                coordinate: coordinate, elevation: elevation, time: time, details: finishDetails(pointDetails),
                sensors: sensors)
            if node == .waypoint {
                call { try $0.waypoint(point) }
            } else {
                call { try $0.routePoint(point) }
            }
        default: break
        }
    }

    private func finishDetails(_ details: Details) -> Details {
        var details = details
        if stack.last == .gpx { details.inherited = inherited }
        guard let url else { return details }
        details.links.append(Link(href: url, text: urlName))
        self.url = nil
        self.urlName = nil
        return details
    }

    // MARK: Leaves

    private func startDetail(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes, owner: Node) {
        let leaf: Leaf
        if XMLName.equals(localName, "name") {
            leaf = .name
        } else if XMLName.equals(localName, "desc") {
            leaf = .description
        } else if XMLName.equals(localName, "cmt") {
            leaf = .comment
        } else if XMLName.equals(localName, "src") {
            leaf = .source
        } else if XMLName.equals(localName, "sym") {
            leaf = .symbol
        } else if XMLName.equals(localName, "type") {
            leaf = .type
        } else if XMLName.equals(localName, "number") {
            leaf = .number
        } else if XMLName.equals(localName, "url") {
            leaf = .url
        } else if XMLName.equals(localName, "urlname") {
            leaf = .urlName
        } else if XMLName.equals(localName, "link") {
            let href = attributes.value("href").map { String(decoding: $0, as: UTF8.self) } ?? ""
            link = Link(href: href)
            stack.append(.link)
            return
        } else {
            stack.append(.ignored)
            return
        }
        startLeaf(leaf, owner: owner)
    }

    private func startLeaf(_ leaf: Leaf, owner: Node) {
        stack.append(.leaf)
        self.leaf = leaf
        leafOwner = owner
        text.removeAll(keepingCapacity: true)
        textTooLong = false
    }

    private func endLeaf() {
        if textTooLong {
            // No device writes such a value: memory stays bounded, and the value is left out like any bad one.
            text.removeAll()
            warn("a value longer than \(GPXReader.maximumTextLength / (1 << 20)) MiB; left out")
            return
        }
        switch leaf {
        case .elevation:
            elevation = number(named: "elevation")
            if let value = elevation, !TrackPoint.elevationRange.contains(value) {
                warn("elevation \(shown()) m is beyond ±100 km; left out")
                elevation = nil
            }
        case .inherited(let field):
            inherit(field, string())
        case .time:
            inherit(.time, string())
            guard !isBlank() else { return }
            time = text.withUnsafeBufferPointer { Timestamp.parse($0) }
            if time == nil { warn("time '\(shown())' is not an ISO 8601 date and time; time left out") }
        case .sensor(let kind):
            sensors[kind] = number(named: Self.sensorName(kind))
        case .linkText: link.text = string()
        case .linkType:
            link.type = string()
            inherit(.type, link.type)
        case .url: url = string()
        case .urlName: urlName = string()
        case .number: endNumber()
        case .name, .comment, .description, .source, .symbol, .type: endDetailText()
        }
    }

    /// `<number>`: a whole number, else left out with a warning.
    private func endNumber() {
        guard !isBlank() else { return }
        let value = text.withUnsafeBufferPointer { DecimalText.parse($0) }
        if let value, value == value.rounded(), abs(value) < 1e15 {
            setDetail { $0.number = Int(value) }
        } else {
            warn("number '\(shown())' is not a whole number; left out")
        }
    }

    /// A text detail (name, comment, description, source, symbol, type) of the item or point that owns it, and
    /// of the points inside that inherit it.
    private func endDetailText() {
        let value = string()
        switch leaf {
        case .name:
            inherit(.name, value)
            setDetail { $0.name = value }
        case .comment:
            inherit(.comment, value)
            setDetail { $0.comment = value }
        case .description:
            inherit(.description, value)
            setDetail { $0.description = value }
        case .source: setDetail { $0.source = value }
        case .symbol: setDetail { $0.symbol = value }
        case .type:
            inherit(.type, value)
            setDetail { $0.type = value }
        default: break
        }
    }

    private func setDetail(_ body: (inout Details) -> Void) {
        switch leafOwner {
        case .route, .track: body(&itemDetails)
        case .waypoint, .routePoint: body(&pointDetails)
        default: break  // names and comments of track points are not kept
        }
    }

    private func number(named what: String) -> Double? {
        guard !isBlank() else { return nil }
        if let value = text.withUnsafeBufferPointer({ DecimalText.parse($0) }) { return value }
        warn("\(what) '\(shown())' is not a number; left out")
        return nil
    }

    private func isBlank() -> Bool {
        text.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// The leaf's text with white space trimmed at both ends; nil when empty.
    private func string() -> String? {
        var start = 0
        var end = text.count
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        while start < end, isSpace(text[start]) { start += 1 }
        while end > start, isSpace(text[end - 1]) { end -= 1 }
        return start < end ? String(decoding: text[start..<end], as: UTF8.self) : nil
    }

    private func shown(_ raw: UnsafeBufferPointer<UInt8>? = nil) -> String {
        let s = raw.map { String(decoding: $0, as: UTF8.self) } ?? String(decoding: text, as: UTF8.self)
        let trimmed = s.trimmingSpaces()
        return trimmed.count > 40 ? String(trimmed.prefix(40)) + "…" : trimmed
    }

    private func sensorKind(_ localName: UnsafePointer<UInt8>, _ uri: UnsafePointer<UInt8>?) -> SensorReadings.Kind? {
        if let uri,
            XMLName.equals(uri, GPXNamespace.trackPointExtensionV1)
                || XMLName.equals(uri, GPXNamespace.trackPointExtensionV2)
        {
            if XMLName.equals(localName, "hr") { return .heartRate }
            if XMLName.equals(localName, "cad") { return .cadence }
            if XMLName.equals(localName, "atemp") { return .airTemperature }
            if XMLName.equals(localName, "wtemp") { return .waterTemperature }
            if XMLName.equals(localName, "depth") { return .depth }
            if XMLName.equals(localName, "speed") { return .speed }
            if XMLName.equals(localName, "course") { return .course }
            return nil
        }
        if let uri, XMLName.equals(uri, GPXNamespace.powerExtension) {
            return XMLName.equals(localName, "PowerInWatts") ? .power : nil
        }
        // Elements some apps write without a namespace of their own (in the GPX namespace or none).
        if XMLName.equals(localName, "power") { return .power }
        if XMLName.equals(localName, "hr") || XMLName.equals(localName, "heartrate") { return .heartRate }
        if XMLName.equals(localName, "cad") || XMLName.equals(localName, "cadence") { return .cadence }
        return nil
    }

    static func sensorName(_ kind: SensorReadings.Kind) -> String {
        switch kind {
        case .heartRate: "heart rate"
        case .cadence: "cadence"
        case .airTemperature: "air temperature"
        case .waterTemperature: "water temperature"
        case .depth: "depth"
        case .speed: "speed"
        case .course: "course"
        case .power: "power"
        }
    }

    // MARK: Problems

    private func warn(_ message: String) {
        let line = parser.line
        let column = parser.column
        if reader.strict {
            fail(GPXError.invalidValue(line: line, column: column, reason: message))
            return
        }
        summary.warnings += 1
        reader.onWarning(ReadWarning(line: line, column: column, message: message))
    }

    private func call(_ body: (GPXHandler) throws -> Void) {
        guard failure == nil else { return }
        do { try body(handler) } catch { fail(error) }
    }

    private func fail(_ error: Error) {
        if failure == nil { failure = error }
        parser.stop()
    }
}
