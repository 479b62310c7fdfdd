import Foundation
import RouteKit
import Testing

/// The table that `near` searches must give exactly the clubrooms, counts and warnings of the full reader.
@Suite struct CSVCatalogTableTests {
    /// A CSV catalog with what real files have: repeated ids in any order, rows without an id, quoted fields
    /// with line breaks and doubled quotes, decimal commas, blank lines, CR, LF and CRLF, bad coordinates.
    static func catalog(rows: Int, seed: UInt64, quotes: Bool, sortedIds: Bool) -> [UInt8] {
        var random = SeededRandom(state: seed)
        var text = "Realty_ID,Unit,RegistrationNumber,MeetingDate_WeekDay,AgeFrom,lat,lon,note\n"
        let breaks = ["\n", "\r\n", "\r"]
        for i in 0..<rows {
            let id: String
            switch Int.random(in: 0..<10, using: &random) {
            case 0: id = ""
            case 1: id = " 00\(i % 7) "
            default: id = sortedIds ? "\(i / 3)" : "\(Int.random(in: 0..<(rows / 2 + 1), using: &random))"
            }
            let lat = Double.random(in: -89...89, using: &random)
            let lon = Double.random(in: -179...179, using: &random)
            var latText = String(format: "%.6f", lat)
            var lonText = String(format: "%.6f", lon)
            switch Int.random(in: 0..<30, using: &random) {
            case 0: latText = ""
            case 1: lonText = "abc"
            case 2: latText = "123.5"
            case 3 where quotes:
                latText = "\"" + latText.replacingOccurrences(of: ".", with: ",") + "\""
            default: break
            }
            let unit = quotes && i % 5 == 0 ? "\"\(i % 13). oddíl \"\"Racek\"\"\nBrno\"" : "\(i % 13). oddíl"
            let day = ["pondělí", "úterý", "", "středa"][i % 4]
            text += "\(id),\(unit),621.\(i % 9),\(day),\(i % 15),\(latText),\(lonText),n\(i % 3)"
            text += sortedIds ? "\n" : breaks[Int.random(in: 0..<3, using: &random)]
            if i % 97 == 0 { text += "\n" }
        }
        return Array(text.utf8)
    }

