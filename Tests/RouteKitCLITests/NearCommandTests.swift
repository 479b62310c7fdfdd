import Foundation
import Testing

@Suite struct NearCommandTests {
    static let xml = CLI.root.appendingPathComponent("data/clubrooms/clubrooms.xml").path
    static let csv = CLI.root.appendingPathComponent("data/clubrooms/clubrooms.csv").path

    @Test func helpMatchesItsGoldenFile() throws {
        let run = try CLI.run(["near", "--help"])
        let golden = CLI.golden.appendingPathComponent("near-help.txt")
        if ProcessInfo.processInfo.environment["ROUTEKIT_UPDATE_GOLDEN"] == "1" {
            try run.standardOutput.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(run.standardOutput == (try String(contentsOf: golden, encoding: .utf8)))
    }

    @Test(arguments: [
        "49.1951,16.6068", "49.1951, 16.6068", "49.1951 16.6068", "49°11'42.4\"N 16°36'24.5\"E",
        "N 49° 11.707' E 16° 36.408'",
    ])
    func acceptsThePositionFormsUsersPaste(position: String) throws {
        let run = try CLI.run(["near", "--at", position, "--radius", "5km", "--format", "csv", "-q", Self.xml])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.split(separator: "\n").count > 3)
    }

    @Test func theXMLAndTheCSVGiveTheSameAnswerNearestFirst() throws {
        let a = try CLI.run(["near", "--at", "50.0755,14.4378", "--format", "geojson", "-q", Self.xml])
        let b = try CLI.run(["near", "--at", "50.0755,14.4378", "--format", "geojson", "-q", Self.csv])
        #expect(a.status == 0 && b.status == 0)
        #expect(a.standardOutput == b.standardOutput)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(a.standardOutput.utf8)) as? [String: Any])
        let features = try #require(json["features"] as? [[String: Any]])
        let distances = features.compactMap { ($0["properties"] as? [String: Any])?["distance_m"] as? Double }
        #expect(!distances.isEmpty && distances == distances.sorted() && distances.last! <= 60_000)
        let first = try #require(features.first?["properties"] as? [String: Any])
        for key in ["id", "name", "distance_m", "bearing_deg", "units", "meetings", "city"] {
            #expect(first[key] != nil, "\(key)")
        }
    }

    @Test func filtersByUnitAndLimits() throws {
        let run = try CLI.run([
            "near", "--at", "49.1951,16.6068", "--unit", "621.02", "--format", "csv", "-q", Self.xml,
        ])
        let rows = run.standardOutput.split(separator: "\n").dropFirst()
        #expect(!rows.isEmpty && rows.allSatisfy { $0.contains("(621.02.") })
        let limited = try CLI.run([
            "near", "--at", "49.1951,16.6068", "--limit", "3", "--format", "csv", "-q", Self.xml,
        ])
        #expect(limited.standardOutput.split(separator: "\n").count == 4)
    }

