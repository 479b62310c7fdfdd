import Foundation
import RouteKit
import Testing

/// The test server's URI: scripts/test starts a throwaway PostgreSQL + PostGIS and sets ROUTEKIT_TEST_POSTGRES.
private let server = ProcessInfo.processInfo.environment["ROUTEKIT_TEST_POSTGRES"]
private let noServer: Comment = "no PostGIS server: ROUTEKIT_TEST_POSTGRES is not set (scripts/test starts one)"

/// A table name no other test uses.
private func freshTable(_ prefix: String) -> String { prefix + "_" + UUID().uuidString.prefix(8).lowercased() }

/// Runs SQL on the test server with psql; returns its output (unaligned, tuples only).
@discardableResult
private func psql(_ sql: String, database: String? = nil) throws -> String {
    let run = try CLI.runBinary(
        ["-qAt", "-v", "ON_ERROR_STOP=1", "-d", database ?? server ?? "", "-c", sql],
        executable: URL(fileURLWithPath: try Tool.psql.requirePath()))
    guard run.status == 0 else { throw ToolError.failed(.psql, status: run.status, standardError: run.standardError) }
    return run.standardOutput
}

@Suite struct LoadCommandTests {
    @Test func helpMatchesItsGoldenFile() throws {
        let run = try CLI.run(["load", "--help"])
        #expect(run.status == 0)
        let golden = CLI.golden.appendingPathComponent("load-help.txt")
        if ProcessInfo.processInfo.environment["ROUTEKIT_UPDATE_GOLDEN"] != nil {
            try run.standardOutput.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(run.standardOutput == (try String(contentsOf: golden, encoding: .utf8)))
    }

    @Test(arguments: [
        (["load", "x.csv"], "say where to load with --into"),
        (["load", "--into", "postgresql:///db"], "nothing to load"),
        (["load", "x.csv", "--into", "mysql://h/db"], "is not a postgresql:// URI"),
        (["load", "x.csv", "--into", "postgresql:///db", "--table", "x; DROP TABLE y"], "is not a table name"),
        (["near", "--at", "49,16", "--table", "t", "clubrooms.csv"], "--table names a table of a postgresql://"),
        (["near", "--at", "49,16", "postgresql:///db", "clubrooms.csv"], "a postgresql:// catalog is read alone"),
        (["near", "--at", "49,16", "--exhaustive", "postgresql:///db"], "--exhaustive measures every clubroom"),
        (["near", "--at", "49,16", "--table", "1t", "postgresql:///db"], "is not a table name"),
    ])
    func wrongUsageIsExit64(arguments: [String], message: String) throws {
        let run = try CLI.run(arguments)
        #expect(run.status == 64)
        #expect(run.standardError.contains(message), "\(run.standardError)")
    }

    /// No server listens on a socket folder that does not exist: exit 66 for a search (its input), 73 for a
    /// load (its output), and never the password, nor a file left behind.
    @Test func anUnreachableServerIsNamedWithoutItsPassword() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let uri = "postgresql://scout:s3cret@/routekit?host=/nonexistent-routekit-socket&connect_timeout=2"
        let out = folder.appendingPathComponent("near.csv").path
        let near = try CLI.run(["near", "--at", "49.2,16.6", "--format", "csv", uri, "-o", out])
        #expect(near.status == 66)
        #expect(near.standardError.contains("postgresql://scout@/routekit?host=/nonexistent-routekit-socket"))
        #expect(near.standardError.contains("cannot connect"))
        #expect(!near.standardError.contains("s3cret"))
        #expect(!FileManager.default.fileExists(atPath: out))
        let load = try CLI.run([
            "load", CLI.root.appendingPathComponent("data/clubrooms/clubrooms.csv").path, "--into", uri,
        ])
        #expect(load.status == 73)
        #expect(!load.standardError.contains("s3cret"))
    }

    @Test(.enabled(if: server != nil, noServer), .requires(.psql))
    func aMissingTableOrPostGISIsExit66() throws {
        let uri = try #require(server)
        let missing = try CLI.run(["near", "--at", "49.2,16.6", "--table", freshTable("absent"), uri])
        #expect(missing.status == 66)
        #expect(missing.standardError.contains("no table absent_"))
        // A database without the extension.
        let database = freshTable("plain")
        try psql("CREATE DATABASE \(database)")
        defer { _ = try? psql("DROP DATABASE \(database)") }
        let plain = uri.replacingOccurrences(of: "postgresql:///routekit", with: "postgresql:///\(database)")
        let run = try CLI.run(["near", "--at", "49.2,16.6", plain])
        #expect(run.status == 66)
        #expect(run.standardError.contains("no PostGIS extension"), "\(run.standardError)")
    }

