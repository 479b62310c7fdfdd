/// A JSON value as the GeoJSON reader holds one feature of it in memory.
package enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    /// An array whose elements are all numbers, held compactly (coordinates, sensor series).
    case numbers([Double])
    case array([JSONValue])
    /// A long array held as a ``JSONSeries`` (compact, and beyond a limit in a temporary file): the
    /// per-point arrays of KML and TCX tracks.
    case series(JSONSeries)
    /// An object; members keep their order, and a later duplicate key wins on lookup.
    case object([(String, JSONValue)])

    package static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.numbers(x), .numbers(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.numbers(x), .array(y)), let (.array(y), .numbers(x)): return x.map(JSONValue.number) == y
        case (.series, _), (_, .series): return a.elements == b.elements && a.elements != nil
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(n)
        case .string(let s): hasher.combine(s)
        case .numbers(let n): hasher.combine(n)
        case .series: hasher.combine(elements ?? [])
        case .array(let a): hasher.combine(a)
        case .object(let o):
            for (k, v) in o {
                hasher.combine(k)
                hasher.combine(v)
            }
        }
    }

    /// The member named `key` of an object; nil for anything else or when absent.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.0 == key })?.1
    }

    /// The string, if this is one.
    package var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number, if this is one.
    package var number: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The elements, if this is an array (compact or not); nil too for a series that cannot be read back.
    package var elements: [JSONValue]? {
        switch self {
        case .array(let a): return a
        case .numbers(let n): return n.map(JSONValue.number)
        case .series(let series): return try? series.values()
        default: return nil
        }
    }

    /// A cursor over the elements, if this is an array (compact or not): a series is read a block at a time.
    package var elementCursor: ElementCursor? {
        switch self {
        case .array(let a): ElementCursor(source: .values(a))
        case .numbers(let n): ElementCursor(source: .numbers(n))
        case .series(let series): ElementCursor(source: .series(series.cursor()))
        default: nil
        }
    }

    /// Reads an array's elements one by one.
    package struct ElementCursor {
        fileprivate enum Source {
            case values([JSONValue])
            case numbers([Double])
            case series(JSONSeries.Cursor)
        }
        fileprivate var source: Source
        private var index = 0

        fileprivate init(source: Source) {
            self.source = source
        }

        /// The next element; nil after the last.
        ///
        /// - Throws: ``IOError`` when a series' temporary file cannot be read.
        package mutating func next() throws -> JSONValue? {
            switch source {
            case .values(let values):
                guard index < values.count else { return nil }
                index += 1
                return values[index - 1]
            case .numbers(let numbers):
                guard index < numbers.count else { return nil }
                index += 1
                return .number(numbers[index - 1])
            case .series(let cursor):
                return try cursor.next()?.value
            }
        }
    }

    /// True for `null`.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension JSONValue {
    /// Reads a whole (small) JSON file: side files such as a stage bundle's `Etape.json`.
    ///
    /// - Throws: ``IOError`` when the file cannot be read, ``GeoJSONError/malformed(line:column:reason:)`` when
    ///   it is not JSON.
    package static func read(path: String) throws -> JSONValue {
        try read(try InputFile(path: path))
    }

    /// Reads a whole (small) JSON input, from a file or from memory.
    package static func read(_ input: InputFile) throws -> JSONValue {
        let parser = JSONStreamParser(input: input)
        try parser.skipByteOrderMark()
        let value = try parser.value()
        try parser.skipSpace()
        if try parser.peek() != nil { throw parser.error("unexpected text after the JSON value") }
        return value
    }
}

extension JSONValue {
    /// Appends the value as JSON text: numbers in their shortest form (rounded to `precision` decimals when
    /// given), NaN and infinities as `null` (as JavaScript's `JSON.stringify` writes them), members in order.
    /// Inside long arrays `flush` is handed the buffer whenever it holds 64 KiB, so that a series is written
    /// out as it is read back rather than held as text.
    ///
    /// - Throws: what `flush` throws, and ``IOError`` when a series' temporary file cannot be read.
    package func append(
        to buffer: inout ByteBuffer, precision: Int? = nil, flush: (inout ByteBuffer) throws -> Void = { _ in }
    ) throws {
        func number(_ n: Double) {
            if n.isFinite { DecimalText.append(n, precision: precision, to: &buffer) } else { buffer.append("null") }
        }
        switch self {
        case .null: buffer.append("null")
        case .bool(let b): buffer.append(b ? "true" : "false")
        case .number(let n): number(n)
        case .string(let s): JSONText.appendString(s, to: &buffer)
        case .numbers(let values):
            buffer.append(0x5B)
            for (i, n) in values.enumerated() {
                if i > 0 { buffer.append(0x2C) }
                number(n)
            }
            buffer.append(0x5D)
        case .array(let values):
            buffer.append(0x5B)
            for (i, v) in values.enumerated() {
                if i > 0 { buffer.append(0x2C) }
                try v.append(to: &buffer, precision: precision, flush: flush)
                if buffer.count >= 1 << 16 { try flush(&buffer) }
            }
            buffer.append(0x5D)
        case .series(let series):
            buffer.append(0x5B)
            let cursor = series.cursor()
            var first = true
            while let element = try cursor.next() {
                if !first { buffer.append(0x2C) }
                first = false
                switch element {
                case .null: buffer.append("null")
                case .number(let n): number(n)
                case .string(let bytes):
                    JSONText.appendString(utf8: bytes.assumingMemoryBound(to: UInt8.self), to: &buffer)
                case .position(let start, let count):
                    buffer.append(0x5B)
                    for j in 0..<count {
                        if j > 0 { buffer.append(0x2C) }
                        number(start.loadUnaligned(fromByteOffset: j * 8, as: Double.self))
                    }
                    buffer.append(0x5D)
                }
                if buffer.count >= 1 << 16 { try flush(&buffer) }
            }
            buffer.append(0x5D)
        case .object(let members):
            buffer.append(0x7B)
            for (i, (key, v)) in members.enumerated() {
                if i > 0 { buffer.append(0x2C) }
                JSONText.appendString(key, to: &buffer)
                buffer.append(0x3A)
                try v.append(to: &buffer, precision: precision, flush: flush)
            }
            buffer.append(0x7D)
        }
    }
}
