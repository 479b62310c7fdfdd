import Foundation
import Testing

@testable import RouteKit

/// Bundles in the shape the STKP backend serves them, written as a mapping program writes its GPX: CRLF, a
/// name and an empty description in every point, 15-digit coordinates, times with seven fractional digits
/// and no zone.
enum SampleBundle {
    static func stage(_ number: Int, from latitude: Double, points: Int = 120, bom: Bool = false) -> [UInt8] {
        var gpx =
            "<?xml version=\"1.0\"?>\r\n"
            + "<gpx version=\"1.1\" creator=\"Quo v2\" xmlns=\"http://www.topografix.com/GPX/1/1\">\r\n"
        gpx +=
            "  <trk>\r\n    <name>\(number < 10 ? "0" : "")\(number)_Track</name>\r\n    <desc />\r\n    <trkseg>\r\n"
        for k in 0..<points {
            let lat = latitude + Double(k) * 0.000_123_456_789_012_3
            gpx +=
                "      <trkpt lat=\"\(lat)\" lon=\"14.509415136427\">\r\n"
                + "        <ele>\(300 + Double(15 - abs(k % 30 - 15)) * 1.5)</ele>\r\n"
            gpx += "        <time>2013-10-09T23:\(10 + k / 60):\(k % 60 < 10 ? "0" : "")\(k % 60).9543725</time>\r\n"
            gpx += "        <name>TOČKA \(k)</name>\r\n        <desc />\r\n      </trkpt>\r\n"
        }
        gpx += "    </trkseg>\r\n  </trk>\r\n</gpx>\r\n"
        return (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(gpx.utf8)
    }

    /// Waypoints named as given, each at the start of a stage's latitude (or far away when nil).
    static func controlPoints(_ points: [(String, Double?)]) -> [UInt8] {
        var gpx =
            "<?xml version=\"1.0\"?>\r\n"
            + "<gpx version=\"1.1\" creator=\"Quo v2\" xmlns=\"http://www.topografix.com/GPX/1/1\">\r\n"
        for (name, lat) in points {
            gpx +=
                "  <wpt lat=\"\(lat ?? 40)\" lon=\"\(lat == nil ? 10 : 14.5094144797886)\">\r\n"
                + "    <name>\(name)</name>\r\n    <desc />\r\n  </wpt>\r\n"
        }
        return Array((gpx + "</gpx>\r\n").utf8)
    }

    /// A whole bundle of two stages, three waypoints and the two JSON files, as entries under `folder`.
    static func entries(in folder: String = "") -> [Zip.Entry] {
        let etape =
            #"[{"name":"01: Ljubljana – Mihelčičev dom","href":"https://example.org/01/","#
            + #""desc":"Dolžina:  Vzpon:  Spust: Trajanje: 3 ure","category":"Ljubljana","file":"Etapa_1.gpx"},"#
            + #"{"name":"02: Mihelčičev dom – Koča na Blegošu","href":"https://example.org/02/","#
            + #""desc":"Dolžina: 38 km","category":"Ljubljana","file":"Etapa_2.gpx"}]"#
        let kt =
            #"[{"zapSt":"1","naziv":"Ljubljanski grad","naslov":"Grajska planota 1, 1000 Ljubljana","#
            + #""zig":"V paviljonu"},{"zapSt":"2","naziv":"Sv. Jakob nad Medvodami","naslov":"","zig":"Na drevesu"},"#
            + #"{"zapSt":"3","naziv":"Trdinov vrh","naslov":"","zig":"V skrinjici"},"#
            + #"{"zapSt":"4","naziv":"Koča na Blegošu","naslov":"Leskovica 32","zig":"V koči"}]"#
        return [
            Zip.Entry(name: folder + "Etapa_1.gpx", bytes: stage(1, from: 46.0)),
            Zip.Entry(name: folder + "Etapa_2.gpx", bytes: stage(2, from: 46.1)),
            Zip.Entry(
                name: folder + "KT.gpx",
                bytes: controlPoints([
                    ("Ljubljanski grad", 46.0), ("Sveti Jakob nad Medvodami", 46.005),
                    ("Koča na Blegošu", 46.11),
                ])),
            Zip.Entry(name: folder + "etape.json", bytes: Array(etape.utf8)),
            Zip.Entry(name: folder + "kt.json", bytes: Array(kt.utf8)),
        ]
    }
}

@Suite struct BundleSourceTests {
    let folder: URL