    @Test(.enabled(if: server != nil, noServer), .requires(.psql))
    func nearMapAndStagesGiveTheFilesAnswers() throws {
        let uri = try #require(server)
        let table = freshTable("near")
        defer { _ = try? psql("DROP TABLE IF EXISTS \(table)") }
        let catalog = CLI.root.appendingPathComponent("data/clubrooms/clubrooms.csv").path
        let load = try CLI.run(["load", catalog, "--into", uri, "--table", table, "-q"])
        #expect(load.status == 0, "\(load.standardError)")
        #expect(load.standardError.isEmpty)
        let again = try CLI.run(["load", catalog, "--into", uri, "--table", table, "-q"])
        #expect(again.status == 73)
        #expect(again.standardError.contains("--replace"))
        #expect(try CLI.run(["load", catalog, "--into", uri, "--table", table, "--replace", "-q"]).status == 0)

        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let positions = folder.appendingPathComponent("positions.csv").path
        try "49.1951,16.6068,Brno\n50.0755,14.4378,Praha\n49.8,18.2\n48.9,14.4\n".write(
            toFile: positions, atomically: true, encoding: .utf8)
        for filter in [[], ["--unit", "621"], ["--age", "9", "--day", "út", "--sex", "girls"], ["--water"]] {
            let common = ["near", "--at-file", positions, "--radius", "60km", "--format", "csv", "-q"] + filter
            let file = try CLI.run(common + [catalog])
            let database = try CLI.run(common + ["--table", table, uri])
            #expect(file.status == 0 && database.status == 0, "\(database.standardError)")
            #expect(database.standardOutput == file.standardOutput, "\(filter)")
            #expect(file.standardOutput.split(separator: "\n").count > 4)
        }
        // Along a track, and on a map.
        let track = folder.appendingPathComponent("track.gpx").path
        let points = (0...40).map { k in
            "<trkpt lat=\"\(49.0 + 0.01 * Double(k))\" lon=\"\(16.4 + 0.01 * Double(k))\"><ele>\(200 + k)</ele></trkpt>"
        }
        try "<gpx version=\"1.1\" creator=\"t\"><trk><name>T</name><trkseg>\(points.joined())</trkseg></trk></gpx>"
            .write(toFile: track, atomically: true, encoding: .utf8)
        let alongFile = try CLI.run(["near", "--along", track, "--radius", "3km", "--format", "csv", catalog])
        let alongDatabase = try CLI.run([
            "near", "--along", track, "--radius", "3km", "--format", "csv", "--table", table, uri,
        ])
        #expect(alongDatabase.status == 0)
        #expect(alongDatabase.standardOutput == alongFile.standardOutput)
        #expect(alongFile.standardOutput.split(separator: "\n").count > 2)
        let mapFile = try CLI.run(["map", track, "--clubrooms", catalog, "--radius", "3km", "-q"])
        let mapDatabase = try CLI.run(["map", track, "--clubrooms", uri, "--table", table, "--radius", "3km", "-q"])
        #expect(mapDatabase.status == 0)
        #expect(mapDatabase.standardOutput == mapFile.standardOutput)
    }

    @Test(.enabled(if: server != nil, noServer), .requires(.psql))
    func aHostileRowIsExit65AndNoFileIsLeft() throws {
        let uri = try #require(server)
        let table = freshTable("hostile")
        defer { _ = try? psql("DROP TABLE IF EXISTS \(table)") }
        let catalog = CLI.root.appendingPathComponent("data/clubrooms/clubrooms.csv").path
        #expect(try CLI.run(["load", catalog, "--into", uri, "--table", table, "-q"]).status == 0)
        try psql("UPDATE \(table) SET meetings = '{\"not\": \"a list\"}' WHERE seq = 0")
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("near.geojson").path
        let run = try CLI.run(
            ["near", "--at", "45,10", "--radius", "20000km", "--format", "geojson", "--table", table, uri, "-o", out])
        #expect(run.status == 65)
        #expect(run.standardError.contains("meetings is not a JSON array"), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // A column of another type: the server's refusal is bad data too.
        try psql("ALTER TABLE \(table) DROP COLUMN units")
        let broken = try CLI.run(["near", "--at", "45,10", "--table", table, uri])
        #expect(broken.status == 74 || broken.status == 65, "\(broken.standardError)")
    }

