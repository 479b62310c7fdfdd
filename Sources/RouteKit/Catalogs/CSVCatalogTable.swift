import Glibc

/// A CSV catalog read for searching: the position of every clubroom, each clubroom built from its rows only
/// when it is asked for.
///
/// Reading keeps the file's bytes (mapped into memory) and, per row, where it starts; it parses only the
/// coordinates (with ``DecimalText``) and the id (`Realty_ID`), at byte level, making no `String`. Rows of one
/// id are one clubroom, as ``ClubroomCatalog`` merges them, and ``clubroom(at:)`` builds it through the same
/// code, so a clubroom is the same as from ``ClubroomCatalog/read(paths:columns:)``. A million rows take a
/// fraction of the time and memory of building every clubroom.
///
/// For a search of positions known before reading (a ``GeodesicIndex/Reach``), the table keeps only
/// the clubrooms that are candidates of it: the rows are read on all cores as for the whole table, but a
/// row outside the reach keeps no coordinate, and only the ids of the candidates are looked for in the
/// other rows (to find each one's first row and the rows merged into it).
package final class CSVCatalogTable: @unchecked Sendable {
    /// The catalog file, as named in messages and in the ids of clubrooms without one.
    package let path: String
    /// The records read and left out (no clubrooms: see ``clubroom(at:)``).
    package private(set) var summary = ClubroomCatalog()
    /// Each clubroom's position, in the order the clubrooms first appear (of a table taken from a
    /// ``CatalogTableCache``, made on asking).
    package var coordinates: [Coordinate] { kept.map { k in (0..<k.count).map(k.coordinate) } ?? positions }
    /// The positions read (none when the table is a kept one).
    private var positions: [Coordinate] = []
    /// The table kept for the catalog, when it is taken as it is (mapped; checked whole first).
    private var kept: CatalogTableCache.Kept?
    private var bytes: FileBytes
    private var delimiter: UInt8
    private var keys: [CatalogRecord.Field?]
    /// Per clubroom: its first row (in one place, so that building a clubroom found by a search costs
    /// one memory access before its text).
    private var firstRows: [Row] = []
    /// The clubrooms' other rows, each chained from the one before.
    private var laterRows: [Row] = []
    /// Per clubroom while reading: its last row so far in `laterRows` (-1: its first row).
    private var lastRow: [Int32] = []

    /// A row kept: where it starts in `text`, its line, and the next row of its clubroom in `laterRows`
    /// (-1: none).
    struct Row {
        var start: Int
        var line: Int32
        var next: Int32
    }

    /// Reads the CSV catalog at `path`; nil when it is not CSV (or is standard input), or when the rows' ids
    /// could clash with the ids RouteKit gives clubrooms without one (`FILE:LINE`): then only
    /// ``ClubroomCatalog`` reads it exactly.
    ///
    /// With `reach`, only the clubrooms whose position is a candidate of it are kept, in catalog order: a
    /// search within the reach over this table finds what it finds over the whole catalog, in the same order.
    ///
    /// With `cache`, a table kept there for the catalog as it is now is used instead of reading the rows (of
    /// a catalog of at least ``CatalogTableCache/minimumBytes``). With `keepsTable` too, a catalog without
    /// one is read whole and its table kept for the next search.
    ///
    /// - Throws: what ``ClubroomCatalog/read(paths:columns:)`` throws for the file.
    package init?(
        path: String, columns: CSVCatalogReader.Columns, progress: ProgressCounter?, reach: GeodesicIndex.Reach? = nil,
        cache: CatalogTableCache? = nil, keepsTable: Bool = false
    ) throws {
        self.path = path
        guard path != "-" else { return nil }
        let input = try InputFile(path: path)
        guard CatalogFormat.detect(try input.peek(2048)) == .csv else { return nil }
        input.progress = progress
        progress?.expect(input.byteCount ?? 0)
        let identity = (input.byteCount ?? 0) >= CatalogTableCache.minimumBytes ? input.identity : nil
        let kept = identity.flatMap { cache?.table(for: $0) }
        do {
            bytes = try Self.text(of: input, kept: kept)
            var rows: CSVRows
            (delimiter, keys, rows) = try Self.header(of: bytes, columns: columns)
            if let kept, kept.keysHash == CatalogTableCache.keysHash(delimiter: delimiter, keys: keys),
                take(kept, reach: reach)
            {
                // Only the rows of the clubrooms found are read now.
                bytes.expectRandomReads()
                cache?.markUsed(kept)
                return
            }
            if kept != nil {
                // The text was taken as the table said it lies in the file, unchecked: read it as any catalog's.
                bytes = try CSVCatalogReader.utf8Bytes(input)
                (delimiter, keys, rows) = try Self.header(of: bytes, columns: columns)
            }
            let keysHash = CatalogTableCache.keysHash(delimiter: delimiter, keys: keys)
            let text = bytes.buffer
            // A table is kept only of text read as it is in the file (not converted from Windows-1250).
            let textOffset = Int(input.byteCount ?? 0) - text.count
            if keepsTable, let cache, let identity, textOffset == 0 || textOffset == 3 {
                guard try readRows(after: rows) else { return nil }
                // Kept only when the file did not change while it was read, nor just before (a change within
                // the times' resolution would leave them as they were).
                if !idsHaveColons, input.identityNow() == identity, identity.isSettled {
                    cache.keep(
                        CatalogTableCache.Contents(
                            identity: identity, keysHash: keysHash, textOffset: textOffset, coordinates: positions,
                            firstRows: firstRows, laterRows: laterRows, recordCount: summary.recordCount,
                            skipped: zip(summary.skipped, skippedSwapped).map { ($0.line, $0.reason, $1) }))
                }
                if let reach { keep(within: reach) }
            } else if let reach, let read = try readCandidates(after: rows, reach: reach) {
                guard read else { return nil }
                keptWithinReach = true
            } else {
                guard try readRows(after: rows) else { return nil }
            }
        } catch let error as CatalogError {
            throw CatalogError.inFile(path: path, error)
        }
    }

    /// The catalog's text: as the kept table says it lies in the file (after a byte-order mark or not), or
    /// as ``CSVCatalogReader`` reads it.
    private static func text(of input: InputFile, kept: CatalogTableCache.Kept?) throws -> FileBytes {
        if let kept {
            let bytes = try input.mapAll()
            let text = bytes.buffer
            let mark = text.count >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF
            if mark == (kept.textOffset == 3) {
                bytes.skip(kept.textOffset)
                return bytes
            }
        }
        return try CSVCatalogReader.utf8Bytes(input)
    }

    /// The delimiter of `text`, the field each column holds, and the rows after the header.
    private static func header(
        of text: FileBytes, columns: CSVCatalogReader.Columns
    ) throws -> (UInt8, [CatalogRecord.Field?], CSVRows) {
        let delimiter = CSVRows.delimiter(of: text.buffer)
        var rows = CSVRows(text: text.buffer, delimiter: delimiter)
        let keys = try CSVCatalogReader(columns: columns).header(&rows)
        return (delimiter, keys, rows)
    }

    /// True when the table came from a ``CatalogTableCache`` (no row was read).
    package var readFromCache: Bool { kept != nil }

    /// Per row left out: whether its latitude and longitude looked swapped (what a kept table keeps of it).
    private var skippedSwapped: [Bool] = []

    /// True when an id has a colon (then the table is not kept: whether such an id clashes with a
    /// `FILE:LINE` id depends on how the file is named).
    private var idsHaveColons = false

    /// Takes a kept table as it is, its rows and positions read from it as they are needed and its clubrooms
    /// searched by cell, with no index to build: with `reach`, the cells of the reach (their clubrooms checked
    /// first), without, the whole table (checked whole first). False when the table points beyond the
    /// catalog or itself (then nothing is taken).
    private func take(_ kept: CatalogTableCache.Kept, reach: GeodesicIndex.Reach?) -> Bool {
        guard let skipped = kept.skipped() else { return false }
        let cells = reach?.touchedCells
        guard let members = kept.checkedMembers(cells: cells, textCount: bytes.buffer.count) else { return false }
        keptWithinReach = reach != nil
        self.kept = kept
        checkedCells = cells.map { ($0, members) }
        for record in skipped {
            summary.count(
                skipping: SkippedRecord(file: path, line: record.line, reason: record.reason), swapped: record.swapped)
        }
        summary.count(kept: kept.recordCount - skipped.count)
        return true
    }

    /// The index of the first of `sorted` that is `value` or more (`sorted.count` for none).
    private static func firstIndex(in sorted: [Int], notBelow value: Int) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// With a kept table taken for a reach: the cells of the reach (increasing), which alone were checked and
    /// are searched, and the members of each, as they were checked.
    private var checkedCells: (cells: [Int], members: [Range<Int>])?

    /// True when the table is searched by its cells (``cellMatches(within:of:)``): a kept one (see
    /// ``readFromCache``), within the reach it was taken for, when there is one.
    package var searchesByCells: Bool { readFromCache }

    /// What ``GeodesicIndex/positions(within:of:)`` would answer over this table's positions, from the cells
    /// of a kept table (no index to build); nil when the table is not a kept one. A table taken for a reach
    /// answers only a search within it (a centre of the reach, its radius or less): cells outside it were not
    /// checked and are left out.
    package func cellMatches(within radiusMeters: Double, of center: Coordinate) -> [GeodesicIndex.Match]? {
        guard let kept else { return nil }
        let checked = checkedCells
        return GeodesicIndex.cellSearch(
            within: radiusMeters, of: center,
            members: { first, last in
                guard let checked else { return kept.members(inCells: first, last) }
                // Only cells that were checked, with their members as checked: those in one run.
                var n = Self.firstIndex(in: checked.cells, notBelow: first)
                var run = 0..<0
                for cell in first...last {
                    guard n < checked.cells.count, checked.cells[n] == cell else { return 0..<0 }
                    let members = checked.members[n]
                    n += 1
                    if members.isEmpty { continue }
                    if run.isEmpty {
                        run = members
                    } else {
                        guard members.lowerBound == run.upperBound else { return 0..<0 }
                        run = run.lowerBound..<members.upperBound
                    }
                }
                return run
            },
            position: { k in (kept.member(k), kept.memberCoordinate(k)) })
    }

    @inline(__always) private func coordinate(at i: Int) -> Coordinate { kept?.coordinate(i) ?? positions[i] }
    @inline(__always) private func firstRow(_ i: Int) -> Row { kept?.firstRow(i) ?? firstRows[i] }
    @inline(__always) private func laterRow(_ j: Int) -> Row { kept?.laterRow(j) ?? laterRows[j] }

    /// Keeps only the clubrooms whose position is a candidate of `reach`, with their rows.
    private func keep(within reach: GeodesicIndex.Reach) {
        let (all, first, later) = (positions, firstRows, laterRows)
        positions = []
        firstRows = []
        laterRows = []
        lastRow = []
        for i in all.indices where reach.contains(all[i]) {
            var row = first[i]
            var next = Int(row.next)
            row.next = -1
            positions.append(all[i])
            firstRows.append(row)
            lastRow.append(-1)
            while next >= 0 {
                var chained = later[next]
                next = Int(chained.next)
                chained.next = -1
                add(chained, toClubroom: positions.count - 1)
            }
        }
        lastRow = []
        keptWithinReach = true
    }

    /// The number of clubrooms (with a reach: of those kept).
    package var count: Int { kept?.count ?? positions.count }

    /// True when only the clubrooms within the reach given were kept (false when it kept so many that every
    /// row was read).
    package private(set) var keptWithinReach = false

    /// True when the catalog has a row with usable coordinates (kept or not).
    package var hasUsableRows: Bool { summary.recordCount > summary.skipped.count }

    /// The columns of `field`, last first: a row's value is the one of the last it has.
    private func columns(of field: CatalogRecord.Field) -> [Int] {
        keys.indices.filter { keys[$0] == field }.reversed()
    }

    /// The pieces of the text after `header`, read on all cores by `read(text, from, to, line)`.
    ///
    /// A file without quotes is cut at line breaks into one piece per core; a piece's lines are counted from
    /// 1 but the first's, which go on from the header's.
    private func pieces<Piece>(
        after header: CSVRows,
        _ read: (UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, _ line: Int) throws -> Piece
    ) throws -> [Piece] {
        let text = bytes.buffer
        let cuts = Self.cuts(text, from: header.position, pieces: processorCount)
        return try parallelMap(cuts.count - 1) { k in
            try read(text, cuts[k], cuts[k + 1], k == 0 ? header.line : 1)
        }
    }

    /// The columns a table reads of every row.
    private var rowColumns: RowColumns {
        RowColumns(latitude: columns(of: .latitude), longitude: columns(of: .longitude), id: columns(of: .realtyID))
    }

    /// Counts the rows of `pieces` left out and kept in ``summary``; returns the line each piece's lines are
    /// shifted by.
    private func count(_ pieces: [PieceRows]) -> [Int] {
        var offsets: [Int] = []
        var lineOffset = 0
        for piece in pieces {
            offsets.append(lineOffset)
            for skipped in piece.skipped {
                var moved = skipped.record
                moved.line += lineOffset
                summary.count(skipping: moved, swapped: skipped.swapped)
                skippedSwapped.append(skipped.swapped)
            }
            summary.count(kept: piece.kept)
            lineOffset += piece.lineCount
        }
        return offsets
    }

    /// Reads every row after the header; false when an id could clash with a `FILE:LINE` id.
    ///
    /// The pieces' rows are joined into clubrooms in order.
    private func readRows(after header: CSVRows) throws -> Bool {
        let columns = rowColumns
        let pieces = try pieces(after: header) { text, from, to, line in
            try ScannedPiece(text, from: from, to: to, line: line, delimiter: delimiter, columns: columns, path: path)
        }
        let offsets = count(pieces.map(\.rows))
        let rows = pieces.reduce(0) { $0 + $1.starts.count }
        positions.reserveCapacity(rows)
        firstRows.reserveCapacity(rows)
        lastRow.reserveCapacity(rows)
        let clashPrefix = Array((path + ":").utf8)
        var ids = IdTable(expected: rows)
        for (piece, lineOffset) in zip(pieces, offsets) {
            if piece.idBytes.contains(0x3A) { idsHaveColons = true }
            for k in piece.starts.indices {
                let row = Row(start: piece.starts[k], line: Int32(clamping: Int(piece.lines[k]) + lineOffset), next: -1)
                var group = -1
                let idStart = Int(piece.idEnds[k] >> 32)
                let idEnd = Int(piece.idEnds[k] & 0xFFFF_FFFF)
                if idStart < idEnd {
                    let clash = piece.idBytes.withUnsafeBufferPointer { bytes in
                        let id = UnsafeBufferPointer(rebasing: bytes[idStart..<idEnd])
                        return id.starts(with: clashPrefix) ? nil : ids.group(of: id, next: positions.count)
                    }
                    guard let found = clash else { return false }
                    group = found
                }
                if group >= 0 && group < positions.count {
                    add(row, toClubroom: group)
                } else {
                    positions.append(piece.coordinates[k])
                    firstRows.append(row)
                    lastRow.append(-1)
                }
            }
        }
        lastRow = []
        return true
    }

    /// Chains `row` to the rows of clubroom `group` (its last so far in ``lastRow``).
    private func add(_ row: Row, toClubroom group: Int) {
        let later = Int32(laterRows.count)
        laterRows.append(row)
        if lastRow[group] < 0 {
            firstRows[group].next = later
        } else {
            laterRows[Int(lastRow[group])].next = later
        }
        lastRow[group] = later
    }

    /// Reads the rows after the header, keeping the clubrooms that are candidates of `reach`: true when they
    /// are kept, false when an id could clash with a `FILE:LINE` id, nil when the candidates are so many
    /// that reading every row costs less (and nothing is kept).
    ///
    /// The first pass, on all cores, keeps of every row only its place and its id's hash, and of a candidate
    /// its coordinate and its id. The rows of the candidates' ids are then found, on all cores again, by
    /// their hash (a bit set for each candidate's) and their id's bytes: a clubroom is kept when its first
    /// row is a candidate, with all its rows, as ``readRows(after:)`` would join them.
    private func readCandidates(after header: CSVRows, reach: GeodesicIndex.Reach) throws -> Bool? {
        let columns = rowColumns
        let clashPrefix = Array((path + ":").utf8)
        let pieces = try pieces(after: header) { text, from, to, line in
            try ReachedPiece(
                text, from: from, to: to, line: line, delimiter: delimiter, columns: columns, path: path,
                reach: reach, clashPrefix: clashPrefix)
        }
        guard !pieces.contains(where: \.clash) else { return false }
        let rows = pieces.reduce(0) { $0 + $1.starts.count }
        let candidates = pieces.reduce(0) { $0 + $1.candidates.count }
        guard candidates <= max(1 << 12, rows / 16) else { return nil }
        let offsets = count(pieces.map(\.rows))
        // The candidates, in catalog order, and their ids' groups (-1: no id).
        var ids = IdTable(expected: candidates)
        var groupCount = 0
        var bits = [UInt64](repeating: 0, count: max(1 << 10, (candidates * 64).nextPowerOfTwo >> 6))
        let mask = bits.count * 64 - 1
        var found: [(row: Row, coordinate: Coordinate, group: Int)] = []
        found.reserveCapacity(candidates)
        for (piece, lineOffset) in zip(pieces, offsets) {
            for (j, k) in piece.candidates.enumerated() {
                let row = Row(
                    start: piece.starts[Int(k)], line: Int32(clamping: Int(piece.lines[Int(k)]) + lineOffset), next: -1)
                var group = -1
                if let id = piece.candidateId(j) {
                    group = id.withUnsafeBufferPointer { ids.group(of: $0, next: groupCount) }
                    if group == groupCount { groupCount += 1 }
                    let h = Int(piece.hashes[Int(k)]) & mask
                    bits[h >> 6] |= 1 << UInt64(h & 63)
                }
                found.append((row, piece.coordinates[j], group))
            }
        }
        ids.prepareLookups()
        // Every row of the candidates' ids, in catalog order: looked for on all cores, one piece each.
        let text = bytes.buffer
        let separator = delimiter
        let idTable = ids
        let bitSet = bits
        let matches = try parallelMap(pieces.count) { p in
            let piece = pieces[p]
            var matched: [(row: Int, group: Int32)] = []
            for (k, hash) in piece.hashes.enumerated() {
                let h = Int(hash) & mask
                guard bitSet[h >> 6] & 1 << UInt64(h & 63) != 0 else { continue }
                let place = piece.idPlaces[k]
                let group: Int?
                if place != 0, let base = text.baseAddress {
                    group = idTable.existingGroup(
                        of: UnsafeBufferPointer(start: base + Int(place >> 16), count: Int(place & 0xFFFF)))
                } else {
                    var cursor = CSVRows(text: text, delimiter: separator, start: piece.starts[k], line: 1)
                    // The row was read once already: it cannot fail now.
                    guard (try? cursor.next()) == true, let field = cursor.trimmedField(columns.id) else { continue }
                    group = cursor.withBytes(field) { idTable.existingGroup(of: $0) }
                }
                if let group { matched.append((k, Int32(group))) }
            }
            return matched
        }
        // The rows of each id, in catalog order, chained from its first (`next`: the following one).
        var matchedRows: [Row] = []
        var firstOf = [Int32](repeating: -1, count: groupCount)
        var lastOf = [Int32](repeating: -1, count: groupCount)
        for ((piece, lineOffset), matched) in zip(zip(pieces, offsets), matches) {
            for (k, group) in matched {
                let index = Int32(matchedRows.count)
                matchedRows.append(
                    Row(start: piece.starts[k], line: Int32(clamping: Int(piece.lines[k]) + lineOffset), next: -1))
                if lastOf[Int(group)] < 0 {
                    firstOf[Int(group)] = index
                } else {
                    matchedRows[Int(lastOf[Int(group)])].next = index
                }
                lastOf[Int(group)] = index
            }
        }
        // A clubroom of an id is kept when its first row is a candidate, with its other rows chained.
        for candidate in found {
            if candidate.group >= 0 {
                let first = Int(firstOf[candidate.group])
                guard first >= 0, matchedRows[first].start == candidate.row.start else { continue }
                positions.append(candidate.coordinate)
                firstRows.append(candidate.row)
                lastRow.append(-1)
                var next = Int(matchedRows[first].next)
                while next >= 0 {
                    var row = matchedRows[next]
                    next = Int(row.next)
                    row.next = -1
                    add(row, toClubroom: positions.count - 1)
                }
            } else {
                positions.append(candidate.coordinate)
                firstRows.append(candidate.row)
                lastRow.append(-1)
            }
        }
        lastRow = []
        return true
    }

    /// Where to cut `text` after `start` into about `pieces` pieces: at line breaks (after an LF), and not at
    /// all when the text has a quote (a quoted field may hold line breaks).
    private static func cuts(_ text: UnsafeBufferPointer<UInt8>, from start: Int, pieces: Int) -> [Int] {
        let size = text.count - start
        guard pieces > 1, size > 1 << 20, let base = text.baseAddress,
            memchr(base + start, 0x22, size) == nil  // NULL when there is no quote
        else { return [start, text.count] }
        var cuts = [start]
        for k in 1..<pieces {
            var i = max(start + size * k / pieces, cuts[cuts.count - 1])
            while i < text.count && text[i] != 0x0A { i += 1 }
            if i + 1 < text.count { cuts.append(i + 1) }
        }
        cuts.append(text.count)
        return cuts
    }

    /// The clubroom at `index` (0..<``count``), built from its rows as ``ClubroomCatalog`` builds it.
    package func clubroom(at index: Int) -> Clubroom {
        var reader = RowReader(text: bytes.buffer, delimiter: delimiter, keys: keys)
        return clubroom(firstRow(index), coordinate: coordinate(at: index), reader: &reader)
    }

    /// The clubrooms at `indices`, as ``clubroom(at:)`` builds them.
    ///
    /// Their rows lie anywhere in the file: their places are fetched first, then a byte of each row's text,
    /// so that the processor waits for all these memory accesses at once instead of one after the other.
    package func clubrooms(at indices: [Int]) -> [Clubroom] {
        clubrooms(at: indices) { _, room in room }
    }

    /// What `make` makes of each of the clubrooms at `indices` and its place in them, as
    /// ``clubrooms(at:)`` builds them (each handed over, not copied).
    package func clubrooms<T>(at indices: [Int], _ make: (Int, consuming Clubroom) -> T) -> [T] {
        var result: [T] = []
        result.reserveCapacity(indices.count)
        forEachClubroom(at: indices) { k, room in result.append(make(k, room)) }
        return result
    }

    /// Calls `body` with each of the clubrooms at `indices` in turn, and its place in them, as
    /// ``clubrooms(at:)`` builds them: each lives only for its call. With `place`, a clubroom of a catalog of
    /// places (no unit, no meeting) that is one row with an id, whose fields are UTF-8, goes to `place`
    /// instead, as its row's fields (see ``PlaceRow``), and no clubroom is built.
    package func forEachClubroom(
        at indices: [Int], place: ((Int, PlaceRow) -> Void)? = nil, _ body: (Int, consuming Clubroom) -> Void
    ) {
        let rows = indices.map(firstRow)
        let text = bytes.buffer
        var touched = 0
        for row in rows where row.start >= 0 && row.start < text.count { touched &+= Int(text[row.start]) }
        if touched == Int.min { return }  // never: it keeps the reads above
        var reader = RowReader(text: text, delimiter: delimiter, keys: keys)
        for k in indices.indices {
            let coordinate = coordinate(at: indices[k])
            if let place, reader.readsAlone(rows[k]), reader.placeRow(coordinate: coordinate, { place(k, $0) }) {
                continue
            }
            body(k, clubroom(rows[k], coordinate: coordinate, reader: &reader))
        }
    }

    /// A clubroom of a catalog of places as its one row has it: the fields a CSV answer writes, as the row's
    /// bytes (without white space at either end and without quotes, as ``Clubroom`` has them), valid only for
    /// the call it is given to.
    package struct PlaceRow {
        package var id: UnsafeBufferPointer<UInt8>
        /// The name, else the id (as a ``Clubroom``'s).
        package var name: UnsafeBufferPointer<UInt8>
        /// Empty when the row has none.
        package var street: UnsafeBufferPointer<UInt8>
        package var city: UnsafeBufferPointer<UInt8>
        package var postcode: UnsafeBufferPointer<UInt8>
        package var coordinate: Coordinate

        /// The fields of the row `rows` read last, their bytes given by `bytes`; nil when it has no id, or a
        /// field is not UTF-8 (a ``Clubroom``'s strings would have it repaired).
        fileprivate init?(
            _ place: PlaceColumns, _ rows: borrowing CSVRows, _ bytes: (CSVField?) -> UnsafeBufferPointer<UInt8>,
            coordinate: Coordinate
        ) {
            guard let id = rows.trimmedField(place.id) else { return nil }
            self.id = bytes(id)
            let name = bytes(rows.trimmedField(place.name))
            self.name = name.isEmpty ? self.id : name
            street = bytes(rows.trimmedField(place.street))
            city = bytes(rows.trimmedField(place.city))
            postcode = bytes(rows.trimmedField(place.postcode))
            self.coordinate = coordinate
            guard
                rows.rowIsASCII
                    || (Self.isUTF8(self.id) && Self.isUTF8(name) && Self.isUTF8(street) && Self.isUTF8(city)
                        && Self.isUTF8(postcode))
            else { return nil }
        }

        /// True when `bytes` are UTF-8.
        private static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var iterator = bytes.makeIterator()
            var parser = Unicode.UTF8.ForwardParser()
            while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid: continue
                case .emptyInput: return true
                case .error: return false
                }
            }
        }
    }

    /// A row's scanner and record, kept from one clubroom to the next (so that building one allocates
    /// neither).
    private struct RowReader {
        var rows: CSVRows
        var record = CatalogRecord()
        /// The columns of the place's fields, when the catalog has no others (but the coordinates).
        let place: PlaceColumns?

        init(text: UnsafeBufferPointer<UInt8>, delimiter: UInt8, keys: [CatalogRecord.Field?]) {
            rows = CSVRows(text: text, delimiter: delimiter)
            place = PlaceColumns(keys)
        }

        /// Reads `first` when it is a clubroom's only row (and the catalog one of places alone); false when it is
        /// not, or cannot be read (then ``clubroom(_:coordinate:reader:)`` builds it).
        mutating func readsAlone(_ first: Row) -> Bool {
            guard place != nil, first.next < 0, first.start >= 0, first.start < rows.text.count else { return false }
            rows.seek(to: first.start, line: Int(first.line))
            // The row was read once already: it cannot fail now.
            return (try? rows.next()) == true
        }

        /// Calls `body` with the fields of the row read last, a clubroom's only row, as a ``PlaceRow``; false
        /// when they cannot be one (then `body` is not called).
        func placeRow(coordinate: Coordinate, _ body: (PlaceRow) -> Void) -> Bool {
            guard let place else { return false }
            return rows.withFieldBytes { bytes in
                guard let row = PlaceRow(place, rows, bytes, coordinate: coordinate) else { return false }
                body(row)
                return true
            }
        }

        /// The clubroom of the row read last, its only one, built straight from its fields (at `place`, the
        /// reader's own) as ``ClubroomCatalog`` builds it from the record: only a place, no unit, no meeting.
        func placeOnly(_ place: PlaceColumns, coordinate: Coordinate, path: String) -> Clubroom {
            func value(_ columns: [Int]) -> String? { rows.trimmedField(columns).map(rows.string) }
            let id = value(place.id) ?? "\(path):\(rows.rowLine)"
            return Clubroom(
                id: id, name: value(place.name) ?? id, coordinate: coordinate, type: value(place.type),
                street: value(place.street), city: value(place.city), postcode: value(place.postcode),
                description: value(place.description), note: value(place.note),
                occupationNote: value(place.occupationNote))
        }
    }

    /// The columns of each of a place's fields, last first (a row's value is the one of the last it has).
    fileprivate final class PlaceColumns {
        var id: [Int] = [], name: [Int] = [], type: [Int] = [], street: [Int] = [], city: [Int] = []
        var postcode: [Int] = [], description: [Int] = [], note: [Int] = [], occupationNote: [Int] = []

        /// Nil when `keys` name a field that is not the place's (a unit's, a meeting's).
        init?(_ keys: [CatalogRecord.Field?]) {
            for (column, key) in keys.enumerated().reversed() {
                switch key {
                case nil, .latitude?, .longitude?: continue
                case .realtyID?: id.append(column)
                case .name?: name.append(column)
                case .realtyType?: type.append(column)
                case .street?: street.append(column)
                case .city?: city.append(column)
                case .postcode?: postcode.append(column)
                case .description?: description.append(column)
                case .realtyNote?: note.append(column)
                case .occupationNote?: occupationNote.append(column)
                default: return nil
                }
            }
        }
    }

    /// The clubroom whose first row is `first` (its coordinate read from it once already).
    private func clubroom(_ first: Row, coordinate: Coordinate, reader: inout RowReader) -> Clubroom {
        var row = first
        // Rows the table did not check (a kept table's, outside the cells searched) are never read out of the
        // text, and a chain of them must go forward.
        let size = bytes.buffer.count
        guard row.start >= 0, row.start < size else {
            return ClubroomCatalog.clubroom(
                startedBy: CatalogRecord(), id: "\(path):\(first.line)", coordinate: coordinate, unit: nil)
        }
        reader.rows.seek(to: row.start, line: Int(row.line))
        // The row was read once already: it cannot fail now.
        let read = (try? reader.rows.next()) == true
        if read, row.next < 0, let place = reader.place {
            return reader.placeOnly(place, coordinate: coordinate, path: path)
        }
        reader.record.removeAll()
        if read { CSVCatalogReader.record(reader.rows, keys: keys, into: &reader.record) }
        guard row.next >= 0 else {
            // Its only row (the usual case): the clubroom it starts, with no catalog to merge into.
            let id = reader.record.value(.realtyID) ?? "\(path):\(reader.rows.rowLine)"
            return ClubroomCatalog.clubroom(
                startedBy: reader.record, id: id, coordinate: coordinate,
                unit: ClubroomCatalog.unit(of: reader.record))
        }
        var catalog = ClubroomCatalog()
        var current = -1
        while true {
            catalog.add(reader.record, file: path, line: reader.rows.rowLine)
            guard row.next >= 0, Int(row.next) > current else { break }
            current = Int(row.next)
            row = laterRow(current)
            guard row.start >= 0, row.start < size else { break }
            reader.rows.seek(to: row.start, line: Int(row.line))
            reader.record.removeAll()
            if (try? reader.rows.next()) == true {
                CSVCatalogReader.record(reader.rows, keys: keys, into: &reader.record)
            }
        }
        // A first row without usable coordinates merges into nothing: only a damaged kept table points at one.
        return catalog.clubrooms.first
            ?? ClubroomCatalog.clubroom(
                startedBy: CatalogRecord(), id: "\(path):\(first.line)", coordinate: coordinate, unit: nil)
    }

    private typealias SkippedRecord = ClubroomCatalog.SkippedRecord
}

