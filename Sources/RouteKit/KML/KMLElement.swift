/// One element of a KML feature (a Placemark, a ground overlay, a style) held in memory while it is
/// turned into GeoJSON: the reader streams the file and keeps one such small tree at a time.
///
/// Names are local names (a `gx:` prefix or `kml:` namespace does not matter). Coordinates are not kept as
/// text: `coordinates` elements and `gx:Track`s hold their positions already read (``positions``).
final class KMLElement {
    /// One piece of an element's content, in document order.
    enum Piece {
        case element(KMLElement)
        case text([UInt8])
        case cdata([UInt8])
    }

    let name: String
    /// Attributes by local name, whatever their namespace (`id`, `kml:id`, `name`, `x`, …).
    let attributes: [(String, String)]
    weak var parent: KMLElement?
    var content: [Piece] = []
    /// The positions of a `coordinates` element, or of the `gx:coord`s of a `gx:Track`.
    var positions: KMLPositions?
    /// The `when` texts of a `gx:Track`, as strings of a series.
    var times: JSONSeries?
    /// The sensor values of a `gx:Track` (its `gx:SimpleArrayData` of known kinds), in the order found.
    var sensors: [(kind: SensorReadings.Kind, values: JSONSeries)] = []

    init(name: String, attributes: [(String, String)], parent: KMLElement?) {
        self.name = name
        self.attributes = attributes
        self.parent = parent
    }

    /// The value of the attribute with this local name; nil when absent.
    func attribute(_ name: String) -> String? {
        attributes.first { $0.0 == name }?.1
    }

    /// The child elements, in order.
    var elements: [KMLElement] {
        content.compactMap {
            if case .element(let e) = $0 { return e }
            return nil
        }
    }

    /// The first element of this name inside this one, at any depth, in document order (the DOM's
    /// `getElementsByTagName(name)[0]`).
    func first(_ name: String) -> KMLElement? {
        for case .element(let child) in content {
            if child.name == name { return child }
            if let found = child.first(name) { return found }
        }
        return nil
    }

    /// Every element of this name inside this one, at any depth, in document order.
    func descendants(_ name: String) -> [KMLElement] {
        var found: [KMLElement] = []
        func walk(_ element: KMLElement) {
            for case .element(let child) in element.content {
                if child.name == name { found.append(child) }
                walk(child)
            }
        }
        walk(self)
        return found
    }