    @Test(.enabled(if: server != nil, noServer), .requires(.psql), .requires(.ogr2ogr))
    func tracksLoadOneRowEachAndOgr2ogrReadsThemBack() throws {
        let uri = try #require(server)
        let table = freshTable("tracks")
        defer { _ = try? psql("DROP TABLE IF EXISTS \(table)") }
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let timed = folder.appendingPathComponent("ride.gpx").path
        let fixes = (0..<30).map { k in
            "<trkpt lat=\"46.\(1000 + k)\" lon=\"14.5\(k)\"><ele>\(300 + k)</ele>"
                + "<time>2024-05-01T08:\(10 + k):05.5Z</time></trkpt>"
        }
        let segments = "<trkseg>\(fixes[..<20].joined())</trkseg><trkseg>\(fixes[20...].joined())</trkseg>"
        try "<gpx version=\"1.1\" creator=\"t\"><trk><name>Ride</name>\(segments)</trk></gpx>"
            .write(toFile: timed, atomically: true, encoding: .utf8)
        let planned = folder.appendingPathComponent("planned.gpx").path
        let route = (0..<10).map { "<trkpt lat=\"46.2\($0)\" lon=\"14.6\"><ele>\(400.25 + Double($0))</ele></trkpt>" }
        try "<gpx version=\"1.1\" creator=\"t\"><trk><name>Plan</name><trkseg>\(route.joined())</trkseg></trk></gpx>"
            .write(toFile: planned, atomically: true, encoding: .utf8)
        let load = try CLI.run(["load", timed, "--into", uri, "--table", table])
        #expect(load.status == 0, "\(load.standardError)")
        #expect(load.standardError.contains("(MultiLineStringZM)"), "\(load.standardError)")
        #expect(
            try psql("SELECT GeometryType(geom), ST_NDims(geom), ST_SRID(geom) FROM \(table)")
                == "MULTILINESTRING|4|4326\n")
        let first = try GPXReader().document(at: timed).tracks[0].segments[0].points[0]
        let m = try psql("SELECT ST_M(ST_PointN(ST_GeometryN(geom, 1), 1)) FROM \(table)")
        #expect(Double(m.trimmingCharacters(in: .whitespacesAndNewlines)) == first.time?.timeIntervalSince1970)

        // Tracks without times go to a MultiLineStringZ table; a ZM table refuses them, and keeps its rows.
        let refused = try CLI.run(["load", planned, "--into", uri, "--table", table])
        #expect(refused.status == 65)
        #expect(refused.standardError.contains("not every point loaded has a time"), "\(refused.standardError)")
        #expect(try psql("SELECT count(*) FROM \(table)") == "1\n")
        let plainTable = freshTable("planned")
        defer { _ = try? psql("DROP TABLE IF EXISTS \(plainTable)") }
        #expect(try CLI.run(["load", planned, timed, "--into", uri, "--table", plainTable, "-q"]).status == 0)
        #expect(try psql("SELECT DISTINCT ST_NDims(geom) || ' ' || ST_Zmflag(geom) FROM \(plainTable)") == "3 2\n")

        // ogr2ogr reads the table as any PostGIS layer.
        let out = folder.appendingPathComponent("back.geojson").path
        let connection = try #require(URLComponents(string: uri))
        let host = connection.queryItems?.first { $0.name == "host" }?.value ?? ""
        let user = connection.queryItems?.first { $0.name == "user" }?.value ?? ""
        let ogr = try CLI.runBinary(
            ["-f", "GeoJSON", out, "PG:host=\(host) user=\(user) dbname=routekit", plainTable],
            executable: URL(fileURLWithPath: try Tool.ogr2ogr.requirePath()))
        #expect(ogr.status == 0, "\(ogr.standardError)")
        let back = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any]
        let features = try #require(back?["features"] as? [[String: Any]])
        #expect(features.count == 2)
        let geometry = try #require(features.first?["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "MultiLineString")
        let lines = try #require(geometry["coordinates"] as? [[[Double]]])
        let stage = try GPXReader().document(at: planned).tracks[0].segments[0].points[0]
        #expect(lines[0][0] == [stage.coordinate.longitude, stage.coordinate.latitude, stage.elevation ?? .nan])
        #expect(features.first?["properties"].flatMap { ($0 as? [String: Any])?["file"] as? String } == planned)
    }

    @Test(.enabled(if: server != nil, noServer), .requires(.psql))
    func aBrokenTrackFileLoadsNothing() throws {
        let uri = try #require(server)
        let table = freshTable("broken")
        defer { _ = try? psql("DROP TABLE IF EXISTS \(table)") }
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("cut.gpx").path
        try "<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\"></trkpt><trkpt lat=\"1.1\" lon=\"2\">"
            .write(toFile: broken, atomically: true, encoding: .utf8)
        let run = try CLI.run(["load", CLI.fixture("garmin-tpe.gpx"), broken, "--into", uri, "--table", table])
        #expect(run.status == 65)
        #expect(run.standardError.contains("cut.gpx"), "\(run.standardError)")
        #expect(try psql("SELECT to_regclass('\(table)') IS NULL") == "t\n")
    }
}
