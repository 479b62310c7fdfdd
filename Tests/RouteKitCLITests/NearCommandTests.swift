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

    @Test(arguments: ["49.1951,16.6068", "49.1951, 16.6068", "49.1951 16.6068", "49°11'42.4\"N 16°36'24.5\"E", "N 49° 11.707' E 16° 36.408'"])
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
        for key in ["id", "name", "distance_m", "bearing_deg", "units", "meetings", "city"] { #expect(first[key] != nil, "\(key)") }
    }

    @Test func filtersByUnitAndLimits() throws {
        let run = try CLI.run(["near", "--at", "49.1951,16.6068", "--unit", "621.02", "--format", "csv", "-q", Self.xml])
        let rows = run.standardOutput.split(separator: "\n").dropFirst()
        #expect(!rows.isEmpty && rows.allSatisfy { $0.contains("(621.02.") })
        let limited = try CLI.run(["near", "--at", "49.1951,16.6068", "--limit", "3", "--format", "csv", "-q", Self.xml])
        #expect(limited.standardOutput.split(separator: "\n").count == 4)
    }

    @Test func answersManyPositionsFromAFile() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let positions = folder.appendingPathComponent("units.csv")
        try Data("lat,lon,label\n49.1951,16.6068,Brno\n50.0755,14.4378,Praha\n".utf8).write(to: positions)
        let run = try CLI.run(["near", "--at-file", positions.path, "--radius", "3km", "--format", "csv", "-q", Self.xml])
        #expect(run.status == 0)
        let queries = Set(run.standardOutput.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) })
        #expect(queries == ["Brno", "Praha"])
        let geojson = try CLI.run(["near", "--at-file", positions.path, "--radius", "3km", "--format", "geojson", "-q", Self.xml])
        #expect(geojson.standardOutput.contains("\"query\":\"Praha\""))
    }

    @Test func refusesABareRadiusAndReportsUnusableCatalogs() throws {
        let bare = try CLI.run(["near", "--at", "49.2,16.6", "--radius", "60", Self.xml])
        #expect(bare.status == 64)
        #expect(bare.standardError.contains("needs a unit, for example 200m or 1.5km (a bare number could be read as miles)"))
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
        let run = try CLI.run(["near", "--along", track.path, "--radius", "2km", "--format", "csv", "-q", NearCommandTests.xml])
        #expect(run.status == 0, "\(run.standardError)")
        let rows = run.standardOutput.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
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
        let run = try CLI.run(["near", "--at", "49.1951,16.6068", "--radius", "10km", "--format", "svg", "-q", NearCommandTests.xml])
        #expect(run.status == 0)
        #expect(run.standardOutput.hasPrefix("<?xml"))
        #expect(run.standardOutput.contains("clubrooms within 10 km"))
        let many = try CLI.run(["near", "--along", NearCommandTests.xml, "--format", "svg", NearCommandTests.xml])
        #expect(many.status == 64)
    }
}
