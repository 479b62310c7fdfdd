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
    private var meetingIndex: [MeetingKey: Int] = [:]

    /// A record left out of the catalog.
    public struct SkippedRecord: Hashable, Sendable {
        /// The catalog file.
        public var file: String
        /// The line the record starts on (1-based).
        public var line: Int
        /// Why it was left out (`no coordinates`).
        public var reason: String
    }

    /// An empty catalog.
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
            skipped.append(
                SkippedRecord(file: file, line: line, reason: "coordinates '\(latText), \(lonText)' are not numbers"))
            return
        }
        let coordinate = Coordinate(latitude: lat, longitude: lon)
        guard coordinate.isValid else {
            if abs(lat) > 90 && abs(lon) <= 90 { swappedLooking += 1 }
            skipped.append(
                SkippedRecord(file: file, line: line, reason: "coordinates \(latText), \(lonText) are out of range"))
            return
        }
        let unit = Self.unit(of: record)
        let id = value(.realtyID) ?? "\(file):\(line)"
        guard let position = index[id] else {
            let room = Self.clubroom(startedBy: record, id: id, coordinate: coordinate, unit: unit)
            if var first = room.meetings.first {
                first.categories = []  // a meeting is recognised by what it is without its categories
                meetingIndex[Self.key(first, room: clubrooms.count)] = 0
            }
            index[id] = clubrooms.count
            clubrooms.append(room)
            return
        }
        if let unit,
            !clubrooms[position].units.contains(where: {
                $0.name == unit.name && $0.registrationNumber == unit.registrationNumber
            })
        {
            clubrooms[position].units.append(unit)
        }
        addMeeting(of: record, unit: unit, toClubroomAt: position)
    }

    /// The unit a record names, if any.
    static func unit(of record: CatalogRecord) -> ScoutUnit? {
        let value = record.value
        return value(.unit).map {
            ScoutUnit(
                id: value(.idUnit), name: $0, registrationNumber: value(.registrationNumber),
                isWater: Self.flag(value(.isWater)), advertisingNote: value(.advertisingNote))
        }
    }

    /// The clubroom that `record`, its first (with usable coordinates), starts: the place, the record's unit
    /// and its meeting. Records that follow are merged into it by ``add(_:file:line:)``.
    static func clubroom(
        startedBy record: CatalogRecord, id: String, coordinate: Coordinate, unit: ScoutUnit?
    ) -> Clubroom {
        let value = record.value
        var room = Clubroom(id: id, name: value(.name) ?? unit?.name ?? id, coordinate: coordinate)
        room.type = value(.realtyType)
        room.street = value(.street)
        room.city = value(.city)
        room.postcode = value(.postcode)
        room.description = value(.description)
        room.note = value(.realtyNote)
        room.occupationNote = value(.occupationNote)
        if let unit { room.units = [unit] }
        if let (meeting, category) = meeting(of: record, unit: unit) {
            var first = meeting
            if !category.isEmpty { first.categories = [category] }
            room.meetings = [first]
        }
        return room
    }

    /// The record's meeting (without categories) and its category; nil when the record names no meeting.
    private static func meeting(
        of record: CatalogRecord, unit: ScoutUnit?
    ) -> (meeting: Meeting, category: AdvertisingCategory)? {
        let value = record.value
        let category = AdvertisingCategory(
            id: value(.categoryID), ageFrom: Self.age(value(.ageFrom)), ageTo: Self.age(value(.ageTo)),
            sex: (value(.sex) ?? value(.sexName)).map(Sex.init(code:)), sexName: value(.sexName),
            note: value(.categoryNote))
        let dayName = value(.weekday)
        let meeting = Meeting(
            id: value(.meetingID), unit: unit,
            weekday: value(.weekdayCode).flatMap(Weekday.init(parsing:)) ?? dayName.flatMap(Weekday.init(parsing:)),
            weekdayName: dayName, timeFrom: value(.timeFrom).map(MeetingTime.init),
            timeTo: value(.timeTo).map(MeetingTime.init),
            periodicity: value(.periodicity))
        guard
            meeting.id != nil || meeting.weekday != nil || dayName != nil || meeting.timeFrom != nil
                || !category.isEmpty
        else {
            return nil
        }
        return (meeting, category)
    }

    /// How records of one meeting find it: by its id, or by its content (without categories).
    private static func key(_ meeting: Meeting, room position: Int) -> MeetingKey {
        meeting.id.map { MeetingKey.id(room: position, $0) } ?? .content(room: position, meeting)
    }

    /// Adds the record's meeting and category to the clubroom: records of one meeting (the same
    /// `MeetingDate_ID`, or without one the same unit, day, times and periodicity) make one meeting, and
    /// its categories are listed once each (by `ID_AdvertisingCategory`, or by their content).
    private mutating func addMeeting(of record: CatalogRecord, unit: ScoutUnit?, toClubroomAt position: Int) {
        guard let (first, category) = Self.meeting(of: record, unit: unit) else { return }
        let key = Self.key(first, room: position)
        guard let m = meetingIndex[key] else {
            var meeting = first
            if !category.isEmpty { meeting.categories = [category] }
            meetingIndex[key] = clubrooms[position].meetings.count
            clubrooms[position].meetings.append(meeting)
            return
        }
        guard !category.isEmpty else { return }
        let known = clubrooms[position].meetings[m].categories.contains {
            category.id != nil ? $0.id == category.id : $0 == category
        }
        if !known { clubrooms[position].meetings[m].categories.append(category) }
    }

    /// How a meeting is recognised when more of its records come: by its id, or by its content.
    private enum MeetingKey: Hashable {
        case id(room: Int, String)
        case content(room: Int, Meeting)
    }

    /// `true`/`false` as SkautIS writes booleans (also `1`/`0`, `yes`/`no`, `ano`/`ne`); nil for anything else.
    static func flag(_ text: String?) -> Bool? {
        switch text?.lowercased() {
        case "true", "1", "yes", "ano": true
        case "false", "0", "no", "ne": false
        default: nil
        }
    }

    /// The catalog with only the clubrooms that pass `filter`, each with only what passes
    /// (see ``ClubroomFilter``); the counts of records read and left out stay as read.
    public func filtered(by filter: ClubroomFilter) -> ClubroomCatalog {
        guard !filter.isEmpty else { return self }
        var kept = self
        kept.clubrooms = filter.apply(to: clubrooms)
        kept.index = Dictionary(kept.clubrooms.enumerated().map { ($1.id, $0) }) { first, _ in first }
        kept.meetingIndex = [:]
        return kept
    }

    /// An age in whole years, 0 to 150; anything else (1e300 turned up in fuzzing) is no age.
    static func age(_ text: String?) -> Int? {
        guard let text, let years = number(text), (0...150).contains(years) else { return nil }
        return Int(years.rounded())
    }

    /// A number written with a decimal point or, as Czech spreadsheets do, a decimal comma.
    static func number(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { number($0) }
    }

    /// A number written with a decimal point or a decimal comma, from its UTF-8 bytes.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        if let v = DecimalText.parse(bytes) { return v }
        guard bytes.contains(0x2C), !bytes.contains(0x2E) else { return nil }
        let pointed = bytes.map { $0 == 0x2C ? 0x2E : $0 }
        return pointed.withUnsafeBufferPointer { DecimalText.parse($0) }
    }

    /// Counts a record left out by a reader that builds its clubrooms later (``CSVCatalogTable``), with its
    /// reason (`swapped`: its latitude is beyond ±90 while its longitude is not).
    mutating func count(skipping: SkippedRecord, swapped: Bool = false) {
        recordCount += 1
        skipped.append(skipping)
        if swapped { swappedLooking += 1 }
    }

    /// Counts records kept by a reader that builds their clubrooms later.
    mutating func count(kept: Int) {
        recordCount += kept
    }

    /// Reads catalog files (SkautIS XML, CSV or GeoJSON, told apart by their content) into one catalog.
    ///
    /// - Throws: ``CatalogError/inFile(path:_:)`` naming the file with the problem, ``IOError`` when a file
    ///   cannot be opened or read.
    public static func read(paths: [String], columns: CSVCatalogReader.Columns = .init()) throws -> ClubroomCatalog {
        try read(paths: paths, columns: columns, progress: nil)
    }

    /// Reads catalog files as ``read(paths:columns:)`` does, counting the bytes read (of the files' sizes)
    /// into `progress`.
    package static func read(
        paths: [String], columns: CSVCatalogReader.Columns, progress: ProgressCounter?
    ) throws
        -> ClubroomCatalog
    {
        var catalog = ClubroomCatalog()
        for path in paths {
            let input = try InputFile(path: path)
            input.progress = progress
            progress?.expect(input.byteCount ?? 0)
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
        if head.count >= 2, (head[0] == 0xFF && head[1] == 0xFE) || (head[0] == 0xFE && head[1] == 0xFF) {
            return .skautIS
        }
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