    @Test func answersManyPositionsFromAFile() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let positions = folder.appendingPathComponent("units.csv")
        try Data("lat,lon,label\n49.1951,16.6068,Brno\n50.0755,14.4378,Praha\n".utf8).write(to: positions)
        let run = try CLI.run([
            "near", "--at-file", positions.path, "--radius", "3km", "--format", "csv", "-q", Self.xml,
        ])
        #expect(run.status == 0)
        let queries = Set(
            run.standardOutput.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) })
        #expect(queries == ["Brno", "Praha"])
        let geojson = try CLI.run([
            "near", "--at-file", positions.path, "--radius", "3km", "--format", "geojson", "-q", Self.xml,
        ])
        #expect(geojson.standardOutput.contains("\"query\":\"Praha\""))
    }

    /// Many positions over a CSV catalog keep only the rows near them and answer on all cores: the same
    /// bytes as measuring every clubroom (`--exhaustive`), in CSV and GeoJSON. Among the positions: a
    /// clubroom's own (distance 0) and one due north of another (bearing 0, never 360).
    @Test func manyPositionsOverACSVCatalogAnswerAsMeasuringEveryClubroom() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines = ["lat,lon,label", "50.042912,14.387886,at a clubroom", "49.9,14.387886,due south of it"]
        for k in 0..<40 {
            lines.append("\(48.6 + Double(k % 8) * 0.35),\(12.2 + Double(k / 8) * 1.3),p\(k)")
        }
        lines.append("-33.9,151.2,Sydney")
        let positions = folder.appendingPathComponent("positions.csv")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: positions)
        for format in ["csv", "geojson"] {
            let base = ["near", "--at-file", positions.path, "--radius", "25km", "--format", format, "-q", Self.csv]
            let table = try CLI.run(base)
            let every = try CLI.run(base + ["--exhaustive"])
            #expect(table.status == 0 && every.status == 0)
            #expect(table.standardOutput == every.standardOutput, "\(format)")
            #expect(table.standardOutput.count > 10_000)
        }
        let csv = try CLI.run([
            "near", "--at-file", positions.path, "--radius", "25km", "--format", "csv", "-q", Self.csv,
        ])
        let rows = csv.standardOutput.split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        let atClubroom = try #require(rows.first { $0[0] == "at a clubroom" })
        #expect(atClubroom[5] == "0")
        let south = try #require(rows.first { $0[0] == "due south of it" && $0[3] == "50.042912" })
        #expect(south[6] == "0" && south[7] == "N")
        #expect(!rows.contains { $0[6] == "360" || $0[6].hasPrefix("-") })
    }

    /// A search of many positions over a CSV catalog of a megabyte or more keeps its table (`--cache`), and
    /// the next search reads that instead of the catalog: the same bytes out as without a cache and as
    /// measuring every clubroom; no file but the table is left in the folder, and a folder that cannot be made
    /// fails nothing.
    @Test func aKeptTableAnswersAsTheCatalog() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The sample catalog (a byte-order mark, semicolons, decimal commas, CRLF, rows grouped by place) with
        // a column of notes, one of them a megabyte long.
        var lines = try String(contentsOfFile: Self.csv, encoding: .utf8).split(whereSeparator: \.isNewline).map(
            String.init)
        lines = lines.enumerated().map { k, line in
            line + (k == 0 ? ";Note" : k == 700 ? ";" + String(repeating: "x", count: 1 << 20) : ";n\(k)")
        }
        let catalog = folder.appendingPathComponent("clubrooms.csv")
        try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: catalog)
        var positions = "lat,lon\n"
        for k in 0..<12 { positions += "\(48.6 + Double(k % 4) * 0.5),\(12.2 + Double(k / 4) * 2)\n" }
        let at = folder.appendingPathComponent("positions.csv")
        try Data(positions.utf8).write(to: at)
        let cache = folder.appendingPathComponent("cache").path
        let base = ["near", "--at-file", at.path, "--radius", "40km", "--format", "csv", "-q", catalog.path]
        let plain = try CLI.run(base + ["--cache", "off"])
        let every = try CLI.run(base + ["--exhaustive"])
        let first = try CLI.run(base + ["--cache", cache, "-v"])
        let second = try CLI.run(base + ["--cache", cache, "-v"])
        #expect([plain.status, every.status, first.status, second.status] == [0, 0, 0, 0])
        #expect(plain.standardOutput.count > 10_000)
        #expect(first.standardOutput == plain.standardOutput && second.standardOutput == plain.standardOutput)
        #expect(every.standardOutput == plain.standardOutput)
        #expect(!first.standardError.contains("kept table"))
        #expect(
            second.standardError.contains("took the kept table of 310 clubrooms (its cells near the positions checked)")
        )
        let kept = try FileManager.default.contentsOfDirectory(atPath: cache)
        #expect(kept.count == 1 && kept[0].hasPrefix("catalog-") && kept[0].hasSuffix(".table"))
        // One position reads the kept table too, and keeps none of its own.
        let one = try CLI.run(["near", "--at", "49.2,16.6", "--cache", cache, "-v", "-q", catalog.path])
        #expect(one.status == 0 && one.standardError.contains("took the kept table"))
        let blocked = try CLI.run(base + ["--cache", catalog.path + "/cache"])
        #expect(blocked.status == 0 && blocked.standardOutput == plain.standardOutput)
        let empty = try CLI.run(base + ["--cache", ""])
        #expect(empty.status == 64 && empty.standardError.contains("--cache takes a folder"))
    }

    /// Names with commas, quotes and line breaks are quoted as RFC 4180 says, quotes doubled.
    @Test func theCSVQuotesWhatNeedsIt() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = folder.appendingPathComponent("catalog.csv")
        let text =
            "id,name,lat,lon\n1,\"Klub \"\"Na, kopci\"\"\",49.2,16.6\n"
            + "2,\"Two\r\nlines\",49.21,16.61\n3,Plain,49.22,16.62\n"
        try Data(text.utf8).write(to: catalog)
        let run = try CLI.run(["near", "--at", "49.2,16.6", "--radius", "5km", "--format", "csv", "-q", catalog.path])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("\"49.2,16.6\",1,\"Klub \"\"Na, kopci\"\"\",49.2,16.6,0,"))
        #expect(run.standardOutput.contains(",2,\"Two\r\nlines\",49.21,"))
        #expect(run.standardOutput.contains(",3,Plain,49.22,"))
    }

    /// A catalog of places alone is written from its rows' own fields (no clubroom built) where they can be:
    /// the same bytes as measuring every clubroom, for rows with quotes, white space, accents, no name, no id,
    /// bytes that are not UTF-8 and a place of two rows (the last three built as clubrooms).
    @Test func aCatalogOfPlacesIsWrittenFromItsRowsAsFromItsClubrooms() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A byte-order mark: the text is taken as UTF-8 as it is, its bad bytes too.
        var text = Data([0xEF, 0xBB, 0xBF])
        text.append(
            Data(
                ("id,name,lat,lon,street,city,postcode\n"
                    + "1,\"Klub \"\"U lípy\"\", Brno\",49.2,16.6,Lipová 3,Brno,602 00\n"
                    + " 2 ,  Spaced  ,49.21,16.61, , Brno ,\n"
                    + "3,,49.22,16.62,,,\n"
                    + ",Without id,49.23,16.63,,,\n"
                    + "5,Bad ").utf8))
        text.append(contentsOf: [0xFF, 0xC3])
        text.append(
            Data(
                (" bytes,49.24,16.64,,,\n"
                    + "6,Žabovřesky,49.25,16.65,Horova,Brno,616 00\n"
                    + "7,Twice,49.26,16.66,,,\n"
                    + "7,Twice,49.26,16.66,Second row,,\n").utf8))
        let catalog = folder.appendingPathComponent("places.csv")
        try text.write(to: catalog)
        let positions = folder.appendingPathComponent("positions.csv")
        try Data("lat,lon\n49.2,16.6\n49.25,16.65\n49.3,16.7\n49.1,16.5\n50,14\n".utf8).write(to: positions)
        let base = ["near", "--at-file", positions.path, "--radius", "20km", "--format", "csv", "-q", catalog.path]
        let rows = try CLI.run(base + ["--cache", "off"])
        let every = try CLI.run(base + ["--exhaustive"])
        #expect(rows.status == 0 && every.status == 0)
        #expect(rows.standardOutput == every.standardOutput)
        let out = rows.standardOutput
        #expect(
            out.contains(",1,\"Klub \"\"U lípy\"\", Brno\",49.2,16.6,0,")
                && out.contains(",Lipová 3,Brno,602 00,,,false\n"))
        #expect(out.contains(",2,Spaced,49.21,16.61,") && out.contains(",3,3,49.22,16.62,"))
        #expect(out.contains(":5,Without id,49.23,") && out.contains(",5,Bad \u{FFFD}\u{FFFD} bytes,49.24,"))
        #expect(out.contains(",6,Žabovřesky,49.25,16.65,") && out.contains(",7,Twice,49.26,16.66,"))
    }

    @Test func refusesABareRadiusAndReportsUnusableCatalogs() throws {
        let bare = try CLI.run(["near", "--at", "49.2,16.6", "--radius", "60", Self.xml])
        #expect(bare.status == 64)
        #expect(
            bare.standardError.contains(
                "needs a unit, for example 200m or 1.5km (a bare number could be read as miles)"))
        #expect(try CLI.run(["near", Self.xml]).status == 64)
        #expect(try CLI.run(["near", "--at", "91,16", Self.xml]).status == 64)
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let swapped = folder.appendingPathComponent("swapped.csv")
        try Data("id,lat,lon\n1,116.6,49.2\n2,116.5,49.1\n".utf8).write(to: swapped)
        let run = try CLI.run(["near", "--at", "49.2,16.6", swapped.path])
        #expect(run.status == 65)
        #expect(run.standardError.contains("are the latitude and longitude columns swapped?"))
        #expect(run.standardError.contains("no usable clubroom"))
    }
}