    init() throws { folder = try Fixture.temporaryFolder() }

    func zip(_ name: String, _ entries: [Zip.Entry]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Zip.write(entries, to: path)
        return path
    }

    @Test(.requires(.python3)) func readsAFlatDatedZIP() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try BundleSource.open(try zip("ZIP_03-09-2019.zip", SampleBundle.entries()))
        #expect(source.names == ["Etapa_1.gpx", "Etapa_2.gpx", "KT.gpx", "etape.json", "kt.json"])
        #expect(source.date == BundleDate(year: 2019, month: 9, day: 3))
        #expect(source.file(named: "KT.json") == "kt.json")
        #expect(try source.bytes("Etapa_2.gpx") == SampleBundle.stage(2, from: 46.1))
        #expect(source.notes.isEmpty)
    }

    @Test(.requires(.python3)) func readsAZIPWhoseFilesSitInOneFolderAndIgnoresWhatMacOSAdds() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // A folder name with letters beyond ASCII, as people name folders (libarchive needs a UTF-8 locale).
        let folderName = "Pot čez Slovenijo 03-09-2019"
        var entries = SampleBundle.entries(in: folderName + "/")
        entries += [
            Zip.Entry(name: "__MACOSX/\(folderName)/._Etapa_1.gpx", bytes: [0, 5, 22, 7, 0, 2]),
            Zip.Entry(name: folderName + "/._KT.gpx", bytes: [0, 5, 22, 7]),
            Zip.Entry(name: folderName + "/.DS_Store", bytes: [0, 0, 0, 1, 66, 117, 100, 49]),
            Zip.Entry(name: folderName + "/readme.txt", bytes: Array("hello".utf8)),
        ]
        let source = try BundleSource.open(try zip("bundle.zip", entries))
        #expect(source.names == ["Etapa_1.gpx", "Etapa_2.gpx", "KT.gpx", "etape.json", "kt.json"])
        #expect(source.origin.hasSuffix("bundle.zip › " + folderName))
        #expect(source.date == BundleDate(year: 2019, month: 9, day: 3))
    }

    @Test(.requires(.python3)) func opensTheNewestDatedZIPInsideAZIP() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var older = SampleBundle.entries()
        older.removeLast()  // the older release has no kt.json
        let entries = [
            Zip.Entry(name: "downloads/ZIP_15-06-2016.zip", bytes: try Zip.bytes(older)),
            Zip.Entry(name: "downloads/ZIP_03-09-2019.zip", bytes: try Zip.bytes(SampleBundle.entries())),
            Zip.Entry(name: "__MACOSX/downloads/._ZIP_03-09-2019.zip", bytes: [0, 5, 22, 7]),
            Zip.Entry(name: "downloads/.DS_Store", bytes: [0, 0, 0, 1]),
        ]
        let source = try BundleSource.open(try zip("downloads.zip", entries))
        #expect(source.date == BundleDate(year: 2019, month: 9, day: 3))
        #expect(source.file(named: "kt.json") != nil)
        #expect(source.notes == ["read ZIP_03-09-2019.zip, the newest of 2 archives"])
        #expect(source.displayName("KT.gpx").hasSuffix("downloads.zip › downloads/ZIP_03-09-2019.zip › KT.gpx"))
    }

    @Test(.requires(.python3)) func readsAFolderItsOnlySubfolderOrTheDatedZIPInIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("ZIP_01-02-2020")
        try FileManager.default.createDirectory(
            at: plain.appendingPathComponent("inner"), withIntermediateDirectories: true)
        for e in SampleBundle.entries() {
            try Data(e.bytes).write(to: plain.appendingPathComponent("inner/" + e.name.uppercased()))
        }
        let nested = try BundleSource.open(plain.path)
        #expect(nested.names.contains("ETAPA_1.GPX") && nested.file(named: "kt.json") == "KT.JSON")
        let holder = folder.appendingPathComponent("downloads")
        try FileManager.default.createDirectory(at: holder, withIntermediateDirectories: true)
        try Zip.write(SampleBundle.entries(), to: holder.appendingPathComponent("ZIP_03-09-2019.zip").path)
        let zipped = try BundleSource.open(holder.path)
        #expect(zipped.date == BundleDate(year: 2019, month: 9, day: 3))
        #expect(zipped.names.count == 5)
    }

    @Test(.requires(.python3)) func refusesAnArchiveThatWouldExpandPastTheLimit() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // A ZIP bomb: 600 MiB of zeros in 600 KB.
        let bomb = try zip("bomb.zip", [Zip.Entry(name: "Etapa_1.gpx", zeros: 600 << 20)])
        #expect(throws: ArchiveError.tooLarge(path: bomb, limitBytes: 512 << 20)) { try BundleSource.open(bomb) }
        // Two files that pass one by one but not together.
        let two = try zip("two.zip", SampleBundle.entries())
        var budget = ExpansionBudget(bytes: SampleBundle.stage(1, from: 46).count + 100, entries: 100)
        #expect(throws: ArchiveError.tooLarge(path: two, limitBytes: budget.bytes)) {
            try BundleSource.open(two, budget: &budget)
        }
        var few = ExpansionBudget(bytes: 1 << 20, entries: 3)
        #expect(throws: ArchiveError.tooManyEntries(path: two, limit: 3)) { try BundleSource.open(two, budget: &few) }
    }

    @Test(.requires(.python3)) func refusesArchivesNestedDeeperThanThree() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var inner = try Zip.bytes(SampleBundle.entries())
        for level in 0..<3 { inner = try Zip.bytes([Zip.Entry(name: "level\(level).zip", bytes: inner)]) }
        let deep = try zip("deep.zip", [Zip.Entry(name: "level3.zip", bytes: inner)])
        #expect(throws: ArchiveError.self) { try BundleSource.open(deep) }
        do {
            _ = try BundleSource.open(deep)
        } catch let error as ArchiveError {
            #expect(error.description.hasSuffix("refused: archives nested more than 3 deep"))
        }
    }

    @Test(.requires(.python3)) func neverFollowsALinkOrAPathOutOfTheArchive() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let entries = [
            Zip.Entry(name: "../../../outside/Etapa_1.gpx", bytes: SampleBundle.stage(1, from: 46)),
            Zip.Entry(name: "/etc/Etapa_2.gpx", bytes: SampleBundle.stage(2, from: 46.1)),
            Zip.Entry(name: "Etapa_3.gpx", symlink: "/etc/passwd"),
        ]
        let source = try BundleSource.open(try zip("paths.zip", entries))
        // Only base names count (`..` leads nowhere); the link is no file of the bundle.
        #expect(source.names == ["Etapa_2.gpx"])
        #expect(source.notes == ["read the files in etc/; 1 other folder with stage files left out"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("outside").path))
    }

    @Test(.requires(.python3)) func saysWhatIsWrongWithSomethingThatIsNoBundle() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("notes.zip").path
        try Data("not an archive at all".utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: ArchiveError.self) { try BundleSource.open(text) }
        var truncated = Array(try Data(contentsOf: URL(fileURLWithPath: try zip("whole.zip", SampleBundle.entries()))))
        truncated.removeLast(truncated.count / 2)
        let cut = folder.appendingPathComponent("cut.zip").path
        try Data(truncated).write(to: URL(fileURLWithPath: cut))
        #expect(throws: ArchiveError.self) { try BundleSource.open(cut) }
        let other = try zip("other.zip", [Zip.Entry(name: "photo.gpx", bytes: SampleBundle.stage(1, from: 46))])
        #expect(
            throws: StageBundleError.noBundle(
                path: other, reason: "no Etapa N.gpx, KT.gpx or etape.json in the archive (it holds photo.gpx)")
        ) {
            try BundleSource.open(other)
        }
        #expect(throws: IOError.self) { try BundleSource.open(folder.appendingPathComponent("missing.zip").path) }
    }

}

@Suite struct BundleDateTests {
    @Test(
        arguments: [
            ("ZIP_03-09-2019.zip", "2019-09-03"), ("ZIP_3-9-2019", "2019-09-03"),
            ("route 2020-02-29.zip", "2020-02-29"),
            ("stkp_01.12.2021", "2021-12-01"), ("ZIP_31-02-2019.zip", nil), ("Etapa_12.gpx", nil),
            ("ZIP_03-09_2019.zip", nil),
            ("v1-2-3.zip", nil),
        ] as [(String, String?)])
    func findsTheDateInAName(name: String, iso: String?) {
        #expect(BundleDate.find(in: name)?.iso == iso)
    }

    @Test func writesTheDateForPeople() {
        #expect(BundleDate(year: 2019, month: 9, day: 3).text == "3 September 2019")
    }
}