/// The columns a table reads of every row, last first (a row's value is the one of the last it has).
private struct RowColumns: Sendable {
    var latitude: [Int]
    var longitude: [Int]
    var id: [Int]
}

/// A row kept by ``PieceRows``: where it starts in its piece, its line, and its id's bytes (nil without one;
/// valid only during the call that hands it over).
private struct KeptRow {
    var start: Int
    var line: Int
    var id: UnsafeBufferPointer<UInt8>?
}

/// What reading one piece of a CSV text counts: its rows kept and left out, and its lines.
private struct PieceRows {
    var kept = 0
    var skipped: [(record: ClubroomCatalog.SkippedRecord, swapped: Bool)] = []
    /// The line after the piece's last, less one: what the next piece's lines (counted from 1) are shifted by.
    var lineCount = 0

    init() {}

    /// Reads the rows of `text[from..<to]`, the first on line `line`: counts those without usable
    /// coordinates (as ``ClubroomCatalog`` does) and calls `keep` for each of the others with its coordinate.
    ///
    /// A piece without quotes and carriage returns (a row is a line, a field the text between delimiters) is
    /// read by ``readPlain(_:line:delimiter:columns:path:keep:)``; any other through ``CSVRows``.
    @inline(__always)
    init(
        _ text: UnsafeBufferPointer<UInt8>, from: Int, to: Int, line: Int, delimiter: UInt8, columns: RowColumns,
        path: String, keep: (KeptRow, Coordinate) throws -> Void
    ) throws {
        let piece = UnsafeBufferPointer(rebasing: text[from..<to])
        if let base = piece.baseAddress, memchr(base, 0x22, piece.count) == nil,  // NULL: no quote
            memchr(base, 0x0D, piece.count) == nil  // NULL: no carriage return
        {
            try readPlain(piece, line: line, delimiter: delimiter, columns: columns, path: path, keep: keep)
            return
        }
        var rows = CSVRows(text: piece, delimiter: delimiter, line: line)
        while try rows.next() { try read(&rows, columns: columns, path: path, keep: keep) }
        lineCount = rows.line - 1
    }

