import Foundation
import RouteKit
import Testing

/// The PostGIS server of the tests: `ROUTEKIT_TEST_POSTGRES` holds its URI (scripts/test starts a throwaway
/// server with scripts/postgis and sets it). Without it, the tests that need a server are skipped.
enum TestDatabase {
    static let uri = ProcessInfo.processInfo.environment["ROUTEKIT_TEST_POSTGRES"].flatMap(DatabaseURI.init)
    static let missing = "no PostGIS server: ROUTEKIT_TEST_POSTGRES is not set (scripts/test starts one)"

    /// A table name no other test uses.
    static func freshTable(_ prefix: String) -> TableName {
        TableName(prefix + "_" + UUID().uuidString.prefix(8).lowercased())!
    }

    /// Runs SQL with psql (for what RouteKit never writes: rows a hand or another program put there).
    @discardableResult
    static func psql(_ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", "-qAt", "-v", "ON_ERROR_STOP=1", "-d", uriText, "-c", sql]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw PSQLError(text: text) }
        return text
    }

    static var uriText: String { ProcessInfo.processInfo.environment["ROUTEKIT_TEST_POSTGRES"] ?? "" }

    struct PSQLError: Error { var text: String }
}

@Suite struct DatabaseURITests {
    @Test(arguments: [
        ("postgresql://maps:s3cret@db.example.org:5432/scouts", "postgresql://maps@db.example.org:5432/scouts"),
        ("postgres://u:p%40ss@host/db?sslmode=require", "postgres://u@host/db?sslmode=require"),
        (
            "postgresql:///scouts?host=/run/postgresql&password=s3cret&user=x",
            "postgresql:///scouts?host=/run/postgresql&user=x"
        ),
        ("postgresql://host/db", "postgresql://host/db"),
    ])
    func theShownURIHasNoPassword(uri: String, shown: String) throws {
        let parsed = try #require(DatabaseURI(uri))
        #expect(parsed.shown == shown)
        #expect(!parsed.description.contains("s3cret"))
    }

    @Test func onlyPostgresqlURIsAreDatabases() {
        #expect(DatabaseURI("clubrooms.csv") == nil)
        #expect(DatabaseURI("mysql://host/db") == nil)
        #expect(DatabaseURI("POSTGRESQL://host/db") != nil)
    }

    @Test func tableNamesAreIdentifiers() {
        for good in ["clubrooms", "Clubrooms_2024", "scouts.clubrooms", "_t"] {
            #expect(TableName(good) != nil, "\(good)")
        }
        for bad in ["", "1table", "a.b.c", "x; DROP TABLE y", "a-b", "\"q\"", "a.", String(repeating: "x", count: 64)] {
            #expect(TableName(bad) == nil, "\(bad)")
        }
    }
}

@Suite(.enabled(if: TestDatabase.uri != nil, Comment(rawValue: TestDatabase.missing)))
struct ClubroomTableTests {
    /// The sample catalog and, around one centre, clubrooms 1 mm inside and outside 10 km, two at one place
    /// (a tie), and some at the poles and the antimeridian.
    static let rooms: [Clubroom] = {
        var rooms = (try? ClubroomCatalog.read(paths: [sample]).clubrooms) ?? []
        let centre = Coordinate(latitude: 49.1951, longitude: 16.6068)
        for (k, azimuth) in [0.0, 77, 181, 290].enumerated() {
            for (name, meters) in [("in", 10_000 - 0.001), ("out", 10_000 + 0.001)] {
                let at = Geodesic.wgs84.destination(from: centre, azimuthDegrees: azimuth, distanceMeters: meters)
                rooms.append(Clubroom(id: "edge-\(name)-\(k)", name: "Edge \(name) \(k)", coordinate: at))
            }
        }
        rooms.append(Clubroom(id: "tie-b", name: "Tie B", coordinate: Coordinate(latitude: 49.2, longitude: 16.6)))
        rooms.append(Clubroom(id: "tie-a", name: "Tie A", coordinate: Coordinate(latitude: 49.2, longitude: 16.6)))
        for (k, c) in [(89.9999, 10.0), (-89.99, -170), (10, 179.99999), (10, -179.99999), (0, 180)].enumerated() {
            rooms.append(
                Clubroom(id: "far-\(k)", name: "Far \(k)", coordinate: Coordinate(latitude: c.0, longitude: c.1)))
        }
        return rooms
    }()

    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/clubrooms/clubrooms.xml")
        .path

