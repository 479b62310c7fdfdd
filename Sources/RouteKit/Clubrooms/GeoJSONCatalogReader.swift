/// Reads clubrooms from GeoJSON Points: the Feature's `id` (or `properties.id`) is the clubroom's id,
/// and the properties are read like CSV columns (SkautIS names or plain ones). `units` and `meetings`
/// arrays, as `routekit near --format geojson` writes them, are read back too.
struct GeoJSONCatalogReader {
    func read(_ input: InputFile, into catalog: inout ClubroomCatalog) throws {
        try GeoJSONFeatureStream.forEachFeature(in: input) { feature, line, _ in
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
            guard feature["geometry"]?["type"]?.string == "Point", case .numbers(let c)? = feature["geometry"]?["coordinates"],
                c.count >= 2
            else {
                catalog.add(fields, file: input.path, line: line)  // recorded as skipped: no coordinates
                return
            }
            fields[.latitude] = DecimalText.string(c[1])
            fields[.longitude] = DecimalText.string(c[0])
            let units = feature["properties"]?["units"]?.elements ?? []
            let meetings = feature["properties"]?["meetings"]?.elements ?? []
            if units.isEmpty && meetings.isEmpty {
                catalog.add(fields, file: input.path, line: line)
                return
            }
            // One record per meeting (or per unit without meetings), as SkautIS lists them.
            for unit in units where !meetings.contains(where: { $0["unit"]?.string == unit["name"]?.string }) {
                var record = fields
                record[.unit] = unit["name"]?.string
                record[.registrationNumber] = unit["registration_number"]?.string
                record[.idUnit] = unit["id"]?.string
                catalog.add(record, file: input.path, line: line)
            }
            for meeting in meetings {
                var record = fields
                let unitName = meeting["unit"]?.string
                let unit = units.first { $0["name"]?.string == unitName }
                record[.unit] = unitName
                record[.registrationNumber] = unit?["registration_number"]?.string
                record[.idUnit] = unit?["id"]?.string
                record[.weekday] = meeting["weekday"]?.string
                record[.timeFrom] = meeting["time_from"]?.string
                record[.timeTo] = meeting["time_to"]?.string
                record[.periodicity] = meeting["periodicity"]?.string
                record[.ageFrom] = meeting["age_from"]?.number.map { DecimalText.string($0) }
                record[.ageTo] = meeting["age_to"]?.number.map { DecimalText.string($0) }
                record[.sex] = meeting["sex"]?.string
                record[.categoryNote] = meeting["note"]?.string
                catalog.add(record, file: input.path, line: line)
            }
        }
    }
}
