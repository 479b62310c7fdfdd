import Glibc

/// Reads clubrooms from CSV with a header: commas, semicolons or tabs (whichever the header uses), quoted
/// fields, decimal commas, UTF-8 (with or without a byte-order mark) or Windows-1250 as Czech spreadsheet
/// programs export it (converted with the C library's iconv).
///
/// Latitude and longitude columns are found by their usual names (`lat`, `latitude`, `y`, `Realty_GpsLatitude`,
/// `šířka`…; `lon`, `lng`, `longitude`, `x`, `Realty_GpsLongitude`, `délka`…) or named explicitly. Other
/// columns are matched to the SkautIS fields by the SkautIS names or plain ones (`id`, `name`, `unit`,
/// `registration_number`, `street`, `city`, `postcode`, `weekday`, `time_from`, `time_to`, `age_from`,
/// `age_to`, …).
public struct CSVCatalogReader {
    /// Explicit column names for the coordinates.
    public struct Columns: Sendable {
        /// The column with latitudes, when its name is unusual (nil: found by its usual names).
        public var latitude: String?
        /// The column with longitudes.
        public var longitude: String?
        public init(latitude: String? = nil, longitude: String? = nil) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    var columns: Columns

    init(columns: Columns = Columns()) {
        self.columns = columns
    }

    static let latitudeNames: Set<String> = [
        "lat", "latitude", "y", "realty_gpslatitude", "gps_lat", "gpslatitude", "sirka", "šířka", "zemepisna_sirka",
        "zeměpisná šířka", "zeměpisná_šířka",
    ]
    static let longitudeNames: Set<String> = [
        "lon", "lng", "long", "longitude", "x", "realty_gpslongitude", "gps_lon", "gpslongitude", "delka", "délka",
        "zemepisna_delka", "zeměpisná délka", "zeměpisná_délka",
    ]

    func read(_ input: InputFile, into catalog: inout ClubroomCatalog) throws {
        let bytes = try Self.utf8Text(input)
        try bytes.withUnsafeBufferPointer { text in
            var rows = CSVRows(text: text, delimiter: CSVRows.delimiter(of: text))
            let keys = try header(&rows)
            while try rows.next() {
                if rows.isBlank { continue }
                var record = CatalogRecord()
                Self.record(rows, keys: keys, into: &record)
                catalog.add(record, file: input.path, line: rows.rowLine)
            }
        }
    }

    /// Sets the record's fields from the row's columns that `keys` names (a later column of the same field wins).
    static func record(_ rows: CSVRows, keys: [CatalogRecord.Field?], into record: inout CatalogRecord) {
        for (i, field) in rows.fields.prefix(keys.count).enumerated() {
            if let key = keys[i] { record[key] = rows.string(field) }
        }
    }

    /// The catalog's text as UTF-8: without a byte-order mark; converted when it is not UTF-8 (then it is
    /// Windows-1250).
    static func utf8Text(_ input: InputFile) throws -> [UInt8] {
        var bytes = try input.readAll()
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            bytes.removeFirst(3)
        } else if !isASCII(bytes) && String(validating: bytes, as: UTF8.self) == nil {
            bytes = try windows1250ToUTF8(bytes)
        }
        return bytes
    }

    /// The catalog's text as ``utf8Text(_:)`` gives it, the file mapped into memory when it is UTF-8 (the
    /// check on all cores).
    static func utf8Bytes(_ input: InputFile) throws -> FileBytes {
        let bytes = try input.mapAll()
        let text = bytes.buffer
        if text.count >= 3, text[0] == 0xEF, text[1] == 0xBB, text[2] == 0xBF {
            bytes.skip(3)
            return bytes
        }
        let pieces = max(1, min(processorCount, text.count >> 20))
        let ascii = try parallelMap(pieces) { k -> Bool in
            let piece = UnsafeBufferPointer(rebasing: text[(text.count * k / pieces)..<(text.count * (k + 1) / pieces)])
            return isASCII(UnsafeRawBufferPointer(piece))
        }
        if ascii.allSatisfy({ $0 }) || String(validating: text, as: UTF8.self) != nil { return bytes }
        return FileBytes(try windows1250ToUTF8(Array(text)))
    }

    /// True when every byte is ASCII (then the text is UTF-8 too).
    static func isASCII(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { isASCII($0) }
    }

    /// True when every byte is ASCII, checked eight bytes at a time.
    static func isASCII(_ raw: UnsafeRawBufferPointer) -> Bool {
        let words = raw.count / 8
        var high: UInt64 = 0
        for k in 0..<words { high |= raw.loadUnaligned(fromByteOffset: k * 8, as: UInt64.self) }
        for k in (words * 8)..<raw.count { high |= UInt64(raw[k]) }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// Reads the header row: which record field each column holds (the coordinate columns found by their
    /// usual names, or by the names given).
    ///
    /// - Throws: ``CatalogError/unknownFormat(_:)`` for an empty file, ``CatalogError/missingColumn(_:)`` when
    ///   no column holds latitudes or longitudes.
    func header(_ rows: inout CSVRows) throws -> [CatalogRecord.Field?] {
        guard try rows.next() else { throw CatalogError.unknownFormat("the file is empty") }
        let names = rows.fields.map { rows.string($0).trimmingSpaces() }
        let lowered = names.map { $0.lowercased() }
        func find(_ explicit: String?, _ usual: Set<String>, _ what: String) throws -> Int {
            if let explicit {
                guard let i = names.firstIndex(of: explicit) ?? lowered.firstIndex(of: explicit.lowercased()) else {
                    throw CatalogError.missingColumn("'\(explicit)'")
                }
                return i
            }
            guard let i = lowered.firstIndex(where: { usual.contains($0) }) else {
                throw CatalogError.missingColumn(what)
            }
            return i
        }
        let latColumn = try find(columns.latitude, Self.latitudeNames, "latitude")
        let lonColumn = try find(columns.longitude, Self.longitudeNames, "longitude")
        var keys = names.map { CatalogRecord.Field.named($0) }
        keys[latColumn] = .latitude
        keys[lonColumn] = .longitude
        return keys
    }

    /// Windows-1250 text as UTF-8, through iconv.
    static func windows1250ToUTF8(_ bytes: [UInt8]) throws -> [UInt8] {
        let converter = iconv_open("UTF-8", "WINDOWS-1250")  // (iconv_t)-1 on error
        guard let converter, Int(bitPattern: converter) != -1 else {
            throw CatalogError.unknownFormat("the file is not UTF-8, and Windows-1250 conversion is not available")
        }
        defer { iconv_close(converter) }
        var input = bytes.map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: bytes.count * 3 + 16)
        let produced = input.withUnsafeMutableBufferPointer { inBuffer -> Int in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int in
                var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
                var inLeft = inBuffer.count
                var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress
                var outLeft = outBuffer.count
                // (size_t)-1 on error; Windows-1250 has a character for almost every byte, so an error is rare.
                let result = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                return result == -1 && inLeft > 0 ? -1 : outBuffer.count - outLeft
            }
        }
        guard produced >= 0 else {
            throw CatalogError.unknownFormat("the file is neither UTF-8 nor Windows-1250 text")
        }
        return output[0..<produced].map { UInt8(bitPattern: $0) }
    }
}