    /// Counts or keeps the row `rows` read last.
    @inline(__always)
    private mutating func read(
        _ rows: inout CSVRows, columns: RowColumns, path: String, keep: (KeptRow, Coordinate) throws -> Void
    ) throws {
        if rows.isBlank { return }
        guard let latitude = rows.trimmedField(columns.latitude),
            let longitude = rows.trimmedField(columns.longitude)
        else {
            skipped.append((.init(file: path, line: rows.rowLine, reason: "no coordinates"), false))
            return
        }
        guard let lat = rows.number(latitude), let lon = rows.number(longitude) else {
            let shown = "'\(rows.string(latitude)), \(rows.string(longitude))'"
            skipped.append(
                (.init(file: path, line: rows.rowLine, reason: "coordinates \(shown) are not numbers"), false))
            return
        }
        let coordinate = Coordinate(latitude: lat, longitude: lon)
        guard coordinate.isValid else {
            let shown = "\(rows.string(latitude)), \(rows.string(longitude))"
            skipped.append(
                (
                    .init(file: path, line: rows.rowLine, reason: "coordinates \(shown) are out of range"),
                    abs(lat) > 90 && abs(lon) <= 90
                ))
            return
        }
        kept += 1
        let row = KeptRow(start: rows.rowStart, line: rows.rowLine, id: nil)
        guard let id = rows.trimmedField(columns.id) else { return try keep(row, coordinate) }
        try rows.withBytes(id) { try keep(KeptRow(start: row.start, line: row.line, id: $0), coordinate) }
    }