    /// All the text inside, CDATA included, as written (the DOM's `textContent`).
    var text: String {
        var bytes: [UInt8] = []
        func walk(_ element: KMLElement) {
            for piece in element.content {
                switch piece {
                case .element(let child): walk(child)
                case .text(let t), .cdata(let t): bytes.append(contentsOf: t)
                }
            }
        }
        walk(self)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text of the first element of this name inside, "" when there is none (togeojson's `nodeVal(get1())`).
    func text(of name: String) -> String { first(name)?.text ?? "" }

    /// The text of the first element of this name inside as JavaScript's `parseFloat` reads it; nil when
    /// there is no such element or it holds no number.
    func number(of name: String) -> Double? {
        guard let element = first(name) else { return nil }
        let value = JavaScriptNumber.parseFloat(Array(element.text.utf8))
        return value.isNaN ? nil : value
    }
}

/// Positions read from KML text, kept in a ``JSONSeries`` (compact, and in a temporary file when long): up to
/// three numbers each for `coordinates`, as many as written for `gx:coord`.
struct KMLPositions {
    let series = JSONSeries()
    /// For a `gx:Track`: the indices of the `gx:coord`s that were no position, whose `when`s and sensor values
    /// are left out with them.
    var dropped: [Int] = []

    var count: Int { series.count }

    /// The positions as one JSON array.
    var array: JSONValue { .series(series) }

    /// The first position as a JSON array of numbers.
    func first() throws -> JSONValue? { try series.first() }

    /// Each position as a JSON array of numbers, in memory.
    func json() throws -> [JSONValue] { try series.values() }

    /// `values` (a track's times or sensor values, one per `gx:coord`) without those of the dropped coords.
    func aligned(_ values: JSONSeries) throws -> JSONSeries {
        guard !dropped.isEmpty else { return values }
        return try values.removing(Set(dropped))
    }
}

/// Reads the text of a `coordinates` element as it streams by: tuples separated by white space, numbers in a
/// tuple by commas (white space beside a comma does not end a tuple: `1.5, 2.5, 10` is one); each number as
/// `parseFloat` reads it, those that are not finite numbers dropped, the first three kept, and a tuple kept
/// when two remain (togeojson's rules, without its NaN and infinite values, which GeoJSON cannot hold).
struct KMLCoordinateScanner {
    private var token: [UInt8] = []
    private var tokenTooLong = false
    /// White space came after the token: it ends the tuple unless a comma follows.
    private var spaceAfter = false
    /// Tuples left out since ``takeUnreadable()``, and the first of them as written.
    private var unreadable = 0
    private var firstUnreadable = ""

    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, into positions: inout KMLPositions) throws {
        for c in bytes {
            if JavaScriptNumber.isSpace(c) {
                if !token.isEmpty && token.last != 0x2C { spaceAfter = true }
                continue
            }
            if spaceAfter && c != 0x2C { try finish(into: &positions) }
            spaceAfter = false
            if token.count < 1024 { token.append(c) } else { tokenTooLong = true }
        }
    }

    /// Ends the tuple being read (at white space, and at the end of the element).
    mutating func finish(into positions: inout KMLPositions) throws {
        defer {
            token.removeAll(keepingCapacity: true)
            tokenTooLong = false
            spaceAfter = false
        }
        guard !token.isEmpty else { return }
        let numbers = tokenTooLong ? [] : Self.tuple(token)
        guard numbers.count >= 2 else {
            if unreadable == 0 { firstUnreadable = String(decoding: token.prefix(40), as: UTF8.self) }
            unreadable += 1
            return
        }
        try positions.series.append(position: numbers)
    }

    /// How many tuples were left out since the last call, and the first of them; (0, "") when none.
    mutating func takeUnreadable() -> (count: Int, first: String) {
        defer { unreadable = 0 }
        return (unreadable, firstUnreadable)
    }

    /// The numbers of one tuple: up to three of those that read as finite numbers.
    static func tuple(_ token: some Collection<UInt8>) -> [Double] {
        var numbers: [Double] = []
        for part in token.split(separator: 0x2C, omittingEmptySubsequences: false) {
            // The fast path first: almost every number in a KML file is a plain decimal.
            let fast = part.withContiguousStorageIfAvailable { DecimalText.parse($0) } ?? nil
            let value = fast ?? JavaScriptNumber.parseFloat(part)
            if value.isFinite { numbers.append(value) }
            if numbers.count == 3 { break }
        }
        return numbers
    }

    /// The numbers of a `gx:coord` ("lon lat alt"; white space of any kind or commas between them), those
    /// that are not finite numbers left out: a position when two or more remain, else nil.
    static func trackCoordinate(_ text: UnsafeBufferPointer<UInt8>, into numbers: inout [Double]) -> Bool {
        numbers.removeAll(keepingCapacity: true)
        var start = 0
        while start < text.count && numbers.count < 255 {
            while start < text.count && (JavaScriptNumber.isSpace(text[start]) || text[start] == 0x2C) { start += 1 }
            var end = start
            while end < text.count && !JavaScriptNumber.isSpace(text[end]) && text[end] != 0x2C { end += 1 }
            guard end > start else { break }
            let part = UnsafeBufferPointer(rebasing: text[start..<end])
            // The fast path first: almost every number in a KML file is a plain decimal.
            let value = DecimalText.parse(part) ?? JavaScriptNumber.parseFloat(part)
            if value.isFinite { numbers.append(value) }
            start = end
        }
        return numbers.count >= 2
    }
}

/// The names KML writers give the per-point sensor arrays of a `gx:Track` (`gx:SimpleArrayData`): Google
/// Earth's `heartrate`, `cadence` and `power`, and the other spellings in use.
enum KMLSensorName {
    /// The name RouteKit writes for each kind.
    static func name(_ kind: SensorReadings.Kind) -> String {
        switch kind {
        case .heartRate: "heartrate"
        case .cadence: "cadence"
        case .airTemperature: "temperature"
        case .waterTemperature: "watertemperature"
        case .depth: "depth"
        case .speed: "speed"
        case .course: "course"
        case .power: "power"
        }
    }

    /// The kind an array's name stands for (case, spaces, `_` and `-` aside); nil for other names.
    static func kind(_ name: String) -> SensorReadings.Kind? {
        let key = String(name.lowercased().unicodeScalars.filter { !" _-".unicodeScalars.contains($0) })
        switch key {
        case "heartrate", "heart", "hr", "heartratebpm", "bpm", "pulse": return .heartRate
        case "cadence", "cad", "rpm": return .cadence
        case "power", "watts", "pwr": return .power
        case "speed": return .speed
        case "temperature", "temp", "atemp", "airtemperature": return .airTemperature
        case "watertemperature", "wtemp": return .waterTemperature
        case "depth": return .depth
        case "course", "heading", "bearing": return .course
        default: return nil
        }
    }
}