@Suite struct NearAlongTests {
    @Test func listsTheClubroomsAlongATrackInOrder() throws {
        // A track across Brno from west to east.
        var gpx = "<gpx><trk><name>Across Brno</name><trkseg>"
        for k in 0...400 {
            gpx += "<trkpt lat=\"49.1951\" lon=\"\(16.50 + Double(k) * 0.0005)\"/>"
        }
        gpx += "</trkseg></trk></gpx>"
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let track = folder.appendingPathComponent("across.gpx")
        try Data(gpx.utf8).write(to: track)
        let run = try CLI.run([
            "near", "--along", track.path, "--radius", "2km", "--format", "csv", "-q", NearCommandTests.xml,
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let rows = run.standardOutput.split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        #expect(!rows.isEmpty)
        let along = rows.compactMap { Double($0[6]) }
        #expect(along == along.sorted())
        #expect(rows.allSatisfy { (Double($0[5]) ?? 9e9) <= 2000 })
        let table = try CLI.run(["near", "--along", track.path, "--radius", "2km", "-q", NearCommandTests.xml])
        #expect(table.standardOutput.hasPrefix("Across Brno: clubrooms within 2.0 km of the track"))
        #expect(try CLI.run(["near", "--along", track.path, "--at", "49,16", NearCommandTests.xml]).status == 64)
    }
}

@Suite struct NearMapCommandTests {
    @Test func drawsAnSVGMapAroundAPosition() throws {
        let run = try CLI.run([
            "near", "--at", "49.1951,16.6068", "--radius", "10km", "--format", "svg", "-q", NearCommandTests.xml,
        ])
        #expect(run.status == 0)
        #expect(run.standardOutput.hasPrefix("<?xml"))
        #expect(run.standardOutput.contains("clubrooms within 10 km"))
        let many = try CLI.run(["near", "--along", NearCommandTests.xml, "--format", "svg", NearCommandTests.xml])
        #expect(many.status == 64)
    }
}

/// `near` with the filters, on a SkautIS response in the real shape: 401 Lužánky (Kamzíci: Tuesday boys and
/// girls 7–11, Thursday boys and mixed 11–15), 402 Komárov (Racek, water scouts: Saturday girls 10–15).
@Suite struct NearFilterTests {
    static let fixture = CLI.fixture("skautis-advertising-summary.xml")
    static let brno = ["near", "--at", "49.1951,16.6068", "--radius", "10km", "-q"]

    func ids(_ filters: [String]) throws -> [String] {
        let run = try CLI.run(Self.brno + filters + ["--format", "csv", Self.fixture])
        #expect(run.status == 0, "\(run.standardError)")
        // The query (quoted, with its comma) is the first two fields.
        return run.standardOutput.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[2]) }
    }