    static let filters: [ClubroomFilter] = [
        ClubroomFilter(), ClubroomFilter(unit: "621"), ClubroomFilter(unit: "621.03"),
        ClubroomFilter(age: 9, weekday: .tuesday, sex: .girls), ClubroomFilter(waterOnly: true),
        ClubroomFilter(age: 16), ClubroomFilter(sex: .boys), ClubroomFilter(unit: "711", weekday: .friday),
    ]

    @Test func everyClubroomComesBackAsItWasLoaded() throws {
        let uri = try #require(TestDatabase.uri)
        let name = TestDatabase.freshTable("equal")
        defer { _ = try? TestDatabase.psql("DROP TABLE IF EXISTS \(name)") }
        let loaded = try ClubroomTable.load(Self.rooms, into: uri, table: name, replace: false)
        #expect(loaded.clubrooms == Self.rooms.count)
        let table = try ClubroomTable(uri, table: name)
        // Every place is within 20,000 km of this one (its antipode, -45, -170, is far from all of them).
        let all = try table.clubrooms(within: 20_000_000, of: Coordinate(latitude: 45, longitude: 10))
        #expect(all.count == Self.rooms.count)
        let same = Set(all.map(\.clubroom)) == Set(Self.rooms)  // (a failure would print both sets whole)
        #expect(same)
    }

    @Test func answersAreTheIndexsToTheLastBit() throws {
        let uri = try #require(TestDatabase.uri)
        let name = TestDatabase.freshTable("same")
        defer { _ = try? TestDatabase.psql("DROP TABLE IF EXISTS \(name)") }
        try ClubroomTable.load(Self.rooms, into: uri, table: name, replace: false)
        let table = try ClubroomTable(uri, table: name)
        var generator = SeededRandom(state: 14)
        var positions = [Coordinate(latitude: 49.1951, longitude: 16.6068), Coordinate(latitude: 90, longitude: 0)]
        positions += (0..<12).map { _ in
            Coordinate(
                latitude: 48.5 + Double.random(in: 0...2, using: &generator),
                longitude: 13 + Double.random(in: 0...5, using: &generator))
        }
        positions += (0..<4).map { _ in
            Coordinate(
                latitude: Double.random(in: -90...90, using: &generator),
                longitude: Double.random(in: -180...180, using: &generator))
        }
        var compared = 0
        for filter in Self.filters {
            let index = ClubroomIndex(filter.apply(to: Self.rooms))
            for position in positions {
                for radius in [10_000.0, 60_000, 300_000] {
                    let expected = index.clubrooms(within: radius, of: position)
                    let same = try table.clubrooms(within: radius, of: position, filter: filter) == expected
                    #expect(same, "\(filter) \(position) \(radius)")
                    compared += expected.count
                }
            }
        }
        #expect(compared > 300)
    }

    @Test func theMillimetreEdgeAndTiesAreTheIndexs() throws {
        let uri = try #require(TestDatabase.uri)
        let name = TestDatabase.freshTable("edge")
        defer { _ = try? TestDatabase.psql("DROP TABLE IF EXISTS \(name)") }
        try ClubroomTable.load(Self.rooms, into: uri, table: name, replace: false)
        let found = try ClubroomTable(uri, table: name).clubrooms(
            within: 10_000, of: Coordinate(latitude: 49.1951, longitude: 16.6068))
        let ids = Set(found.map(\.clubroom.id))
        #expect((0..<4).allSatisfy { ids.contains("edge-in-\($0)") && !ids.contains("edge-out-\($0)") })
        let ties = found.map(\.clubroom.id).filter { $0.hasPrefix("tie-") }
        #expect(ties == ["tie-b", "tie-a"])  // catalog order
    }

