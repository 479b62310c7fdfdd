/// Reads clubrooms from GeoJSON Points: the Feature's `id` (or `properties.id`) is the clubroom's id,
/// and the properties are read like CSV columns (SkautIS names or plain ones). `units` and `meetings` arrays
/// (each meeting with its `categories`), as `routekit near --format geojson` writes them, are read back too.
struct GeoJSONCatalogReader {
    func read(_ input: InputFile, into catalog: inout ClubroomCatalog) throws {
        try GeoJSONFeatureStream.forEachFeature(in: input) { feature, line, _ in
            for record in Self.records(of: feature) { catalog.add(record, file: input.path, line: line) }
        }
    }

    /// The catalog records of one Feature: one per meeting and category (or per unit without meetings), as
    /// SkautIS lists them; one without coordinates when the Feature is no Point (the catalog counts it as
    /// left out).
    static func records(of feature: JSONValue) -> [CatalogRecord] {
        var fields = properties(of: feature)
        guard feature["geometry"]?["type"]?.string == "Point",
            case .numbers(let c)? = feature["geometry"]?["coordinates"],
            c.count >= 2
        else { return [fields] }
        fields[.latitude] = DecimalText.string(c[1])
        fields[.longitude] = DecimalText.string(c[0])
        let units = feature["properties"]?["units"]?.elements ?? []
        let meetings = feature["properties"]?["meetings"]?.elements ?? []
        if units.isEmpty && meetings.isEmpty { return [fields] }
        var records: [CatalogRecord] = []
        for unit in units where !meetings.contains(where: { $0["unit"]?.string == unit["name"]?.string }) {
            var record = fields
            record[.unit] = unit["name"]?.string
            unitFields(&record, unit)
            records.append(record)
        }
        for meeting in meetings {
            var record = fields
            let unitName = meeting["unit"]?.string
            record[.unit] = unitName
            unitFields(&record, units.first { $0["name"]?.string == unitName })
            records += categoryRecords(meetingRecord(record, meeting), meeting)
        }
        return records
    }

    /// The Feature's plain properties (strings, numbers, booleans) in their fields, and its id.
    private static func properties(of feature: JSONValue) -> CatalogRecord {
        var fields = CatalogRecord()
        if case .object(let members)? = feature["properties"] {
            for (key, value) in members {
                guard let field = CatalogRecord.Field.named(key) else { continue }
                switch value {
                case .string(let s): fields[field] = s
                case .number(let n): fields[field] = DecimalText.string(n)
                case .bool(let b): fields[field] = b ? "true" : "false"
                default: break
                }
            }
        }
        if let id = feature["id"] {
            fields[.realtyID] = id.string ?? id.number.map { DecimalText.string($0) }
        }
        return fields
    }

    private static func unitFields(_ record: inout CatalogRecord, _ unit: JSONValue?) {
        record[.registrationNumber] = unit?["registration_number"]?.string
        record[.idUnit] = unit?["id"]?.string
        if case .bool(let water)? = unit?["water_scouts"] { record[.isWater] = water ? "true" : "false" }
        record[.advertisingNote] = unit?["note"]?.string
    }

    private static func meetingRecord(_ fields: CatalogRecord, _ meeting: JSONValue) -> CatalogRecord {
        var record = fields
        record[.meetingID] = meeting["id"]?.string
        record[.weekday] = meeting["weekday"]?.string
        record[.weekdayCode] = meeting["weekday_iso"]?.number.map { DecimalText.string($0) }
        record[.timeFrom] = meeting["time_from"]?.string
        record[.timeTo] = meeting["time_to"]?.string
        record[.periodicity] = meeting["periodicity"]?.string
        return record
    }

    /// One record per category of the meeting; a meeting without `categories` (as older versions wrote it)
    /// carries its own ages and sex.
    private static func categoryRecords(_ record: CatalogRecord, _ meeting: JSONValue) -> [CatalogRecord] {
        let listed = meeting["categories"]?.elements
        let categories = listed ?? [meeting]
        if categories.isEmpty { return [record] }
        return categories.map { category in
            var one = record
            if listed != nil { one[.categoryID] = category["id"]?.string }
            one[.ageFrom] = category["age_from"]?.number.map { DecimalText.string($0) }
            one[.ageTo] = category["age_to"]?.number.map { DecimalText.string($0) }
            one[.sex] = category["sex"]?.string
            one[.sexName] = category["sex_name"]?.string
            one[.categoryNote] = category["note"]?.string
            return one
        }
    }
}