    @Test func eachFilterAndTheirCombination() throws {
        #expect(try ids([]) == ["401", "402"])
        #expect(try ids(["--age", "8"]) == ["401"])
        #expect(try ids(["--age", "12"]) == ["401", "402"])
        #expect(try ids(["--day", "so"]) == ["402"])
        #expect(try ids(["--day", "ČT"]) == ["401"])
        #expect(try ids(["--day", "tuesday"]) == ["401"])
        #expect(try ids(["--day", "sun"]) == [])
        #expect(try ids(["--sex", "girls"]) == ["401", "402"])
        #expect(try ids(["--sex", "girls", "--age", "12"]) == ["401", "402"])  // Thursday's mixed 11–15 takes her too
        #expect(try ids(["--sex", "girls", "--age", "12", "--day", "čt"]) == ["401"])
        #expect(try ids(["--sex", "boys", "--age", "8", "--day", "čt"]) == [])  // Thursday is for 11–15
        #expect(try ids(["--sex", "boys", "--day", "sat"]) == [])  // Saturday is for girls
        #expect(try ids(["--water"]) == ["402"])
        #expect(try ids(["--water", "--unit", "621.05.01"]) == [])
        #expect(try ids(["--unit", "621.05.01", "--sex", "male"]) == ["401"])
    }