    @Test func alongATrackIsTheIndexs() throws {
        let uri = try #require(TestDatabase.uri)
        let name = TestDatabase.freshTable("along")
        defer { _ = try? TestDatabase.psql("DROP TABLE IF EXISTS \(name)") }
        try ClubroomTable.load(Self.rooms, into: uri, table: name, replace: false)
        let table = try ClubroomTable(uri, table: name)
        let points = stride(from: 0.0, through: 1, by: 0.01).map {
            TrackPoint(coordinate: Coordinate(latitude: 49.0 + 0.6 * $0, longitude: 16.2 + 0.9 * $0))
        }
        let track = Track(segments: [
            TrackSegment(points: Array(points[..<50])), TrackSegment(points: Array(points[60...])),
        ])
        for filter in Self.filters {
            let expected = ClubroomIndex(filter.apply(to: Self.rooms)).clubrooms(within: 5_000, along: track)
            let same = try table.clubrooms(within: 5_000, along: track, filter: filter) == expected
            #expect(same, "\(filter)")
            if filter.isEmpty { #expect(expected.count > 10) }
        }
    }

    @Test func aFailedLoadLeavesTheOldTable() throws {
        let uri = try #require(TestDatabase.uri)
        let name = TestDatabase.freshTable("keep")
        defer { _ = try? TestDatabase.psql("DROP TABLE IF EXISTS \(name)") }
        try ClubroomTable.load(Array(Self.rooms.prefix(5)), into: uri, table: name, replace: false)
        #expect(throws: DatabaseError.tableExists(table: name.description)) {
            try ClubroomTable.load(Self.rooms, into: uri, table: name, replace: false)
        }
        var bad = Self.rooms
        bad[40].name = "NUL \u{0} inside"  // PostgreSQL's text cannot hold it: the server refuses the COPY
        do {
            try ClubroomTable.load(bad, into: uri, table: name, replace: true)
            Issue.record("the load should have failed")
        } catch let error as DatabaseError {
            #expect(error.isDataError, "\(error)")
        }
        let kept = try ClubroomTable(uri, table: name).clubrooms(
            within: 20_000_000, of: Coordinate(latitude: 45, longitude: 10))
        let same = Set(kept.map(\.clubroom)) == Set(Self.rooms.prefix(5))
        #expect(same)
        #expect(try TestDatabase.psql("SELECT count(*) FROM pg_indexes WHERE tablename = '\(name)'") == "2\n")
    }

    @Test(arguments: [
        ("units", "'{\"a\": 1}'", "units is not a JSON array"),
        ("units", "'[{\"id\": \"1\"}]'", "a unit without a name"),
        ("meetings", "'[{\"weekday\": 9}]'", "weekday 9 is not 1–7"),
        ("meetings", "'[{\"categories\": [{\"age_from\": \"nine\"}]}]'", "age_from is not a whole number"),
        ("meetings", "'[{\"unit\": {\"name\": \"x\", \"water\": \"yes\"}}]'", "water is not true or false"),
        ("meetings", "'[7]'", "a meeting that is not a JSON object"),
    ])
    func aRowThatIsNoClubroomIsABadRow(column: String, value: String, reason: String) throws {
        let uri = try #require(TestDatabase.uri)
        let name = TestDatabase.freshTable("hostile")
        defer { _ = try? TestDatabase.psql("DROP TABLE IF EXISTS \(name)") }
        try ClubroomTable.load(Array(Self.rooms.prefix(3)), into: uri, table: name, replace: false)
        try TestDatabase.psql("UPDATE \(name) SET \(column) = \(value)::jsonb WHERE id = '\(Self.rooms[1].id)'")
        let table = try ClubroomTable(uri, table: name)
        #expect(throws: DatabaseError.badRow(table: name.description, key: Self.rooms[1].id, reason: reason)) {
            try table.clubrooms(within: 20_000_000, of: Coordinate(latitude: 0, longitude: 0))
        }
    }

    @Test func aMissingTableAndAnUnreachableServerAreNamed() throws {
        let uri = try #require(TestDatabase.uri)
        let name = TestDatabase.freshTable("absent")
        #expect(throws: DatabaseError.self) { try ClubroomTable(uri, table: name) }
        do {
            _ = try ClubroomTable(uri, table: name)
        } catch DatabaseError.missingTable(let table, let database) {
            #expect(table == name.description)
            #expect(database == uri.shown)
        }
        let nowhere = try #require(DatabaseURI("postgresql://u:s3cret@/routekit?host=/nonexistent-routekit"))
        do {
            _ = try ClubroomTable(nowhere, table: name)
            Issue.record("connected to nothing")
        } catch DatabaseError.cannotConnect(let database, let reason) {
            #expect(database == "postgresql://u@/routekit?host=/nonexistent-routekit")
            #expect(!reason.contains("s3cret"))
        }
    }
}
