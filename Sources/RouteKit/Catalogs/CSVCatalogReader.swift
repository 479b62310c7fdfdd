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
        var bytes = try input.readAll()
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            bytes.removeFirst(3)
        } else if String(validating: bytes, as: UTF8.self) == nil {
            bytes = try Self.windows1250ToUTF8(bytes)
        }
        let rows = try Self.rows(bytes)
        guard let header = rows.first else { throw CatalogError.unknownFormat("the file is empty") }
        let names = header.fields.map { $0.trimmingSpaces() }
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
        for row in rows.dropFirst() where !(row.fields.count == 1 && row.fields[0].trimmingSpaces().isEmpty) {
            var record = CatalogRecord()
            for (i, value) in row.fields.enumerated() where i < keys.count {
                if let key = keys[i] { record[key] = value }
            }
            catalog.add(record, file: input.path, line: row.line)
        }
    }

    /// Rows of fields, with the line each row starts on; the delimiter is the one the header uses most.
    ///
    /// - Throws: ``CatalogError/malformed(line:column:reason:)`` for a quoted field that is never closed (the
    ///   rest of the file would otherwise vanish into it).
    static func rows(_ bytes: [UInt8]) throws -> [(fields: [String], line: Int)] {
        let headerEnd = bytes.firstIndex(of: 0x0A) ?? bytes.count
        let header = bytes[0..<headerEnd]
        let candidates: [UInt8] = [0x3B, 0x2C, 0x09]
        let delimiter =
            candidates.max { a, b in header.filter { $0 == a }.count < header.filter { $0 == b }.count } ?? 0x2C
        var scanner = CSVScanner(bytes: bytes, delimiter: delimiter)
        while scanner.i < bytes.count {
            if scanner.quoted { scanner.quotedByte() } else { scanner.plainByte() }
            scanner.i += 1
        }
        return try scanner.finish()
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

/// The state of splitting CSV text into rows of fields, byte by byte (RFC 4180 quoting; CR, LF or CRLF ends a
/// row), with the line each row starts on.
private struct CSVScanner {
    let bytes: [UInt8]
    let delimiter: UInt8
    var i = 0
    var quoted = false
    private var rows: [(fields: [String], line: Int)] = []
    private var fields: [String] = []
    private var field: [UInt8] = []
    private var line = 1
    private var rowLine = 1
    private var lineStart = 0
    private var quoteOpened = (line: 1, column: 1)

    init(bytes: [UInt8], delimiter: UInt8) {
        self.bytes = bytes
        self.delimiter = delimiter
    }

    private mutating func endField() {
        fields.append(String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: true)
    }

    /// A byte inside quotes: `""` is a quote, `"` ends the quotes, anything else (line breaks too) is text.
    mutating func quotedByte() {
        let c = bytes[i]
        if c == 0x22 {
            if i + 1 < bytes.count && bytes[i + 1] == 0x22 {
                field.append(0x22)
                i += 1
            } else {
                quoted = false
            }
        } else {
            if c == 0x0A {
                line += 1
                lineStart = i + 1
            }
            field.append(c)
        }
    }

    /// A byte outside quotes: a quote opening a field, a delimiter, a line break, or text.
    mutating func plainByte() {
        let c = bytes[i]
        if c == 0x22 && field.isEmpty {
            quoted = true
            quoteOpened = (line, i - lineStart + 1)
        } else if c == delimiter {
            endField()
        } else if c == 0x0A || c == 0x0D {
            if c == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
            endField()
            rows.append((fields, rowLine))
            fields = []
            line += 1
            rowLine = line
            lineStart = i + 1
        } else {
            field.append(c)
        }
    }

    /// The rows, the last one too when the text does not end with a line break.
    ///
    /// - Throws: ``CatalogError/malformed(line:column:reason:)`` when a quoted field is never closed.
    mutating func finish() throws -> [(fields: [String], line: Int)] {
        if quoted {
            throw CatalogError.malformed(
                line: quoteOpened.line, column: quoteOpened.column,
                reason: "the quoted field that starts here is never closed")
        }
        if !field.isEmpty || !fields.isEmpty {
            endField()
            rows.append((fields, rowLine))
        }
        return rows
    }
}
