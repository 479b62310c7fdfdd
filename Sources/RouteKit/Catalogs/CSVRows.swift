/// One field of a CSV row: where its text is, without quotes.
struct CSVField {
    /// First byte of the text.
    var start: Int
    /// One past the last byte.
    var end: Int
    /// True when the text is in the scanner's ``CSVRows/unquoted`` buffer (a field that opened with a quote,
    /// its doubled quotes made single), false when it is a range of the file's own bytes.
    var isUnquoted: Bool
}

/// CSV text split into rows of fields at byte level (RFC 4180 quoting; CR, LF or CRLF ends a row): each field
/// is a range of bytes, and no `String` is made until a value is kept.
///
/// A field that starts with a quote is quoted: inside it `""` is a quote and a line break is text; text after
/// its closing quote belongs to it too, and a quote anywhere else is an ordinary character.
struct CSVRows {
    let text: UnsafeBufferPointer<UInt8>
    let delimiter: UInt8
    /// The fields of the row read last.
    private(set) var fields: [CSVField] = []
    /// The text of the row's quoted fields, without their quotes.
    private(set) var unquoted: [UInt8] = []
    /// The line the row read last starts on (1-based).
    private(set) var rowLine = 1
    /// Where the row read last starts in `text`.
    private(set) var rowStart = 0
    /// Where the next row starts.
    private(set) var position = 0
    /// The line the next row starts on.
    private(set) var line = 1
    private var lineStart = 0

    /// Rows of `text`, from `start`, the first of them on line `line`.
    init(text: UnsafeBufferPointer<UInt8>, delimiter: UInt8, start: Int = 0, line: Int = 1) {
        self.text = text
        self.delimiter = delimiter
        position = start
        lineStart = start
        self.line = line
    }

    /// Reads on from `start`, the row there on line `line` (keeping the memory of the fields read so far).
    mutating func seek(to start: Int, line: Int) {
        position = start
        lineStart = start
        self.line = line
    }

    /// The delimiter a header line uses most: semicolon, comma or tab (a semicolon when it has none).
    static func delimiter(of text: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var counts = (semicolon: 0, comma: 0, tab: 0)
        for c in text {
            if c == 0x0A { break }
            if c == 0x3B {
                counts.semicolon += 1
            } else if c == 0x2C {
                counts.comma += 1
            } else if c == 0x09 {
                counts.tab += 1
            }
        }
        if counts.comma > counts.semicolon && counts.comma >= counts.tab { return 0x2C }
        if counts.tab > counts.semicolon && counts.tab > counts.comma { return 0x09 }
        return 0x3B
    }

    /// Reads the next row into ``fields``; false at the end of the text.
    ///
    /// - Throws: ``CatalogError/malformed(line:column:reason:)`` for a quoted field that is never closed (the
    ///   rest of the file would otherwise vanish into it), at its opening quote.
    mutating func next() throws -> Bool {
        fields.removeAll(keepingCapacity: true)
        unquoted.removeAll(keepingCapacity: true)
        let n = text.count
        guard position < n else { return false }
        rowLine = line
        rowStart = position
        var i = position
        while true {
            if i < n && text[i] == 0x22 {
                let opened = (line: line, column: i - lineStart + 1)
                let start = unquoted.count
                i = quotedField(from: i + 1)
                if i > n {
                    throw CatalogError.malformed(
                        line: opened.line, column: opened.column,
                        reason: "the quoted field that starts here is never closed")
                }
                fields.append(CSVField(start: start, end: unquoted.count, isUnquoted: true))
                // A file that ends in an empty quoted field alone has no row there.
                if i == n && fields.count == 1 && start == unquoted.count {
                    position = n
                    return false
                }
            } else {
                let start = i
                i = fieldEnd(from: i)
                fields.append(CSVField(start: start, end: i, isUnquoted: false))
            }
            guard i < n else {
                position = n
                return true
            }
            if text[i] == delimiter {
                i += 1
                continue
            }
            if text[i] == 0x0D && i + 1 < n && text[i + 1] == 0x0A { i += 1 }
            i += 1
            line += 1
            lineStart = i
            position = i
            return true
        }
    }

    /// Where an unquoted field that starts at `start` ends: the first delimiter, CR or LF from there, else the
    /// end of the text.
    @inline(__always)
    private func fieldEnd(from start: Int) -> Int {
        ByteSearch.firstIndex(of: delimiter, 0x0A, 0x0D, in: text, from: start)
    }

    /// True when the row read last is all ASCII (then so are its fields, and they are UTF-8).
    var rowIsASCII: Bool { ByteSearch.isASCII(UnsafeBufferPointer(rebasing: text[rowStart..<position])) }

    /// Copies a quoted field's text from just after its opening quote into ``unquoted``; returns where the
    /// field ends (a delimiter, a line break or the end of the text), or `text.count + 1` when the quotes
    /// never close.
    private mutating func quotedField(from start: Int) -> Int {
        let n = text.count
        var i = start
        var quoted = true
        while i < n {
            let c = text[i]
            if quoted {
                if c == 0x22 {
                    if i + 1 < n && text[i + 1] == 0x22 {
                        unquoted.append(0x22)
                        i += 2
                    } else {
                        quoted = false
                        i += 1
                    }
                    continue
                }
                if c == 0x0A {
                    line += 1
                    lineStart = i + 1
                }
            } else if c == delimiter || c == 0x0A || c == 0x0D {
                return i
            }
            unquoted.append(c)
            i += 1
        }
        return quoted ? n + 1 : n
    }

    /// The bytes of `field`, for the time of `body`.
    func withBytes<R>(_ field: CSVField, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if field.isUnquoted {
            return try unquoted.withUnsafeBufferPointer {
                try body(UnsafeBufferPointer(rebasing: $0[field.start..<field.end]))
            }
        }
        return try body(UnsafeBufferPointer(rebasing: text[field.start..<field.end]))
    }

    /// Calls `body` with a function that gives the bytes of a field of the row read last (none for nil), valid
    /// until `body` returns.
    func withFieldBytes<R>(_ body: ((CSVField?) -> UnsafeBufferPointer<UInt8>) -> R) -> R {
        unquoted.withUnsafeBufferPointer { unquoted in
            body { field in
                guard let field else { return UnsafeBufferPointer(start: nil, count: 0) }
                return UnsafeBufferPointer(rebasing: (field.isUnquoted ? unquoted : text)[field.start..<field.end])
            }
        }
    }

    /// The text of `field` as a string.
    func string(_ field: CSVField) -> String {
        withBytes(field) { String(decoding: $0, as: UTF8.self) }
    }

    /// The field of the last of `columns` (last first) that the row has, without white space at either end;
    /// nil when the row has none of them or the field is blank.
    func trimmedField(_ columns: [Int]) -> CSVField? {
        guard let column = columns.first(where: { $0 < fields.count }) else { return nil }
        var field = fields[column]
        withBytes(field) { bytes in
            var start = 0
            var end = bytes.count
            while start < end, Self.isSpace(bytes[start]) { start += 1 }
            while end > start, Self.isSpace(bytes[end - 1]) { end -= 1 }
            field.end = field.start + end
            field.start += start
        }
        return field.start < field.end ? field : nil
    }

    /// The number in `field` (see ``ClubroomCatalog/number(_:)``).
    func number(_ field: CSVField) -> Double? {
        withBytes(field) { ClubroomCatalog.number($0) }
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    /// True when the row is blank: one field of nothing but white space.
    var isBlank: Bool {
        fields.count == 1 && withBytes(fields[0]) { $0.allSatisfy(Self.isSpace) }
    }
}
