/// Clubrooms read from one or more catalog files, merged by id, with what was left out.
public struct ClubroomCatalog: Sendable {
    /// The clubrooms, in the order they first appear.
    public private(set) var clubrooms: [Clubroom] = []
    /// Records left out, with their file, line and reason.
    public private(set) var skipped: [SkippedRecord] = []
    /// How many records were read (a record is one recruitment: unit × meeting at a place).
    public private(set) var recordCount = 0
    /// Records whose latitude was beyond ±90 while the longitude was within it: swapped columns.
    public private(set) var swappedLooking = 0
    private var index: [String: Int] = [:]

    /// A record left out of the catalog.
    public struct SkippedRecord: Hashable, Sendable {
        public var file: String
        public var line: Int
        public var reason: String
    }

    public init() {}

    /// Adds a record: merged into the clubroom of the same id, or a new clubroom.
    mutating func add(_ record: CatalogRecord, file: String, line: Int) {
        recordCount += 1
        let value = record.value
        guard let latText = value(.latitude), let lonText = value(.longitude) else {
            skipped.append(SkippedRecord(file: file, line: line, reason: "no coordinates"))
            return
        }
        guard let lat = Self.number(latText), let lon = Self.number(lonText) else {
            skipped.append(SkippedRecord(file: file, line: line, reason: "coordinates '\(latText), \(lonText)' are not numbers"))
            return
        }
        let coordinate = Coordinate(latitude: lat, longitude: lon)
        guard coordinate.isValid else {
            if abs(lat) > 90 && abs(lon) <= 90 { swappedLooking += 1 }
            skipped.append(SkippedRecord(file: file, line: line, reason: "coordinates \(latText), \(lonText) are out of range"))
            return
        }
        let unitName = value(.unit)
        let unit = unitName.map { ScoutUnit(id: value(.idUnit), name: $0, registrationNumber: value(.registrationNumber)) }
        let id = value(.realtyID) ?? "\(file):\(line)"
        let position: Int
        if let existing = index[id] {
            position = existing
        } else {
            var room = Clubroom(id: id, name: value(.name) ?? unitName ?? id, coordinate: coordinate)
            room.type = value(.realtyType)
            room.street = value(.street)
            room.city = value(.city)
            room.postcode = value(.postcode)
            room.description = value(.description)
            room.note = value(.realtyNote) ?? value(.occupationNote)
            position = clubrooms.count
            clubrooms.append(room)
            index[id] = position
        }
        if let unit, !clubrooms[position].units.contains(where: { $0.name == unit.name && $0.registrationNumber == unit.registrationNumber }) {
            clubrooms[position].units.append(unit)
        }
        let meeting = Meeting(
            unit: unit, weekday: value(.weekday), timeFrom: value(.timeFrom),
            timeTo: value(.timeTo), periodicity: value(.periodicity),
            ageFrom: Self.age(value(.ageFrom)), ageTo: Self.age(value(.ageTo)),
            sex: value(.sex), note: value(.categoryNote))
        if meeting.weekday != nil || meeting.timeFrom != nil || meeting.ageFrom != nil || meeting.note != nil {
            clubrooms[position].meetings.append(meeting)
        }
    }

    /// An age in whole years, 0 to 150; anything else (1e300 turned up in fuzzing) is no age.
    static func age(_ text: String?) -> Int? {
        guard let text, let years = number(text), (0...150).contains(years) else { return nil }
        return Int(years.rounded())
    }

    /// A number written with a decimal point or, as Czech spreadsheets do, a decimal comma.
    static func number(_ text: String) -> Double? {
        if let v = DecimalText.parse(text) { return v }
        if text.contains(","), !text.contains(".") {
            return DecimalText.parse(text.split(separator: ",", omittingEmptySubsequences: false).joined(separator: "."))
        }
        return nil
    }

    /// Reads catalog files (SkautIS XML, CSV or GeoJSON, told apart by their content) into one catalog.
    ///
    /// - Throws: ``CatalogError/inFile(path:_:)`` naming the file with the problem, ``IOError`` when a file
    ///   cannot be opened or read.
    public static func read(paths: [String], columns: CSVCatalogReader.Columns = .init()) throws -> ClubroomCatalog {
        var catalog = ClubroomCatalog()
        for path in paths {
            let input = try InputFile(path: path)
            let head = try input.peek(2048)
            do {
                switch CatalogFormat.detect(head) {
                case .skautIS: try SkautISCatalogReader().read(input, into: &catalog)
                case .csv: try CSVCatalogReader(columns: columns).read(input, into: &catalog)
                case .geojson: try GeoJSONCatalogReader().read(input, into: &catalog)
                case nil: throw CatalogError.unknownFormat("the file is empty or neither SkautIS XML, CSV nor GeoJSON")
                }
            } catch let error as CatalogError {
                throw CatalogError.inFile(path: path, error)
            } catch let error as GeoJSONError {
                throw CatalogError.inFile(path: path, .geojson(error))
            }
        }
        return catalog
    }
}

/// The catalog formats, recognised from the first bytes.
enum CatalogFormat {
    case skautIS, csv, geojson

    static func detect(_ head: [UInt8]) -> CatalogFormat? {
        var i = 0
        if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { i = 3 }
        if head.count >= 2, (head[0] == 0xFF && head[1] == 0xFE) || (head[0] == 0xFE && head[1] == 0xFF) { return .skautIS }
        while i < head.count, head[i] == 0x20 || head[i] == 0x09 || head[i] == 0x0A || head[i] == 0x0D { i += 1 }
        guard i < head.count else { return nil }
        switch head[i] {
        case 0x3C: return .skautIS
        case 0x7B, 0x5B, 0x1E: return .geojson
        default:
            // Text has no NUL bytes: binary data (or /dev/zero, which would never end) is no CSV.
            return head.contains(0) ? nil : .csv
        }
    }
}