    /// Reads a piece without quotes and carriage returns, where ``CSVRows`` would find each row between two
    /// line feeds and each field between delimiters: only the fields up to the last column wanted are
    /// looked at. A row that is not kept (blank, or without usable coordinates) is read again through
    /// ``CSVRows``, which counts it exactly as the other way.
    private mutating func readPlain(
        _ piece: UnsafeBufferPointer<UInt8>, line firstLine: Int, delimiter: UInt8, columns: RowColumns,
        path: String, keep: (KeptRow, Coordinate) throws -> Void
    ) throws {
        let wanted = (columns.latitude + columns.longitude + columns.id).max() ?? 0
        let n = piece.count
        var line = firstLine
        defer { lineCount = line - 1 }
        guard let base = piece.baseAddress else { return }
        var i = 0
        try withUnsafeTemporaryAllocation(of: (start: Int, end: Int).self, capacity: wanted + 1) { fields in
            /// The field of the last of `columns` (last first) that the row has, without white space at
            /// either end; nil when it has none of them or the field is blank.
            func field(_ columns: [Int], count: Int) -> UnsafeBufferPointer<UInt8>? {
                guard let column = columns.first(where: { $0 < count }) else { return nil }
                var (start, end) = fields[column]
                while start < end, Self.isSpace(piece[start]) { start += 1 }
                while end > start, Self.isSpace(piece[end - 1]) { end -= 1 }
                return start < end ? UnsafeBufferPointer(rebasing: piece[start..<end]) : nil
            }
            while i < n {
                let rowStart = i
                let rowLine = line
                var count = 0
                var start = i
                while true {
                    var end = start
                    while end < n {
                        let c = piece[end]
                        if c == delimiter || c == 0x0A { break }
                        end += 1
                    }
                    fields[count] = (start, end)
                    count += 1
                    if end == n || piece[end] == 0x0A {
                        i = end
                        break
                    }
                    start = end + 1
                    if count > wanted {
                        // The rest of the row: no field of it is wanted (a row has at least count + 1).
                        count += 1
                        // NULL when the piece has no more line feeds: the row ends with it.
                        i =
                            memchr(base + start, 0x0A, n - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
                            ?? n
                        break
                    }
                }
                if i < n {
                    i += 1
                    line += 1
                }
                if let latitude = field(columns.latitude, count: count),
                    let longitude = field(columns.longitude, count: count),
                    let lat = ClubroomCatalog.number(latitude), let lon = ClubroomCatalog.number(longitude),
                    Coordinate(latitude: lat, longitude: lon).isValid
                {
                    kept += 1
                    let id = field(columns.id, count: count)
                    try keep(KeptRow(start: rowStart, line: rowLine, id: id), Coordinate(latitude: lat, longitude: lon))
                } else {
                    var rows = CSVRows(text: piece, delimiter: delimiter, start: rowStart, line: rowLine)
                    if try rows.next() { try read(&rows, columns: columns, path: path, keep: keep) }
                }
            }
        }
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
}

/// The rows of one piece of a CSV text: where each row with usable coordinates starts, its line (counted from
/// the line the piece starts on), its position and its id; and the rows left out.
private struct ScannedPiece {
    var starts: [Int] = []
    var lines: [Int32] = []
    var coordinates: [Coordinate] = []
    /// Per row: where its id is in `idBytes` (start in the high half, end in the low; equal: no id).
    var idEnds: [UInt64] = []
    var idBytes: [UInt8] = []
    var rows = PieceRows()

    init(
        _ text: UnsafeBufferPointer<UInt8>, from: Int, to: Int, line: Int, delimiter: UInt8, columns: RowColumns,
        path: String
    ) throws {
        let estimate = (to - from) / 24
        starts.reserveCapacity(estimate)
        lines.reserveCapacity(estimate)
        coordinates.reserveCapacity(estimate)
        idEnds.reserveCapacity(estimate)
        idBytes.reserveCapacity(estimate * 8)
        rows = try PieceRows(
            text, from: from, to: to, line: line, delimiter: delimiter, columns: columns, path: path
        ) { row, coordinate in
            starts.append(from + row.start)
            lines.append(Int32(clamping: row.line))
            coordinates.append(coordinate)
            let idStart = UInt64(idBytes.count)
            if let id = row.id { idBytes.append(contentsOf: id) }
            idEnds.append(idStart << 32 | UInt64(idBytes.count))
        }
    }
}

/// The rows of one piece of a CSV text as a search within a reach needs them: where each row with usable
/// coordinates starts, its line and the hash of its id; which of them are candidates of the reach, with their
/// coordinates; and whether an id could clash with a `FILE:LINE` id.
private struct ReachedPiece {
    var starts: [Int] = []
    var lines: [Int32] = []
    /// Per row: the hash of its id (0 without one).
    var hashes: [UInt32] = []
    /// Per row: where its id lies in the text, the offset times 2¹⁶ plus the length (0: no id, or one
    /// that is not a run of the text's bytes, such as a quoted field's).
    var idPlaces: [UInt64] = []
    /// The rows (indices into `starts`) that are candidates, their coordinates and their ids (the bytes of
    /// candidate j run from `idEnds[j - 1]` to `idEnds[j]`; none when they are equal).
    var candidates: [Int32] = []
    var coordinates: [Coordinate] = []
    var idBytes: [UInt8] = []
    var idEnds: [Int32] = []
    var clash = false
    var rows = PieceRows()

    init(
        _ text: UnsafeBufferPointer<UInt8>, from: Int, to: Int, line: Int, delimiter: UInt8, columns: RowColumns,
        path: String, reach: GeodesicIndex.Reach, clashPrefix: [UInt8]
    ) throws {
        let estimate = (to - from) / 24
        starts.reserveCapacity(estimate)
        lines.reserveCapacity(estimate)
        hashes.reserveCapacity(estimate)
        idPlaces.reserveCapacity(estimate)
        let textStart = UnsafeRawPointer(text.baseAddress)
        let textEnd = textStart.map { $0 + text.count }
        rows = try PieceRows(
            text, from: from, to: to, line: line, delimiter: delimiter, columns: columns, path: path
        ) { row, coordinate in
            if reach.contains(coordinate) {
                candidates.append(Int32(starts.count))
                coordinates.append(coordinate)
                if let id = row.id { idBytes.append(contentsOf: id) }
                idEnds.append(Int32(idBytes.count))
            }
            starts.append(from + row.start)
            lines.append(Int32(clamping: row.line))
            var hash: UInt64 = 0
            var place: UInt64 = 0
            if let id = row.id {
                if id.starts(with: clashPrefix) { clash = true }
                hash = FNV.hash(id)
                if let textStart, let textEnd, let start = UnsafeRawPointer(id.baseAddress), start >= textStart,
                    start + id.count <= textEnd, id.count < 1 << 16
                {
                    place = UInt64(start - textStart) << 16 | UInt64(id.count)
                }
            }
            hashes.append(UInt32(truncatingIfNeeded: hash ^ hash >> 32))
            idPlaces.append(place)
        }
    }

    /// The id of candidate `j` (nil without one).
    func candidateId(_ j: Int) -> ArraySlice<UInt8>? {
        let start = j == 0 ? 0 : Int(idEnds[j - 1])
        let end = Int(idEnds[j])
        return start < end ? idBytes[start..<end] : nil
    }
}

/// Clubroom ids (their bytes, kept in one buffer) and the clubroom of each.
///
/// While the ids come as canonical whole numbers in non-decreasing order (a catalog exported sorted by its
/// key), an id is new when it is larger than the last and the last one's when equal: no lookup is needed.
/// From the first id that breaks the order, every id is looked up in a hash table (open addressing,
/// FNV-1a; each slot keeps the high half of its id's hash, so most probes touch no id's bytes).
private struct IdTable {
    private var bytes: [UInt8] = []
    private var starts: [Int32] = [0]
    private var groups: [Int32] = []
    /// Per slot: the high 32 bits of the hash, and the id's number + 1 (0: empty).
    private var slots: [UInt64] = []
    private var used = 0
    private var inOrder = true
    private var last: UInt64 = 0

    init(expected: Int) {
        bytes.reserveCapacity(expected * 8)
        starts.reserveCapacity(expected + 1)
        groups.reserveCapacity(expected)
    }

    /// The clubroom of `id`; when the id is new, it becomes `next`'s (and `next` is returned).
    mutating func group(of id: UnsafeBufferPointer<UInt8>, next: Int) -> Int {
        if inOrder {
            if let value = Self.canonicalNumber(id) {
                if groups.isEmpty || value > last {
                    last = value
                    append(id, group: next)
                    return next
                }
                if value == last, let group = groups.last { return Int(group) }
            }
            prepareLookups()
        }
        let hash = FNV.hash(id)
        let (slot, found) = find(id, hash: hash)
        if let found { return found }
        let k = groups.count
        append(id, group: next)
        slots[slot] = (hash >> 32) << 32 | UInt64(k + 1)
        used += 1
        if used * 2 > slots.count { grow() }
        return next
    }

    /// Leaves the ids' order behind: from now on every id is looked up in the hash table, and
    /// ``existingGroup(of:)`` answers.
    mutating func prepareLookups() {
        guard inOrder else { return }
        inOrder = false
        slots = [UInt64](repeating: 0, count: max(1 << 16, (groups.count * 4).nextPowerOfTwo))
        for k in groups.indices { insert(k, hash: bytes.withUnsafeBufferPointer { Self.hash($0, k, starts) }) }
    }

    /// The clubroom of `id` if the table has it (after ``prepareLookups()``), without adding it.
    func existingGroup(of id: UnsafeBufferPointer<UInt8>) -> Int? {
        precondition(!inOrder, "IdTable: prepareLookups() first")
        return find(id, hash: FNV.hash(id)).group
    }

    /// The slot where `id` is or would go, and its clubroom when it is there.
    private func find(_ id: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (slot: Int, group: Int?) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let entry = slots[slot]
            let k = Int(entry & 0xFFFF_FFFF) - 1
            if entry >> 32 == hash >> 32 && equals(k, id) { return (slot, Int(groups[k])) }
            slot = (slot + 1) & mask
        }
        return (slot, nil)
    }

    private mutating func append(_ id: UnsafeBufferPointer<UInt8>, group: Int) {
        bytes.append(contentsOf: id)
        starts.append(Int32(bytes.count))
        groups.append(Int32(group))
    }

    /// The value of an id of 1 to 18 decimal digits without a leading zero (or `0`); nil for any other id.
    private static func canonicalNumber(_ id: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard !id.isEmpty, id.count <= 18, id[0] != 0x30 || id.count == 1 else { return nil }
        var value: UInt64 = 0
        for c in id {
            guard c >= 0x30 && c <= 0x39 else { return nil }
            value = value * 10 + UInt64(c - 0x30)
        }
        return value
    }

    /// The hash of id `k`.
    private static func hash(_ stored: UnsafeBufferPointer<UInt8>, _ k: Int, _ starts: [Int32]) -> UInt64 {
        FNV.hash(UnsafeBufferPointer(rebasing: stored[Int(starts[k])..<Int(starts[k + 1])]))
    }

    /// Puts id `k` in the first free slot from its hash's.
    private mutating func insert(_ k: Int, hash: UInt64) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = (hash >> 32) << 32 | UInt64(k + 1)
        used += 1
    }

