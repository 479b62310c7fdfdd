import Glibc

/// A long JSON array built one element at a time — positions, numbers, strings or nulls — held as compact
/// records in a ``Spool``: in memory up to a limit, beyond it in an anonymous temporary file.
///
/// The KML and TCX readers keep a track's per-point arrays (its positions, times and sensor values) in
/// series, so that one feature of millions of points costs a few megabytes rather than hundreds; writers
/// stream a series out (``JSONValue/append(to:precision:flush:)``) and readers walk it with a ``Cursor``.
/// A series is filled by one reader and then only read, which is what makes it safe to send.
package final class JSONSeries: @unchecked Sendable {
    /// One element as a cursor reads it; the pointers are into the cursor's block, valid while the cursor lives
    /// and until it moves on.
    package enum Element {
        case null
        case number(Double)
        /// The string's UTF-8 bytes.
        case string(UnsafeRawBufferPointer)
        /// The position's numbers, `count` doubles stored unaligned from `start`.
        case position(start: UnsafeRawPointer, count: Int)

        /// The element as a JSON value (strings and positions copied out).
        package var value: JSONValue {
            switch self {
            case .null: .null
            case .number(let n): .number(n)
            case .string(let bytes): .string(String(decoding: bytes, as: UTF8.self))
            case .position(let start, let count):
                .numbers((0..<count).map { start.loadUnaligned(fromByteOffset: $0 * 8, as: Double.self) })
            }
        }
    }

    private enum Tag: UInt8 {
        case null, number, string, position
    }

    /// The number of elements.
    package private(set) var count = 0
    private let spool: Spool
    private var record = ByteBuffer(capacity: 64)

    /// An empty series that keeps up to `memoryLimit` bytes of records in memory.
    package init(memoryLimit: Int = 1 << 20) {
        spool = Spool(memoryLimit: memoryLimit)
    }

    /// Appends a position of up to 255 numbers (the rest are not kept).
    package func append(position numbers: some Collection<Double>) throws {
        let kept = numbers.prefix(255)
        record.append(Tag.position.rawValue)
        record.append(UInt8(kept.count))
        for n in kept { withUnsafeBytes(of: n.bitPattern.littleEndian) { record.append($0) } }
        try commit()
    }

    /// Appends a number, or null for nil.
    package func append(number: Double?) throws {
        if let number {
            record.append(Tag.number.rawValue)
            withUnsafeBytes(of: number.bitPattern.littleEndian) { record.append($0) }
        } else {
            record.append(Tag.null.rawValue)
        }
        try commit()
    }

    /// Appends a string given as UTF-8 bytes, or null for nil.
    package func append(string bytes: UnsafeBufferPointer<UInt8>?) throws {
        if let bytes {
            record.append(Tag.string.rawValue)
            withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { record.append($0) }
            record.append(contentsOf: bytes)
        } else {
            record.append(Tag.null.rawValue)
        }
        try commit()
    }

    /// Appends a string, or null for nil.
    package func append(string: String?) throws {
        guard var text = string else { return try append(string: nil as UnsafeBufferPointer<UInt8>?) }
        try text.withUTF8 { try append(string: $0) }
    }

    /// Appends an element as a cursor read it (from this series or another).
    package func append(_ element: Element) throws {
        switch element {
        case .null: try append(number: nil)
        case .number(let n): try append(number: n)
        case .string(let bytes): try append(string: bytes.assumingMemoryBound(to: UInt8.self))
        case .position(let start, let count):
            try append(position: (0..<count).lazy.map { start.loadUnaligned(fromByteOffset: $0 * 8, as: Double.self) })
        }
    }

    /// A copy without the elements at `indices`.
    package func removing(_ indices: Set<Int>) throws -> JSONSeries {
        let kept = JSONSeries()
        let cursor = cursor()
        var index = 0
        while let element = try cursor.next() {
            if !indices.contains(index) { try kept.append(element) }
            index += 1
        }
        return kept
    }

    private func commit() throws {
        count += 1
        try spool.append(&record)
    }

    /// A cursor at the first element.
    package func cursor() -> Cursor { Cursor(series: self) }

    /// The first element as a JSON value; nil when the series is empty.
    package func first() throws -> JSONValue? {
        let cursor = cursor()
        // The element's bytes are the cursor's: it must live until they are copied out.
        return try withExtendedLifetime(cursor) { try cursor.next()?.value }
    }

    /// Every element as a JSON value, in memory (for small series and tests).
    package func values() throws -> [JSONValue] {
        var result: [JSONValue] = []
        result.reserveCapacity(count)
        let cursor = cursor()
        while let element = try cursor.next() { result.append(element.value) }
        return result
    }

    /// Reads a series' records in order, a block of them at a time; several cursors may read one series. A
    /// class, so that a copy of a reference is the same reading and never a second one sharing its block.
    package final class Cursor {
        private let series: JSONSeries
        /// Where the next block starts in the series' records.
        private var offset = 0
        private let block = Block()
        /// Where the next record starts in the block.
        private var start = 0

        init(series: JSONSeries) {
            self.series = series
        }

        /// The next element; nil after the last.
        ///
        /// - Throws: ``IOError`` when the temporary file cannot be read.
        package func next() throws -> Element? {
            guard try fill(1), let tag = Tag(rawValue: block.bytes[start]) else { return nil }
            switch tag {
            case .null:
                start += 1
                return .null
            case .number:
                guard try fill(9) else { return nil }
                start += 9
                let bits = UInt64(littleEndian: block.load(at: start - 8, as: UInt64.self))
                return .number(Double(bitPattern: bits))
            case .string:
                guard try fill(5) else { return nil }
                let length = Int(UInt32(littleEndian: block.load(at: start + 1, as: UInt32.self)))
                guard try fill(5 + length) else { return nil }
                start += 5 + length
                return .string(UnsafeRawBufferPointer(start: block.bytes + start - length, count: length))
            case .position:
                guard try fill(2) else { return nil }
                let n = Int(block.bytes[start + 1])
                guard try fill(2 + 8 * n) else { return nil }
                start += 2 + 8 * n
                return .position(start: UnsafeRawPointer(block.bytes + start - 8 * n), count: n)
            }
        }

        /// Makes sure `needed` bytes are in the block from `start` on; false when the series ends first.
        private func fill(_ needed: Int) throws -> Bool {
            let held = block.count - start
            guard held < needed else { return true }
            block.keep(from: start, room: max(needed, 64 << 10))
            start = 0
            let copied = try series.spool.copyBytes(
                from: offset, count: block.capacity - held, to: block.bytes + held)
            block.count = held + copied
            offset += copied
            return block.count >= needed
        }
    }

    /// A cursor's block of records: plain memory, so that an element's bytes can be handed out in place.
    private final class Block {
        var bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
        var capacity = 0
        var count = 0

        deinit {
            bytes.deallocate()
        }

        func load<T: FixedWidthInteger>(at index: Int, as type: T.Type) -> T {
            UnsafeRawPointer(bytes).loadUnaligned(fromByteOffset: index, as: T.self)
        }

        /// Moves the bytes from `start` on to the front, with room for at least `room` bytes in all.
        func keep(from start: Int, room: Int) {
            let held = count - start
            if room > capacity {
                let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: room)
                larger.update(from: bytes + start, count: held)
                bytes.deallocate()
                bytes = larger
                capacity = room
            } else {
                memmove(bytes, bytes + start, held)
            }
            count = held
        }
    }
}