    @Test func theTableShowsOnlyTheMeetingsThatPass() throws {
        let run = try CLI.run(Self.brno + ["--day", "ut", Self.fixture])
        #expect(run.status == 0)
        #expect(
            run.standardOutput.contains("úterý 16:30–18:00 (každý týden), ages 7–11 chlapci / 7–11 dívky"))
        #expect(!run.standardOutput.contains("čtvrtek"))
        let water = try CLI.run(Self.brno + ["--water", Self.fixture])
        #expect(
            water.standardOutput.contains("sobota 09:05–12:00 (každý týden), ages 10–15 dívky, water scouts"))
        let none = try CLI.run(["near", "--at", "49.1951,16.6068", "--day", "ne", Self.fixture])
        #expect(none.status == 0 && none.standardError.contains("no clubroom in the catalogs passes Sunday"))
    }

    @Test func theGeoJSONCarriesTheCategoriesThatPass() throws {
        let run = try CLI.run(Self.brno + ["--sex", "girls", "--format", "geojson", Self.fixture])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let features = try #require(json["features"] as? [[String: Any]])
        let first = try #require(features.first?["properties"] as? [String: Any])
        #expect(first["water_scouts"] as? Bool == false)
        let meetings = try #require(first["meetings"] as? [[String: Any]])
        #expect(meetings.map { $0["id"] as? String } == ["8101", "8102"])
        #expect(meetings[0]["weekday"] as? String == "úterý" && meetings[0]["weekday_iso"] as? Int == 2)
        #expect(meetings[0]["time_from"] as? String == "16:30" && meetings[0]["time_to"] as? String == "18:00")
        let categories = try #require(meetings[0]["categories"] as? [[String: Any]])
        #expect(categories.map { $0["sex"] as? String } == ["girls"])
        #expect(categories.first?["sex_name"] as? String == "dívky" && categories.first?["age_from"] as? Int == 7)
        let second = try #require(features.last?["properties"] as? [String: Any])
        #expect(second["water_scouts"] as? Bool == true)
        // What near writes, near reads back: the same answer again.
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = folder.appendingPathComponent("near.geojson")
        try Data(run.standardOutput.utf8).write(to: saved)
        let again = try CLI.run(Self.brno + ["--format", "geojson", saved.path])
        #expect(again.standardOutput == run.standardOutput)
    }

    @Test func theCSVHasTheTimesAndTheWaterColumn() throws {
        let run = try CLI.run(Self.brno + ["--age", "10", "--format", "csv", Self.fixture])
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasSuffix(",meetings,water_scouts") == true)
        #expect(lines.count == 3)
        #expect(lines[1].contains("úterý 16:30–18:00") && lines[1].hasSuffix(",false"))
        #expect(lines[2].contains("sobota 09:05–12:00") && lines[2].hasSuffix(",true"))
    }

    @Test(arguments: [
        ["--day", "xx"], ["--day", ""], ["--age", "-1"], ["--age", "ten"], ["--age", "151"], ["--sex", "both"],
        ["--unit", "621..03"], ["--unit", "x"],
    ])
    func refusesBadFilterValues(arguments: [String]) throws {
        let run = try CLI.run(Self.brno + arguments + [Self.fixture])
        #expect(run.status == 64, "\(arguments)")
        if arguments[0] == "--day" {
            let dayMessage =
                "--day takes a day of the week: mon, tue, wed, thu, fri, sat, sun (or monday … sunday), "
                + "or Czech po, út, st, čt, pá, so, ne"
            #expect(run.standardError.contains(dayMessage))
        }
    }

    @Test func mapAndStagesTakeTheSameFilters() throws {
        for command in [
            ["map", "x.gpx", "--clubrooms", Self.fixture],
            ["stages", "bundle", "-o", "out", "--clubrooms", Self.fixture],
        ] {
            #expect(try CLI.run(command + ["--day", "xx"]).status == 64)
            #expect(try CLI.run(command + ["--sex", "x"]).status == 64)
        }
        // The map marks only the clubrooms that pass.
        var gpx = "<gpx><trk><name>Brno</name><trkseg>"
        for k in 0..<200 { gpx += "<trkpt lat=\"\(49.17 + Double(k) * 0.0002)\" lon=\"16.615\"/>" }
        gpx += "</trkseg></trk></gpx>"
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let track = folder.appendingPathComponent("brno.gpx")
        try Data(gpx.utf8).write(to: track)
        func squares(_ filters: [String]) throws -> Int {
            let run = try CLI.run(["map", track.path, "--clubrooms", Self.fixture, "--radius", "3km", "-q"] + filters)
            #expect(run.status == 0, "\(run.standardError)")
            return run.standardOutput.components(separatedBy: "fill=\"#e67e22\" stroke").count - 1
        }
        #expect(try squares([]) == 2)
        #expect(try squares(["--water"]) == 1)
        #expect(try squares(["--day", "ne"]) == 0)
    }

    @Test func printsTheSkautISRequest() throws {
        let run = try CLI.run(["near", "--skautis-request", "--at", "49.1951,16.6068", "--radius", "20km"])
        #expect(run.status == 0)
        #expect(run.standardOutput.hasPrefix("<?xml version=\"1.0\" encoding=\"utf-8\"?>"))
        #expect(run.standardOutput.contains("<Distance>20000</Distance>"))
        #expect(run.standardOutput.contains("<GpsLatitude>49.1951</GpsLatitude>"))
        let curl =
            "curl -H 'Content-Type: text/xml; charset=utf-8' "
            + "-H 'SOAPAction: \"https://is.skaut.cz/AdvertisingSummary\"' --data @request.xml "
            + "https://is.skaut.cz/JunakWebservice/OrganizationUnit.asmx > clubrooms.xml"
        #expect(run.standardError.contains(curl))
        let unit = try CLI.run(["near", "--skautis-request", "--unit", "621.05", "-q"])
        #expect(
            unit.status == 0 && unit.standardOutput.contains("<ID_Unit>UNIT-ID</ID_Unit>") && unit.standardError.isEmpty
        )
        #expect(try CLI.run(["near", "--skautis-request"]).status == 64)
        #expect(try CLI.run(["near", "--skautis-request", "--at", "49,16", Self.fixture]).status == 64)
        #expect(try CLI.run(["near", "--skautis-request", "--along", Self.fixture]).status == 64)
    }
}
