import Foundation
import RouteKit
import Testing

/// A table kept between runs must give exactly what reading the catalog gives, and only while the catalog is
/// the one it was kept for; a damaged one must be read past, never trusted.
@Suite struct CatalogTableCacheTests {
    /// A temporary folder with a catalog of a megabyte or more (what real files have, see
    /// ``CSVCatalogTableTests/catalog(rows:seed:quotes:sortedIds:)``) and a cache folder in it.
    struct Setting {
        var folder: URL
        var path: String
        var cache: CatalogTableCache

        init(quotes: Bool = true, sortedIds: Bool = false, bytes: [UInt8]? = nil) throws {
            folder = try Fixture.temporaryFolder()
            let text =
                bytes ?? CSVCatalogTableTests.catalog(rows: 24_000, seed: 7, quotes: quotes, sortedIds: sortedIds)
            #expect(text.count >= CatalogTableCache.minimumBytes)
            path = try Fixture.write(text, name: "catalog.csv", in: folder)
            usleep(20_000)  // a table is kept only of a file whose times have settled (10 ms)
            cache = CatalogTableCache(folder: folder.appendingPathComponent("cache/routekit").path)
        }

        /// The tables kept, by name.
        var tables: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: cache.folder)) ?? []).sorted()
        }

        /// The one table kept.
        var table: URL { URL(fileURLWithPath: cache.folder).appendingPathComponent(tables[0]) }

        func remove() { try? FileManager.default.removeItem(at: folder) }

        /// The catalog's table read afresh, its table kept on the way.
        func plainAndKept() throws -> CSVCatalogTable {
            let plain = try #require(try CSVCatalogTable(path: path, columns: .init(), progress: nil))
            _ = try CSVCatalogTable(path: path, columns: .init(), progress: nil, cache: cache, keepsTable: true)
            return plain
        }
    }

    func expectSame(_ a: CSVCatalogTable, _ b: CSVCatalogTable, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.count == b.count, sourceLocation: sourceLocation)
        #expect(a.coordinates == b.coordinates, sourceLocation: sourceLocation)
        #expect(a.summary.skipped == b.summary.skipped, sourceLocation: sourceLocation)
        #expect(a.summary.recordCount == b.summary.recordCount, sourceLocation: sourceLocation)
        #expect(a.summary.swappedLooking == b.summary.swappedLooking, sourceLocation: sourceLocation)
        guard a.count == b.count else { return }
        let all = Array(0..<a.count)
        #expect(a.clubrooms(at: all) == b.clubrooms(at: all), sourceLocation: sourceLocation)
    }

    static let positions = [
        Coordinate(latitude: 50, longitude: 14), Coordinate(latitude: -33.9, longitude: 18.4),
        Coordinate(latitude: 89.5, longitude: 0), Coordinate(latitude: 0, longitude: 179.9),
        Coordinate(latitude: 35.7, longitude: 139.7), Coordinate(latitude: -60, longitude: -70),
    ]

    @Test(arguments: [(true, false), (false, true)])
    func aKeptTableGivesWhatTheCatalogGives(quotes: Bool, sortedIds: Bool) throws {
        let setting = try Setting(quotes: quotes, sortedIds: sortedIds)
        defer { setting.remove() }
        let path = setting.path
        let plain = try #require(try CSVCatalogTable(path: path, columns: .init(), progress: nil))
        #expect(plain.summary.skipped.count > 100 && plain.summary.swappedLooking > 0)
        let first = try #require(
            try CSVCatalogTable(path: path, columns: .init(), progress: nil, cache: setting.cache, keepsTable: true))
        #expect(!first.readFromCache)
        #expect(setting.tables.count == 1)
        expectSame(first, plain)
        let second = try #require(
            try CSVCatalogTable(path: path, columns: .init(), progress: nil, cache: setting.cache))
        #expect(second.readFromCache)
        expectSame(second, plain)
        // Within a reach, a kept table gives what reading the catalog for the reach gives, and so does a table
        // read whole (to be kept) and then narrowed to the reach.
        for radius in [1_000.0, 300_000, 2_000_000] {
            let reach = GeodesicIndex.Reach(radius, of: Self.positions)
            let near = try #require(try CSVCatalogTable(path: path, columns: .init(), progress: nil, reach: reach))
            let kept = try #require(
                try CSVCatalogTable(path: path, columns: .init(), progress: nil, reach: reach, cache: setting.cache))
            #expect(kept.readFromCache && kept.keptWithinReach)
            let keeping = try #require(
                try CSVCatalogTable(
                    path: path, columns: .init(), progress: nil, reach: reach,
                    cache: CatalogTableCache(folder: setting.folder.appendingPathComponent("other-\(radius)").path),
                    keepsTable: true))
            #expect(!keeping.readFromCache && keeping.keptWithinReach && kept.searchesByCells)
            if near.keptWithinReach { expectSame(keeping, near) }
            // The kept table is searched in the reach's cells: what the catalog's table for the reach answers.
            let byCells = CatalogTableSearch(kept, queries: 100)
            let byIndex = CatalogTableSearch(near, queries: 100)
            for position in Self.positions {
                let answer = byIndex.clubrooms(within: radius, of: position)
                #expect(byCells.clubrooms(within: radius, of: position) == answer, "\(position) \(radius) m")
            }
        }
    }

    /// A kept table taken whole is searched by its cells: the same matches, distances and bearings, in the
    /// same order, as the index over the catalog's table, wherever and however far the search goes.
    @Test func searchingByCellsGivesWhatTheIndexGives() throws {
        let setting = try Setting(quotes: false, sortedIds: false)
        defer { setting.remove() }
        let path = setting.path
        let plain = try setting.plainAndKept()
        let kept = try #require(try CSVCatalogTable(path: path, columns: .init(), progress: nil, cache: setting.cache))
        #expect(kept.searchesByCells && !plain.searchesByCells)
        let index = CatalogTableSearch(plain, queries: 100)
        let cells = CatalogTableSearch(kept, queries: 100)
        var random = SeededRandom(state: 11)
        // Clubrooms' own positions (distance 0), the poles, the antimeridian, and random places.
        var centers =
            plain.coordinates.prefix(20) + Self.positions + [
                Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 180),
                Coordinate(latitude: 10, longitude: 180), Coordinate(latitude: -10, longitude: -180),
            ]
        for _ in 0..<60 {
            centers.append(
                Coordinate(
                    latitude: Double.random(in: -90...90, using: &random),
                    longitude: Double.random(in: -180...180, using: &random)))
        }
        var found = 0
        for center in centers {
            for radius in [0.0, 1, 60_000, 150_000, 900_000, 3_000_000] {
                let a = index.clubrooms(within: radius, of: center)
                let b = cells.clubrooms(within: radius, of: center)
                found += a.count
                guard a.count == b.count else {
                    Issue.record("\(center) \(radius) m: \(a.count) matches by the index, \(b.count) by cells")
                    continue
                }
                for (x, y) in zip(a, b) where x != y {
                    Issue.record("\(center) \(radius) m: \(x) vs \(y)")
                    break
                }
            }
        }
        #expect(found > 10_000)
    }

    /// A table of many clubrooms (more than a sixteenth of the grid's cells) is laid out by counting the
    /// cells, a small one by sorting: both give the catalog's table.
    @Test func aTableOfManyClubroomsGivesTheCatalogsToo() throws {
        var random = SeededRandom(state: 5)
        var text = "id,lat,lon\n"
        for k in 0..<132_000 {
            let lat = Double.random(in: -89...89, using: &random)
            let lon = Double.random(in: -180...180, using: &random)
            text += "\(k),\((lat * 1e5).rounded() / 1e5),\((lon * 1e5).rounded() / 1e5)\n"
        }
        let setting = try Setting(bytes: Array(text.utf8))
        defer { setting.remove() }
        let plain = try #require(try CSVCatalogTable(path: setting.path, columns: .init(), progress: nil))
        _ = try CSVCatalogTable(
            path: setting.path, columns: .init(), progress: nil, cache: setting.cache, keepsTable: true)
        let kept = try #require(
            try CSVCatalogTable(path: setting.path, columns: .init(), progress: nil, cache: setting.cache))
        #expect(kept.searchesByCells && kept.count * 16 >= GeodesicIndex.Reach.cellCount)
        expectSame(kept, plain)
        let index = CatalogTableSearch(plain, queries: 100)
        let cells = CatalogTableSearch(kept, queries: 100)
        for center in Self.positions {
            #expect(index.clubrooms(within: 400_000, of: center) == cells.clubrooms(within: 400_000, of: center))
        }
    }

    @Test func aTableIsKeptOnlyWhenAskedAndOfLargeCatalogs() throws {
        let setting = try Setting()
        defer { setting.remove() }
        _ = try CSVCatalogTable(path: setting.path, columns: .init(), progress: nil, cache: setting.cache)
        #expect(setting.tables.isEmpty)
        let small = try Fixture.write(Array("id,lat,lon\n1,50,14\n".utf8), name: "small.csv", in: setting.folder)
        _ = try CSVCatalogTable(path: small, columns: .init(), progress: nil, cache: setting.cache, keepsTable: true)
        #expect(setting.tables.isEmpty)
        // Ids with a colon could clash with the FILE:LINE ids of rows without one, depending on how the file
        // is named: such a catalog is read every time.
        let colons = try Fixture.write(
            Array(("id,lat,lon,note\na:1,50,14," + String(repeating: "x", count: 1 << 20) + "\n").utf8),
            name: "colons.csv", in: setting.folder)
        _ = try CSVCatalogTable(path: colons, columns: .init(), progress: nil, cache: setting.cache, keepsTable: true)
        #expect(setting.tables.isEmpty)
    }

    /// A catalog written an instant ago may be written again within the resolution of its times, which would
    /// then not tell: its table is kept only once its times have settled.
    @Test func aCatalogWhoseTimesHaveNotSettledIsNotKept() throws {
        let setting = try Setting()
        defer { setting.remove() }
        let fresh = try Fixture.write(
            Array(("id,lat,lon,note\n1,50,14," + String(repeating: "x", count: 1 << 20) + "\n").utf8),
            name: "fresh.csv", in: setting.folder)
        // Its time of change a minute ahead (a clock that tells no more than that): not settled.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: fresh)
        _ = try CSVCatalogTable(path: fresh, columns: .init(), progress: nil, cache: setting.cache, keepsTable: true)
        #expect(setting.tables.isEmpty)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: fresh)
        usleep(20_000)
        _ = try CSVCatalogTable(path: fresh, columns: .init(), progress: nil, cache: setting.cache, keepsTable: true)
        #expect(setting.tables.count == 1)
    }

    @Test func aCatalogChangedSinceOrReadWithOtherColumnsIsReadAfresh() throws {
        let setting = try Setting()
        defer { setting.remove() }
        let path = setting.path
        _ = try CSVCatalogTable(path: path, columns: .init(), progress: nil, cache: setting.cache, keepsTable: true)
        // Another column for the latitudes: the kept table is not used.
        let swapped = CSVCatalogReader.Columns(latitude: "lon", longitude: "lat")
        let other = try #require(try CSVCatalogTable(path: path, columns: swapped, progress: nil, cache: setting.cache))
        #expect(!other.readFromCache)
        // A row added (the same size would do: the time of the change differs).
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("999999,x,621,po,1,50.5,14.5,n\n".utf8))
        try handle.close()
        let changed = try #require(
            try CSVCatalogTable(path: path, columns: .init(), progress: nil, cache: setting.cache))
        #expect(!changed.readFromCache)
        expectSame(changed, try #require(try CSVCatalogTable(path: path, columns: .init(), progress: nil)))
        #expect(changed.coordinates.last == Coordinate(latitude: 50.5, longitude: 14.5))
    }

    /// Where the sections of a kept table of `n` clubrooms start (see ``CatalogTableCache/Layout``): the
    /// members' positions, their first rows, the later rows.
    static func sections(_ n: Int) -> (positions: Int, firstRows: Int, laterRows: Int) {
        let padded = (n * 4 + 7) / 8 * 8
        let positions = 17 * 8 + padded
        return (positions, positions + n * 16, positions + 2 * n * 16 + padded)
    }

    /// Damages, each at a byte offset of the kept table (of `n` clubrooms) and the value written there.
    static let damages: [(what: String, offset: @Sendable (Int) -> Int, value: Int64)] = [
        ("a clubroom count beyond the file", { _ in 11 * 8 }, 1 << 40),
        ("an unknown text offset", { _ in 10 * 8 }, 1),
        ("a member that is no clubroom", { _ in 17 * 8 }, -1),
        ("a position that is no coordinate", { n in sections(n).positions }, Int64(bitPattern: Double.nan.bitPattern)),
        ("a position far beyond the globe", { n in sections(n).positions }, Int64(bitPattern: (1e300).bitPattern)),
        ("a first row beyond the text", { n in sections(n).firstRows }, 1 << 40),
        ("a first row before the text", { n in sections(n).firstRows }, -5),
        ("a chain to a row beyond the later rows", { n in sections(n).firstRows + 8 }, Int64(Int32.max) << 32 | 1),
        ("a later row chained to itself", { n in sections(n).laterRows + 8 }, 1),
        ("a first row chained into another clubroom's rows", { n in sections(n).firstRows + 16 + 8 }, 1),
        ("a record count that does not add up", { _ in 14 * 8 }, 3),
    ]

    @Test(arguments: 0..<damages.count)
    func aDamagedTableIsReadPast(damage: Int) throws {
        let setting = try Setting(quotes: false, sortedIds: true)
        defer { setting.remove() }
        let path = setting.path
        let plain = try setting.plainAndKept()
        var bytes = try Data(contentsOf: setting.table)
        let (what, offset, value) = Self.damages[damage]
        // A chain from a first row to later row 0 exists: ids come in threes.
        let at = offset(plain.count)
        withUnsafeBytes(of: value) { bytes.replaceSubrange(at..<(at + 8), with: $0) }
        try bytes.write(to: setting.table)
        let read = try #require(try CSVCatalogTable(path: path, columns: .init(), progress: nil, cache: setting.cache))
        #expect(!read.readFromCache, "\(what)")
        expectSame(read, plain)
        // Taken for a reach over every cell, the table's cells are all checked: the damage is found too.
        let reach = GeodesicIndex.Reach(20_000_000, of: [Coordinate(latitude: 0, longitude: 0)])
        let near = try #require(
            try CSVCatalogTable(path: path, columns: .init(), progress: nil, reach: reach, cache: setting.cache))
        #expect(!near.readFromCache, "\(what), within a reach")
        for cut in [0, 8, 100, bytes.count - 8] {
            try bytes.prefix(cut).write(to: setting.table)
            let short = try #require(
                try CSVCatalogTable(path: path, columns: .init(), progress: nil, cache: setting.cache))
            #expect(!short.readFromCache)
        }
    }

    /// Cells whose members lie far outside the table, at the start of a run that one core checks: the
    /// table is refused before any member of theirs is read (it was read out of bounds, and crashed).
    @Test func cellsPointingOutsideTheMembersAreRefusedUnread() throws {
        let setting = try Setting(quotes: false, sortedIds: true)
        defer { setting.remove() }
        let path = setting.path
        let plain = try setting.plainAndKept()
        var bytes = try Data(contentsOf: setting.table)
        func header(_ k: Int) -> Int {
            Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: k * 8, as: Int64.self) })
        }
        let (laterCount, cellCount) = (header(12), header(13))
        let runs = min(cellCount, processorCount * 4)
        #expect(runs > 1)
        // The second run's first entry and the next: (cell, start) pairs of Int32, starts 2^30 and 2^30 + 5.
        let entry = cellCount / runs
        let directory = Self.sections(plain.count).laterRows + laterCount * 16
        for (k, start) in [(entry, Int32(1 << 30)), (entry + 1, Int32(1 << 30) + 5)] {
            withUnsafeBytes(of: start) {
                bytes.replaceSubrange((directory + k * 8 + 4)..<(directory + k * 8 + 8), with: $0)
            }
        }
        try bytes.write(to: setting.table)
        let read = try #require(try CSVCatalogTable(path: path, columns: .init(), progress: nil, cache: setting.cache))
        #expect(!read.readFromCache)
        expectSame(read, plain)
    }

    @Test func theFolderKeepsTheTablesUsedLast() throws {
        let setting = try Setting()
        defer { setting.remove() }
        let padding = String(repeating: "x", count: 1 << 20)
        for k in 0..<(CatalogTableCache.keptTables + 2) {
            let path = try Fixture.write(
                Array("id,lat,lon,note\n\(k),50,14,\(padding)\n".utf8), name: "c\(k).csv", in: setting.folder)
            usleep(20_000)
            _ = try CSVCatalogTable(path: path, columns: .init(), progress: nil, cache: setting.cache, keepsTable: true)
        }
        #expect(setting.tables.count == CatalogTableCache.keptTables)
        #expect(setting.tables.allSatisfy { $0.hasPrefix("catalog-") && $0.hasSuffix(".table") })
    }

    @Test func aFolderThatCannotBeMadeKeepsNothingAndFailsNothing() throws {
        let setting = try Setting()
        defer { setting.remove() }
        let blocked = try Fixture.write([1], name: "blocked", in: setting.folder)
        let cache = CatalogTableCache(folder: blocked + "/routekit")
        let table = try #require(
            try CSVCatalogTable(path: setting.path, columns: .init(), progress: nil, cache: cache, keepsTable: true))
        expectSame(table, try #require(try CSVCatalogTable(path: setting.path, columns: .init(), progress: nil)))
    }

    @Test func theFolderComesFromTheEnvironment() {
        func folder(_ values: [String: String]) -> String? { CatalogTableCache.folder { values[$0] } }
        #expect(folder(["ROUTEKIT_CACHE": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"]) == "/c")
        #expect(folder(["ROUTEKIT_CACHE": "off", "HOME": "/h"]) == nil)
        #expect(folder(["XDG_CACHE_HOME": "/x", "HOME": "/h"]) == "/x/routekit")
        #expect(folder(["XDG_CACHE_HOME": "relative", "HOME": "/h"]) == "/h/.cache/routekit")
        #expect(folder([:]) == nil)
    }
}