    func expectSame(_ bytes: [UInt8], columns: CSVCatalogReader.Columns = .init()) throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Fixture.write(bytes, name: "catalog.csv", in: folder)
        let catalog = try ClubroomCatalog.read(paths: [path], columns: columns)
        let table = try #require(try CSVCatalogTable(path: path, columns: columns, progress: nil))
        #expect(table.count == catalog.clubrooms.count)
        #expect(table.coordinates == catalog.clubrooms.map(\.coordinate))
        #expect(table.summary.skipped == catalog.skipped)
        #expect(table.summary.recordCount == catalog.recordCount)
        #expect(table.summary.swappedLooking == catalog.swappedLooking)
        for i in 0..<min(table.count, catalog.clubrooms.count) where table.clubroom(at: i) != catalog.clubrooms[i] {
            Issue.record("clubroom \(i) differs: \(table.clubroom(at: i)) vs \(catalog.clubrooms[i])")
            break
        }
    }

    @Test(arguments: [(1, true, false), (2, false, false), (3, true, true), (4, false, true)])
    func aSmallCatalogGivesWhatTheFullReaderGives(seed: UInt64, quotes: Bool, sortedIds: Bool) throws {
        try expectSame(Self.catalog(rows: 3_000, seed: seed, quotes: quotes, sortedIds: sortedIds))
    }

    /// Over a mebibyte without quotes, the file is read in pieces on all cores: the same answer.
    @Test(arguments: [false, true])
    func aLargeCatalogReadInPiecesGivesWhatTheFullReaderGives(sortedIds: Bool) throws {
        let bytes = Self.catalog(rows: 30_000, seed: 9, quotes: false, sortedIds: sortedIds)
        #expect(bytes.count > 1 << 20)
        try expectSame(bytes)
    }

    /// A catalog of places only (no unit, no meeting) builds each clubroom of one row straight from it: the
    /// same clubrooms, with every field of a place, columns named twice, blank and quoted values, and ids
    /// missing or repeated.
    @Test(arguments: [false, true])
    func aCatalogOfPlacesOnlyGivesWhatTheFullReaderGives(quotes: Bool) throws {
        var random = SeededRandom(state: quotes ? 5 : 6)
        var text = "Realty_ID,name,lat,lon,type,street,city,postcode,description,note,Occupation_Note,city,id\n"
        let values = ["", " ", "Brno", " Nové Město ", "a, b", "\"x\"\"y\"\"\"", "\"two\nlines\"", "602 00"]
        for _ in 0..<2_000 {
            func value() -> String {
                let v = values[Int.random(in: 0..<values.count, using: &random)]
                return quotes || !v.hasPrefix("\"") ? v : "plain"
            }
            let id = Int.random(in: 0..<8, using: &random) == 0 ? "" : "\(Int.random(in: 0..<1_500, using: &random))"
            let lat = String(Double.random(in: -80...80, using: &random))
            let lon = String(Double.random(in: -170...170, using: &random))
            let rest = (0..<8).map { _ in value() }.joined(separator: ",")
            let last = Int.random(in: 0..<3, using: &random) == 0 ? "" : ",\(value())"  // some rows end early
            text += "\(id),\(value()),\(lat),\(lon),\(rest)\(last)\n"
        }
        try expectSame(Array(text.utf8))
    }

    @Test func edgeCasesOfTheFormat() throws {
        let cases = [
            "\u{FEFF}lat;lon;Realty_ID\n49,1;16,5;7\n49,2;16,6;7\n",
            "lat,lon,id,Realty_ID\n49.1,16.5,1,\n49.2,16.6,2,x\n49.3,16.7,3,x\n",
            "lat\tlon\tname\n  49.1 \t 16.5\t\"a\"b\"\n\n   \n49.2\t16.6\n",
            "y,x\n49.1,16.5\n49.2,16.6,extra,columns\n49.3",
            "lat,lon,Realty_ID\n49.1,16.5,007\n49.2,16.6,7\n49.3,16.7,7\n49.4,16.8,007\n",
            "lat,lon,Realty_ID\n49.1,16.5,3\n49.2,16.6,1\n49.3,16.7,3\n",
            "lat,lon\n\"\"",
            // Without quotes and carriage returns, read a line at a time: blank lines, short and long rows,
            // bad coordinates, spaces around values, a last row without a line feed.
            "lat,lon,name,Realty_ID\n49.1,16.5,a,1\n \n\t\n\n49.2,16.6,b\n,16.7,c,2\n49.3,abc,d,3\n95,10,e,4\n"
                + "49.4 , 16.8 ,f, 5 ,x,y\n49.45;16.85\n49.5,16.9",
            "Realty_ID;name;lat;lon\n7;a;49,1;16,5\n8;b;49.2\n7;c;49.3;16.7;extra\n;d;;\n9",
        ]
        for text in cases { try expectSame(Array(text.utf8)) }
        try expectSame(Array("a,b\n49.1,16.5\n".utf8), columns: .init(latitude: "a", longitude: "b"))
    }

    @Test func anIdLikeTheOnesGivenToRowsWithoutOneIsLeftToTheFullReader() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Fixture.write([], name: "c.csv", in: folder)
        let text = "lat,lon,Realty_ID\n49.1,16.5,\n49.2,16.6,\(path):2\n"
        _ = try Fixture.write(Array(text.utf8), name: "c.csv", in: folder)
        #expect(try CSVCatalogTable(path: path, columns: .init(), progress: nil) == nil)
        // Also when the row lies far from the positions of a search.
        let reach = GeodesicIndex.Reach(1_000, of: [Coordinate(latitude: -40, longitude: 170)])
        #expect(try CSVCatalogTable(path: path, columns: .init(), progress: nil, reach: reach) == nil)
        #expect(try ClubroomCatalog.read(paths: [path]).clubrooms.count == 1)
    }

    @Test func anUnclosedQuoteIsAnErrorAtItsPlace() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Fixture.write(Array("lat,lon\n49.1,16.5\n49.2,\"16.6\n".utf8), name: "c.csv", in: folder)
        #expect(
            throws: CatalogError.inFile(
                path: path,
                .malformed(
                    line: 3, column: 6,
                    reason:
                        "the quoted field that starts here is never closed"))
        ) {
            try CSVCatalogTable(path: path, columns: .init(), progress: nil)
        }
    }

    @Test(arguments: [1, 200])
    func searchesGiveWhatTheIndexGives(queries: Int) throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Self.catalog(rows: 5_000, seed: 5, quotes: true, sortedIds: false)
        let path = try Fixture.write(bytes, name: "catalog.csv", in: folder)
        let index = ClubroomIndex(try ClubroomCatalog.read(paths: [path]).clubrooms)
        let table = try #require(try CSVCatalogTable(path: path, columns: .init(), progress: nil))
        let search = CatalogTableSearch(table, queries: queries)
        var random = SeededRandom(state: 77)
        for _ in 0..<20 {
            let at = Coordinate(
                latitude: Double.random(in: -90...90, using: &random),
                longitude: Double.random(in: -180...180, using: &random))
            let radius = Double.random(in: 1_000...3_000_000, using: &random)
            #expect(search.clubrooms(within: radius, of: at) == index.clubrooms(within: radius, of: at))
        }
    }

    /// A table that keeps only the candidates of a few positions answers them as the whole catalog does: the
    /// same clubrooms (merged by id, at their first row's position), in the same order.
    @Test(arguments: [
        (11, true, false, 4_000), (12, false, false, 4_000), (13, false, true, 30_000), (14, false, false, 30_000),
    ])
    func aTableKeptForPositionsAnswersThemAsTheWholeCatalog(
        seed: UInt64, quotes: Bool, sortedIds: Bool, rows: Int
    ) throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Self.catalog(rows: rows, seed: seed, quotes: quotes, sortedIds: sortedIds)
        let path = try Fixture.write(bytes, name: "catalog.csv", in: folder)
        let catalog = try ClubroomCatalog.read(paths: [path])
        let index = ClubroomIndex(catalog.clubrooms)
        var random = SeededRandom(state: seed)
        for round in 0..<12 {
            // A few positions (searched by scanning the table) and many (through its index).
            let count = round % 3 == 2 ? 40 : Int.random(in: 1...CatalogTableSearch.scanLimit, using: &random)
            let positions = (0..<count).map { _ in
                Coordinate(
                    latitude: Double.random(in: -90...90, using: &random),
                    longitude: Double.random(in: -180...180, using: &random))
            }
            // Many positions with radii that keep few rows: the table is kept within the reach (its rows found
            // on all cores), not read whole.
            let radius = Double.random(in: 1_000...(count > 4 ? 200_000 : 1_500_000), using: &random)
            let reach = GeodesicIndex.Reach(radius, of: positions)
            let table = try #require(try CSVCatalogTable(path: path, columns: .init(), progress: nil, reach: reach))
            if count > 4 { #expect(table.keptWithinReach) }
            #expect(table.summary.skipped == catalog.skipped)
            #expect(table.summary.recordCount == catalog.recordCount)
            #expect(table.summary.swappedLooking == catalog.swappedLooking)
            #expect(table.hasUsableRows)
            let search = CatalogTableSearch(table, queries: positions.count)
            for at in positions {
                #expect(search.clubrooms(within: radius, of: at) == index.clubrooms(within: radius, of: at))
            }
        }
    }

    /// A clubroom is where its first row puts it: a later row of its id near the position does not bring it,
    /// and its rows far away are merged into it when its first row is near.
    @Test func aTableKeptForAPositionPlacesAClubroomAtItsFirstRow() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = """
            Realty_ID,lat,lon,MeetingDate_WeekDay,Unit
            7,10.0,10.0,pondělí,a
            8,49.20,16.60,úterý,b
            ,49.21,16.61,středa,c
            7,49.19,16.59,čtvrtek,d
            8,-30.0,100.0,pátek,e
            8,49.30,16.70,sobota,f

            9,49.2,
            """
        let path = try Fixture.write(Array(text.utf8), name: "catalog.csv", in: folder)
        let at = Coordinate(latitude: 49.2, longitude: 16.6)
        let catalog = try ClubroomCatalog.read(paths: [path])
        let expected = ClubroomIndex(catalog.clubrooms).clubrooms(within: 20_000, of: at)
        let table = try #require(
            try CSVCatalogTable(
                path: path, columns: .init(), progress: nil, reach: GeodesicIndex.Reach(20_000, of: [at])))
        #expect(table.count == 2)
        #expect(table.summary.skipped == catalog.skipped)
        let found = CatalogTableSearch(table, queries: 1).clubrooms(within: 20_000, of: at)
        #expect(found == expected)
        #expect(found.map(\.clubroom.id) == ["8", "\(path):4"])
        #expect(found.first?.clubroom.meetings.count == 3)
    }

    /// Far more candidates than a few positions usually have: the table reads every row instead, and still
    /// answers the same.
    @Test func aReachOverMostOfTheGlobeReadsEveryRow() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Self.catalog(rows: 6_000, seed: 21, quotes: false, sortedIds: false)
        let path = try Fixture.write(bytes, name: "catalog.csv", in: folder)
        let catalog = try ClubroomCatalog.read(paths: [path])
        let at = Coordinate(latitude: 10, longitude: 20)
        let table = try #require(
            try CSVCatalogTable(
                path: path, columns: .init(), progress: nil, reach: GeodesicIndex.Reach(19_000_000, of: [at])))
        #expect(table.count == catalog.clubrooms.count)
        #expect(
            CatalogTableSearch(table, queries: 1).clubrooms(within: 19_000_000, of: at)
                == ClubroomIndex(catalog.clubrooms).clubrooms(within: 19_000_000, of: at))
    }
}
