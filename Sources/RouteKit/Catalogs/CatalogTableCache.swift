import Glibc

/// A folder where the tables of large CSV catalogs (``CSVCatalogTable``) are kept between runs, so that a
/// search need not read the catalog again: where each clubroom's rows start, its position, the rows left out,
/// and the clubrooms by cell of the ``GeodesicIndex/Reach`` grid (so that a search near a few positions
/// touches only the clubrooms near them).
///
/// A kept table is one file, named by a hash of the catalog's device and inode. It holds the catalog's
/// ``FileIdentity`` (device, inode, size and times of change) and the columns it was read with, and it is used
/// only while both match: a catalog written, replaced or truncated since is read afresh and its table kept
/// again. A table is written atomically (a temporary file renamed into place), the folder keeps the
/// ``keptTables`` used last, and a table that cannot be written or read is no error: the catalog is read
/// as without a cache. A kept table is checked before it is used (its sizes against the file's, every row
/// and cell it points to against the catalog's and the table's bounds); one that fails is read afresh.
package struct CatalogTableCache: Sendable {
    /// The folder (made when the first table is kept).
    package let folder: String
    /// Catalogs smaller than this are read afresh every time (a megabyte reads in a millisecond or two).
    package static let minimumBytes: Int64 = 1 << 20
    /// How many tables the folder keeps: the one used least recently goes when another comes.
    package static let keptTables = 8

    package init(folder: String) {
        self.folder = folder
    }

    /// The folder `option` names (a folder, or `off` for none), else the environment: `ROUTEKIT_CACHE` (the
    /// same), else `$XDG_CACHE_HOME/routekit`, else `$HOME/.cache/routekit`; nil for none.
    package static func folder(option: String? = nil, environment: (String) -> String?) -> String? {
        if let named = option ?? environment("ROUTEKIT_CACHE"), !named.isEmpty { return named == "off" ? nil : named }
        if let base = environment("XDG_CACHE_HOME"), base.hasPrefix("/") { return base + "/routekit" }
        if let home = environment("HOME"), home.hasPrefix("/") { return home + "/.cache/routekit" }
        return nil
    }

    /// The file of the table of the catalog `identity` describes: named by a hash of its device and inode, so
    /// that every path to it finds it, and a catalog replaced by another file has another.
    private func file(for identity: FileIdentity) -> String {
        let name = String(
            FNV.hash(identity.values.prefix(2).flatMap { withUnsafeBytes(of: $0, Array.init) }), radix: 16)
        return folder + "/catalog-" + String(repeating: "0", count: 16 - name.count) + name + ".table"
    }

    /// The table kept for the catalog as `identity` describes it now; nil when none is kept, or it was kept for
    /// another state of the file or is damaged.
    func table(for identity: FileIdentity) -> Kept? {
        guard let input = try? InputFile(path: file(for: identity)), let bytes = try? input.mapAll(),
            let kept = Kept(bytes, identity: identity)
        else { return nil }
        // A search reads the cells it needs and the rows of what it finds.
        bytes.expectRandomReads()
        return kept
    }

    /// Marks the table `kept` as used now (the folder keeps the tables used last).
    func markUsed(_ kept: Kept) {
        utimensat(AT_FDCWD, file(for: kept.identity), nil, 0)  // -1 on error: the table then only looks older
    }

    /// Keeps the table of a catalog; nothing happens when it cannot be written (then the catalog is read
    /// afresh next time).
    func keep(_ table: Contents) {
        // Counts and offsets are kept in 4 bytes: a larger table is not kept.
        let reasonBytes = table.skipped.reduce(0) { $0 + $1.reason.utf8.count }
        guard max(table.coordinates.count, table.laterRows.count, table.skipped.count, reasonBytes) < Int32.max,
            (try? Folder.create(folder, mode: 0o700, parents: true)) != nil,
            let output = try? OutputStream.create(path: file(for: table.identity))
        else { return }
        let bytes = Layout.bytes(of: table)
        let written = bytes.withUnsafeBytes { (try? output.write(bytes: $0)) != nil }
        guard written, (try? output.commit()) != nil else { return }
        prune()
    }

    /// Removes the tables used least recently beyond ``keptTables``.
    private func prune() {
        guard let items = try? Folder.list(folder) else { return }  // cannot be listed: nothing to prune
        var tables: [(used: Int, path: String)] = []
        for name in items.map(\.name) {
            var info = stat()
            let path = folder + "/" + name
            guard stat(path, &info) == 0 else { continue }  // -1 on error: gone meanwhile
            if name.hasPrefix("catalog-"), name.hasSuffix(".table") {
                tables.append((Int(info.st_mtim.tv_sec), path))
            } else if name.hasPrefix(".catalog-"), name.contains(".table."), info.st_mtim.tv_sec < time(nil) - 3600 {
                // A temporary table an hour old: left by a run that was killed before it could remove it.
                unlink(path)  // -1 on error: another run removed it
            }
        }
        for table in tables.sorted(by: { $0.used < $1.used }).dropLast(Self.keptTables) {
            unlink(table.path)  // -1 on error: another run removed it
        }
    }

    /// What a table is kept from: everything ``CSVCatalogTable`` reads of its catalog.
    struct Contents {
        var identity: FileIdentity
        /// The hash of the delimiter and of the field each column holds (see ``keysHash(delimiter:keys:)``).
        var keysHash: UInt64
        /// The bytes before the text read (3 for a byte-order mark).
        var textOffset: Int
        var coordinates: [Coordinate]
        var firstRows: [CSVCatalogTable.Row]
        var laterRows: [CSVCatalogTable.Row]
        var recordCount: Int
        var skipped: [(line: Int, reason: String, swapped: Bool)]
    }

    /// The hash of a catalog's delimiter and of the field each of its columns holds.
    static func keysHash(delimiter: UInt8, keys: [CatalogRecord.Field?]) -> UInt64 {
        FNV.hash([delimiter] + keys.map { $0.map { UInt8($0.rawValue) } ?? 0xFF })
    }

    /// A kept table, mapped: read through accessors that check nothing but the file's own layout (the
    /// table checks what it takes against the catalog).
    struct Kept {
        private let bytes: FileBytes
        private let raw: UnsafeRawBufferPointer
        /// The catalog's identity, as the table names it.
        let identity: FileIdentity
        /// The hash of the delimiter and columns it was read with (``CatalogTableCache/keysHash(delimiter:keys:)``).
        let keysHash: UInt64
        /// The bytes of the file before its text (3 for a byte-order mark).
        let textOffset: Int
        /// The clubrooms, their later rows and the grid's non-empty cells.
        let count: Int
        let laterCount: Int
        private let cellCount: Int
        /// The records read: the clubrooms' first rows, their later rows and the rows left out.
        let recordCount: Int
        private let skippedCount: Int
        private let offsets: Layout.Offsets

        /// The table in `bytes` when its header is whole and names `identity`, and its sizes add up to the
        /// file's.
        init?(_ bytes: FileBytes, identity: FileIdentity) {
            self.bytes = bytes
            let raw = UnsafeRawBufferPointer(bytes.buffer)
            self.raw = raw
            guard raw.count >= Layout.headerSize else { return nil }
            let header = (0..<Layout.headerFields).map { raw.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self) }
            guard header[0] == Layout.magic, header[1] == Layout.byteOrder,
                Array(header[2..<9]) == identity.values
            else { return nil }
            self.identity = identity
            keysHash = UInt64(bitPattern: header[9])
            let limit = Int64(Int32.max)
            guard header[10] == 0 || header[10] == 3, (0...limit).contains(header[11]),
                (0...limit).contains(header[12]), (0...Int64(GeodesicIndex.Reach.cellCount)).contains(header[13]),
                (0...Int64.max / 2).contains(header[14]), (0...limit).contains(header[15]),
                (0...limit).contains(header[16])
            else { return nil }
            textOffset = Int(header[10])
            count = Int(header[11])
            laterCount = Int(header[12])
            cellCount = Int(header[13])
            recordCount = Int(header[14])
            skippedCount = Int(header[15])
            offsets = Layout.Offsets(
                count: count, laterCount: laterCount, cellCount: cellCount, skippedCount: skippedCount,
                reasonBytes: Int(header[16]))
            // Every record read is a clubroom's first row, a later row, or one left out.
            guard offsets.end == raw.count, recordCount == count + laterCount + skippedCount else { return nil }
        }

        /// The position of clubroom `i` (0..<``count``; of a damaged table, no coordinate when it has no
        /// member).
        func coordinate(_ i: Int) -> Coordinate {
            let k = memberOf(i)
            return k >= 0 && k < count ? memberCoordinate(k) : Coordinate(latitude: .nan, longitude: .nan)
        }

        /// The first row of clubroom `i` (0..<``count``; of a damaged table, a row that is not valid when it has
        /// no member).
        func firstRow(_ i: Int) -> CSVCatalogTable.Row {
            let k = memberOf(i)
            return k >= 0 && k < count ? memberRow(k) : CSVCatalogTable.Row(start: -1, line: 0, next: -1)
        }

        /// Later row `j` (0..<``laterCount``; beyond, a row that is not valid).
        func laterRow(_ j: Int) -> CSVCatalogTable.Row {
            j >= 0 && j < laterCount
                ? row(at: offsets.laterRows + j * 16) : CSVCatalogTable.Row(start: -1, line: 0, next: -1)
        }

        /// The member of the cells that clubroom `i` is.
        @inline(__always)
        private func memberOf(_ i: Int) -> Int {
            Int(raw.loadUnaligned(fromByteOffset: offsets.memberOf + i * 4, as: Int32.self))
        }

        /// The first row of member `k` of the cells.
        @inline(__always)
        private func memberRow(_ k: Int) -> CSVCatalogTable.Row { row(at: offsets.memberRows + k * 16) }

        private func row(at offset: Int) -> CSVCatalogTable.Row {
            CSVCatalogTable.Row(
                start: Int(raw.loadUnaligned(fromByteOffset: offset, as: Int64.self)),
                line: raw.loadUnaligned(fromByteOffset: offset + 8, as: Int32.self),
                next: raw.loadUnaligned(fromByteOffset: offset + 12, as: Int32.self))
        }

        /// The range of ``member(_:)`` that holds the clubrooms in the cells `first...last` (empty when the
        /// table's cells point beyond its members).
        func members(inCells first: Int, _ last: Int) -> Range<Int> {
            let (from, to) = (cellStart(entry(from: first)), cellStart(entry(from: last + 1)))
            // A damaged table's cells could point anywhere: nothing then.
            return 0 <= from && from <= to && to <= count ? from..<to : 0..<0
        }

        /// The members of `cell` alone, as ``members(inCells:_:)`` finds them, its entry looked for from `entry`
        /// on (the entry of a cell before it, or 0) in steps that double, then halve; `entry` is left there.
        private func members(ofCell cell: Int, searchingFrom entry: inout Int) -> Range<Int> {
            var (low, high, step) = (entry, entry, 1)
            while high < cellCount, cellNumber(high) < cell {
                low = high + 1
                high += step
                step *= 2
            }
            high = min(high, cellCount)
            while low < high {
                let mid = (low + high) / 2
                if cellNumber(mid) < cell { low = mid + 1 } else { high = mid }
            }
            entry = low
            let from = cellStart(low)
            let to = low < cellCount && cellNumber(low) == cell ? cellStart(low + 1) : from
            // A damaged table's cells could point anywhere: nothing then.
            return 0 <= from && from <= to && to <= count ? from..<to : 0..<0
        }

        /// The first entry of the non-empty cells whose cell is `cell` or after it (``cellCount`` for none).
        private func entry(from cell: Int) -> Int {
            var low = 0
            var high = cellCount
            while low < high {
                let mid = (low + high) / 2
                if cellNumber(mid) < cell { low = mid + 1 } else { high = mid }
            }
            return low
        }

        /// The position of member `k` of the cells (in the members' order, so that a search reads the
        /// positions of a cell together).
        @inline(__always)
        func memberCoordinate(_ k: Int) -> Coordinate {
            let at = offsets.memberCoordinates + k * 16
            return Coordinate(
                latitude: raw.loadUnaligned(fromByteOffset: at, as: Double.self),
                longitude: raw.loadUnaligned(fromByteOffset: at + 8, as: Double.self))
        }

        /// The clubroom that is member `k` of the cells (by cell, then in catalog order).
        @inline(__always)
        func member(_ k: Int) -> Int { Int(raw.loadUnaligned(fromByteOffset: offsets.members + k * 4, as: Int32.self)) }

        /// The members of each of the cells `cells` (increasing, each looked up as ``members(inCells:_:)``
        /// looks it up; nil: of every cell, whose entries are then checked to go up and to hold every clubroom,
        /// and none are returned) when they can be taken as they are: each is there once, in its own cell, at a
        /// valid position, with rows that start within a text of `textCount` bytes on a line ≥ 1 and chain
        /// forward to later rows that exist and that no other clubroom's chain enters (so that every walk along
        /// them ends, and all of them take time in proportion to the rows); nil when they cannot.
        func checkedMembers(cells: [Int]?, textCount: Int) -> [Range<Int>]? {
            func valid(_ row: CSVCatalogTable.Row) -> Bool {
                row.start >= 0 && row.start < textCount && row.line >= 1 && row.next >= -1
                    && Int(row.next) < laterCount
            }
            // memberOf(member(k)) == k for every k checked: no two members are one clubroom.
            func isValid(member k: Int, cell: Int) -> Bool {
                let i = member(k)
                guard i >= 0, i < count, memberOf(i) == k else { return false }
                let c = memberCoordinate(k)
                return c.isValid && GeodesicIndex.Reach.cell(of: c) == cell && valid(memberRow(k))
            }
            // The members of the cells (given, or entries 0..<cellCount), each of its cell.
            let parts = cells?.count ?? cellCount
            // `entry`: where the cell before it was found in the directory (the cells given go up).
            func cell(_ n: Int, entry: inout Int) -> (cell: Int, members: Range<Int>)? {
                if let cells { return (cells[n], members(ofCell: cells[n], searchingFrom: &entry)) }
                let (cell, from, to) = (cellNumber(n), cellStart(n), cellStart(n + 1))
                // Within the members on its own: the entries before it may be checked later, on another core.
                guard cell >= 0, cell < cellNumber(n + 1), 0 <= from, from < to, to <= count else { return nil }
                return (cell, from..<to)
            }
            if cells == nil {
                guard cellNumber(cellCount) == GeodesicIndex.Reach.cellCount, cellStart(0) == 0,
                    cellStart(cellCount) == count
                else { return nil }
            }
            // The members one by one on all cores; the chains of their rows then together, where any is.
            let runs = parallelRuns(parts)
            // parallelMap throws only what its closure throws: nothing here.
            let checked =
                (try? parallelMap(runs.count) { r -> [Range<Int>]? in
                    var found: [Range<Int>] = []
                    var entry = 0
                    for n in runs[r] {
                        guard let c = cell(n, entry: &entry),
                            c.members.allSatisfy({ isValid(member: $0, cell: c.cell) })
                        else {
                            return nil
                        }
                        if cells != nil { found.append(c.members) }
                    }
                    return found
                }) ?? []
            guard checked.count == runs.count, !checked.contains(where: { $0 == nil }) else { return nil }
            let ranges = checked.flatMap { $0 ?? [] }
            guard laterCount > 0 else { return ranges }  // no row has a next one (valid(_:) held it under 0)
            var entered = [UInt64](repeating: 0, count: (laterCount + 63) / 64)
            var entry = 0
            for n in 0..<parts {
                guard let c = cells.map({ ($0[n], ranges[n]) }) ?? cell(n, entry: &entry) else { return nil }
                for k in c.members {
                    var row = memberRow(k)
                    while row.next >= 0 {
                        let j = Int(row.next)
                        guard entered[j >> 6] & 1 << UInt64(j & 63) == 0 else { return nil }
                        entered[j >> 6] |= 1 << UInt64(j & 63)
                        row = laterRow(j)
                        guard valid(row), row.next < 0 || Int(row.next) > j else { return nil }
                    }
                }
            }
            return ranges
        }

        /// The cell of entry `k` of the grid's non-empty cells (``GeodesicIndex/Reach/cellCount`` for the
        /// closing entry, `k` = ``cellCount``).
        private func cellNumber(_ k: Int) -> Int {
            Int(raw.loadUnaligned(fromByteOffset: offsets.cells + k * 8, as: Int32.self))
        }

        /// Where the clubrooms of entry `k` of the non-empty cells begin among the cells' members.
        private func cellStart(_ k: Int) -> Int {
            Int(raw.loadUnaligned(fromByteOffset: offsets.cells + k * 8 + 4, as: Int32.self))
        }

        /// The rows left out: line, reason and whether the latitude and longitude looked swapped; nil when a
        /// reason lies beyond the file.
        func skipped() -> [(line: Int, reason: String, swapped: Bool)]? {
            var result: [(line: Int, reason: String, swapped: Bool)] = []
            result.reserveCapacity(skippedCount)
            let reasons = offsets.reasons
            for k in 0..<skippedCount {
                let at = offsets.skipped + k * 16
                let line = raw.loadUnaligned(fromByteOffset: at, as: Int64.self)
                let start = Int(raw.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self))
                let packed = raw.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self)
                let length = Int(packed & 0x7FFF_FFFF)
                guard line >= 1, line <= Int32.max, start + length <= offsets.reasonBytes else { return nil }
                let reason = String(
                    decoding: UnsafeRawBufferPointer(rebasing: raw[(reasons + start)..<(reasons + start + length)]),
                    as: UTF8.self)
                result.append((Int(line), reason, packed >> 31 != 0))
            }
            return result
        }
    }

    /// The layout of a kept table: a header of 8-byte numbers in the machine's byte order (checked by a
    /// known number), then the sections, each at a multiple of 8 bytes.
    ///
    /// Header: magic, byte order, the catalog's identity (7 numbers), the keys' hash, the text offset, the
    /// clubrooms, the later rows, the non-empty cells, the records, the rows left out, the bytes of their
    /// reasons. Sections, the first three in the members' order (the clubrooms by cell, then in catalog
    /// order, so that a search reads a cell's together): the members (a clubroom's number, 4 bytes), their
    /// positions (latitude and longitude, 2 doubles) and their first rows (start, 8 bytes; line and next, 4
    /// each); per clubroom, its member (4 bytes); the later rows; the non-empty cells (cell, start among the
    /// members: 4 bytes each) and a closing entry (``GeodesicIndex/Reach/cellCount``, the clubrooms); the rows
    /// left out (line, 8 bytes; the start of the reason and its length, with the top bit for swapped-looking
    /// coordinates, 4 each); the reasons' bytes.
    enum Layout {
        /// "RKTABLE3" read as a little-endian number: the format and its version.
        static let magic = Int64(bitPattern: 0x3345_4C42_4154_4B52)
        static let byteOrder: Int64 = 0x0102_0304_0506_0708
        static let headerFields = 17
        static let headerSize = headerFields * 8

        /// Where each section starts.
        struct Offsets {
            var members: Int
            var memberCoordinates: Int
            var memberRows: Int
            var memberOf: Int
            var laterRows: Int
            var cells: Int
            var skipped: Int
            var reasons: Int
            var reasonBytes: Int
            var end: Int

            init(count: Int, laterCount: Int, cellCount: Int, skippedCount: Int, reasonBytes: Int) {
                let padded = (count * 4 + 7) / 8 * 8
                members = headerSize
                memberCoordinates = members + padded
                memberRows = memberCoordinates + count * 16
                memberOf = memberRows + count * 16
                laterRows = memberOf + padded
                cells = laterRows + laterCount * 16
                skipped = cells + (cellCount + 1) * 8
                reasons = skipped + skippedCount * 16
                self.reasonBytes = reasonBytes
                end = reasons + (reasonBytes + 7) / 8 * 8
            }
        }

        /// The file of `table`.
        static func bytes(of table: Contents) -> [UInt8] {
            let count = table.coordinates.count
            // The clubrooms by cell (a counting sort keeps catalog order within a cell).
            let cellOf = table.coordinates.map(GeodesicIndex.Reach.cell)
            var cells: [(cell: Int32, start: Int32)] = []
            var members = [Int32](repeating: 0, count: count)
            if count * 16 < GeodesicIndex.Reach.cellCount {
                // Few clubrooms: sorted by cell, then number.
                let keys = cellOf.enumerated().map { UInt64($0.element) << 32 | UInt64($0.offset) }.sorted()
                for (k, key) in keys.enumerated() {
                    members[k] = Int32(truncatingIfNeeded: key)
                    if cells.last?.cell != Int32(key >> 32) { cells.append((Int32(key >> 32), Int32(k))) }
                }
            } else {
                // Per cell: how many clubrooms it has, then where they start, then where the next goes.
                var place = [Int32](repeating: 0, count: GeodesicIndex.Reach.cellCount + 1)
                for cell in cellOf { place[cell + 1] += 1 }
                for cell in 0..<GeodesicIndex.Reach.cellCount {
                    if place[cell + 1] > 0 { cells.append((Int32(cell), place[cell])) }
                    place[cell + 1] += place[cell]
                }
                for (i, cell) in cellOf.enumerated() {
                    members[Int(place[cell])] = Int32(i)
                    place[cell] += 1
                }
            }
            let reasons = table.skipped.map { Array($0.reason.utf8) }
            let offsets = Offsets(
                count: count, laterCount: table.laterRows.count, cellCount: cells.count,
                skippedCount: table.skipped.count, reasonBytes: reasons.reduce(0) { $0 + $1.count })
            var bytes = [UInt8](repeating: 0, count: offsets.end)
            bytes.withUnsafeMutableBytes { raw in
                let header: [Int64] =
                    [magic, byteOrder] + table.identity.values + [
                        Int64(bitPattern: table.keysHash), Int64(table.textOffset), Int64(count),
                        Int64(table.laterRows.count), Int64(cells.count), Int64(table.recordCount),
                        Int64(table.skipped.count), Int64(offsets.reasonBytes),
                    ]
                for (k, value) in header.enumerated() { raw.storeBytes(of: value, toByteOffset: k * 8, as: Int64.self) }
                func store(_ row: CSVCatalogTable.Row, at offset: Int) {
                    raw.storeBytes(of: Int64(row.start), toByteOffset: offset, as: Int64.self)
                    raw.storeBytes(of: row.line, toByteOffset: offset + 8, as: Int32.self)
                    raw.storeBytes(of: row.next, toByteOffset: offset + 12, as: Int32.self)
                }
                for (k, i) in members.enumerated() {
                    let c = table.coordinates[Int(i)]
                    raw.storeBytes(of: i, toByteOffset: offsets.members + k * 4, as: Int32.self)
                    raw.storeBytes(of: c.latitude, toByteOffset: offsets.memberCoordinates + k * 16, as: Double.self)
                    raw.storeBytes(
                        of: c.longitude, toByteOffset: offsets.memberCoordinates + k * 16 + 8, as: Double.self)
                    store(table.firstRows[Int(i)], at: offsets.memberRows + k * 16)
                    raw.storeBytes(of: Int32(k), toByteOffset: offsets.memberOf + Int(i) * 4, as: Int32.self)
                }
                for (j, row) in table.laterRows.enumerated() { store(row, at: offsets.laterRows + j * 16) }
                for (k, entry) in (cells + [(Int32(GeodesicIndex.Reach.cellCount), Int32(count))]).enumerated() {
                    raw.storeBytes(of: entry.cell, toByteOffset: offsets.cells + k * 8, as: Int32.self)
                    raw.storeBytes(of: entry.start, toByteOffset: offsets.cells + k * 8 + 4, as: Int32.self)
                }
                var reasonStart = 0
                for (k, skipped) in table.skipped.enumerated() {
                    let at = offsets.skipped + k * 16
                    raw.storeBytes(of: Int64(skipped.line), toByteOffset: at, as: Int64.self)
                    raw.storeBytes(of: UInt32(reasonStart), toByteOffset: at + 8, as: UInt32.self)
                    let packed = UInt32(reasons[k].count) | (skipped.swapped ? 1 << 31 : 0)
                    raw.storeBytes(of: packed, toByteOffset: at + 12, as: UInt32.self)
                    for (j, byte) in reasons[k].enumerated() { raw[offsets.reasons + reasonStart + j] = byte }
                    reasonStart += reasons[k].count
                }
            }
            return bytes
        }
    }
}