    private func equals(_ k: Int, _ id: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(starts[k])
        let end = Int(starts[k + 1])
        guard end - start == id.count else { return false }
        return bytes.withUnsafeBufferPointer { stored in
            guard let a = stored.baseAddress, let b = id.baseAddress else { return id.isEmpty }
            return memcmp(a + start, b, id.count) == 0  // 0 when equal
        }
    }

    private mutating func grow() {
        slots = [UInt64](repeating: 0, count: slots.count * 2)
        used = 0
        for k in groups.indices { insert(k, hash: bytes.withUnsafeBufferPointer { Self.hash($0, k, starts) }) }
    }
}

extension Int {
    /// The smallest power of two at least this large (1 for 0 and 1).
    fileprivate var nextPowerOfTwo: Int { self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount) }
}

/// Searches a ``CSVCatalogTable`` by position, with the answers of ``ClubroomIndex``: a ``GeodesicIndex``
/// when many queries are to come, a bounded scan (``GeodesicIndex/boundedScan(_:within:of:)``, the same
/// candidates without the O(n log n) build) for a few; each clubroom found is built from its rows.
package struct CatalogTableSearch: Sendable {
    /// Up to this many queries, scanning costs less than building the index (on a million clubrooms a scan
    /// takes a few milliseconds, a build a few hundred).
    package static let scanLimit = 4
    /// A table is read for a ``GeodesicIndex/Reach`` when the positions' bounds cover at most this share of
    /// the globe: then the clubrooms kept are usually few enough (see ``CSVCatalogTable``) that neither the
    /// read nor the index pays for the others.
    package static let reachAreaLimit = 1.0 / 64
    private let table: CSVCatalogTable
    private let index: GeodesicIndex?

    /// A search over `table` for `queries` positions (a table kept for a reach: only within it; a kept table
    /// taken whole: by its cells, with no index to build).
    package init(_ table: CSVCatalogTable, queries: Int) {
        self.table = table
        index = queries > Self.scanLimit && !table.searchesByCells ? GeodesicIndex(table.coordinates) : nil
    }

    /// The clubrooms within `radiusMeters` of `position`, nearest first (ties in catalog order).
    package func clubrooms(within radiusMeters: Double, of position: Coordinate) -> [ClubroomIndex.Found] {
        let matches = self.matches(within: radiusMeters, of: position)
        return table.clubrooms(at: matches.map(\.index)) { k, room in
            ClubroomIndex.Found(
                clubroom: room, distanceMeters: matches[k].distanceMeters, bearingDegrees: matches[k].bearingDegrees)
        }
    }

    /// Calls `body` with each of the first `limit` (all without one) of ``clubrooms(within:of:)`` in turn, its
    /// distance and bearing, each clubroom living only for its call; returns how many there were. With
    /// `place`, a clubroom of a catalog of places that is one row goes to `place` as that row's fields instead
    /// (see ``CSVCatalogTable/forEachClubroom(at:place:_:)``).
    package func forEachClubroom(
        within radiusMeters: Double, of position: Coordinate, limit: Int?,
        place: ((CSVCatalogTable.PlaceRow, _ distanceMeters: Double, _ bearingDegrees: Double) -> Void)? = nil,
        _ body: (borrowing Clubroom, _ distanceMeters: Double, _ bearingDegrees: Double) -> Void
    ) -> Int {
        var matches = self.matches(within: radiusMeters, of: position)
        if let limit, matches.count > limit { matches.removeSubrange(max(0, limit)...) }
        table.forEachClubroom(
            at: matches.map(\.index),
            place: place.map { place in { k, row in place(row, matches[k].distanceMeters, matches[k].bearingDegrees) } }
        ) { k, room in
            body(room, matches[k].distanceMeters, matches[k].bearingDegrees)
        }
        return matches.count
    }

    private func matches(within radiusMeters: Double, of position: Coordinate) -> [GeodesicIndex.Match] {
        table.cellMatches(within: radiusMeters, of: position)
            ?? index?.positions(within: radiusMeters, of: position)
            ?? GeodesicIndex.boundedScan(table.coordinates, within: radiusMeters, of: position)
    }
}
