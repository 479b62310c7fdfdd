import Foundation
import Testing

@testable import RouteKit

@Suite struct StageBundleTests {
    func bundle(_ entries: [Zip.Entry]) throws -> StageBundle {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ZIP_03-09-2019.zip").path
        try Zip.write(entries, to: path)
        return StageBundle.read(try BundleSource.open(path))
    }

    @Test(.requires(.python3)) func usesEveryFileOfTheBundle() throws {
        let b = try bundle(SampleBundle.entries())
        #expect(b.date?.iso == "2019-09-03")
        #expect(b.stages.map(\.number) == [1, 2])
        let stageNames = ["01: Ljubljana – Mihelčičev dom", "02: Mihelčičev dom – Koča na Blegošu"]
        #expect(b.stages.map(\.name) == stageNames)
        #expect(b.stages[0].category == "Ljubljana" && b.stages[0].href == "https://example.org/01/")
        #expect(b.stages[0].fileName == "Etapa_1.gpx")
        let first = b.stages[0].controlPoints.map {
            "\($0.number.map(String.init) ?? "-") \($0.name) | \($0.stamp ?? "")"
        }
        #expect(first == ["1 Ljubljanski grad | V paviljonu", "2 Sv. Jakob nad Medvodami | Na drevesu"])
        #expect(b.stages[0].controlPoints[0].address == "Grajska planota 1, 1000 Ljubljana")
        #expect(b.stages[0].controlPoints[1].address == nil)
        #expect(b.stages[1].controlPoints.map(\.number) == [4])
        #expect(b.withoutPosition == [ControlPointEntry(number: 3, name: "Trdinov vrh", stamp: "V skrinjici")])
        #expect(
            b.problems == [
                "kt.json lists 1 control point with no waypoint in KT.gpx, listed without a position: 3 Trdinov vrh"
            ])
        // Times go back nowhere here; the stage's numbers are all there.
        #expect(b.stages[0].statistics.durationSeconds != nil)
    }

    @Test(.requires(.python3)) func takesAStageFromEtapeJSONByFileOrByTheNumberInItsName() throws {
        var entries = SampleBundle.entries()
        // The stages listed in reverse, one under a name of its own, a byte-order mark on the JSON and a stage.
        entries[0] = Zip.Entry(name: "Ljubljana.gpx", bytes: SampleBundle.stage(1, from: 46.0, bom: true))
        let etape =
            #"[{"name":"02: Druga","file":"etapa_2.GPX"},{"name":"01: Prva","file":"Ljubljana.gpx"},"#
            + #"{"name":"03: Tretja","file":"Etapa_3.gpx"}]"#
        entries[3] = Zip.Entry(name: "Etape.JSON", bytes: [0xEF, 0xBB, 0xBF] + Array(etape.utf8))
        let b = try bundle(entries)
        #expect(b.stages.map(\.number) == [1, 2])
        #expect(b.stages.map(\.name) == ["01: Prva", "02: Druga"])
        #expect(b.stages.map(\.fileName) == ["Ljubljana.gpx", "Etapa_2.gpx"])
        #expect(b.problems.contains("etape.json names 1 file not in the bundle: Etapa_3.gpx"))
    }

    @Test(.requires(.python3)) func reportsWhatIsMissingOrBrokenAndKeepsTheRest() throws {
        var entries = SampleBundle.entries()
        entries.removeLast()  // no kt.json
        entries[3] = Zip.Entry(name: "etape.json", bytes: Array("[{\"name\": ".utf8))
        entries.append(Zip.Entry(name: "Etapa 3.gpx", bytes: Array("<gpx><trk><trkseg><trkpt lat=\"1\"".utf8)))
        entries.append(Zip.Entry(name: "etapa-2.gpx", bytes: SampleBundle.stage(2, from: 47)))
        let b = try bundle(entries)
        #expect(b.stages.map(\.number) == [1, 2])
        #expect(b.stages.map(\.name) == ["01_Track", "02_Track"])
        #expect(b.stages.allSatisfy { $0.controlPoints.allSatisfy { $0.stamp == nil && $0.number == nil } })
        let problems = b.problems.joined(separator: "\n")
        #expect(problems.contains("etape.json:1:11: "))
        #expect(problems.contains("kt.json is missing: no stamp locations"))
        #expect(problems.contains("Etapa 3.gpx:1:"))
        #expect(problems.contains("stage 3 left out"))
        #expect(
            problems.contains("etapa-2.gpx left out: Etapa_2.gpx is stage 2 too")
                || problems.contains("Etapa_2.gpx left out: etapa-2.gpx is stage 2 too"))
    }

    @Test func listsNamesInMessagesUpToTen() {
        #expect(StageBundle.list(["a", "b"]) == "a, b")
        #expect(StageBundle.list((1...12).map(String.init)) == "1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more")
    }

    @Test func fillsTheFiguresADescriptionLeavesEmpty() {
        var s = TrackStatistics()
        s.length2DMeters = 25_912
        s.ascent = AscentDescent(ascentMeters: 1091.4, descentMeters: 731.6)
        s.minElevationMeters = 292.4
        let text =
            "Z Grajskega griča.   Dolžina:  Vzpon:  Spust: Trajanje: 3 ure Najnižja točka: Najvišja točka: 1384 m"
        let pieces = DescriptionPiece.filling(text, with: s)
        #expect(pieces.filter(\.isMeasured).map(\.text) == ["25,9 km", "1091 m", "732 m", "292 m"])
        let filled =
            "Z Grajskega griča.   Dolžina: 25,9 km Vzpon: 1091 m Spust: 732 m Trajanje: 3 ure "
            + "Najnižja točka: 292 m Najvišja točka: 1384 m"
        #expect(pieces.map(\.text).joined() == filled)
        // A description with its figures is left as it is.
        let full = "Dolžina: 38 km Vzpon: 1500 m Spust: 850 m"
        #expect(DescriptionPiece.filling(full, with: s) == [DescriptionPiece(text: full, isMeasured: false)])
        #expect(DescriptionPiece.filling("Dolžina:", with: TrackStatistics()).map(\.text) == ["Dolžina: ", "0,0 km"])
    }

    @Test(
        arguments: [
            ("Etapa 1.gpx", 1), ("Etapa_41.gpx", 41), ("ETAPA-07.GPX", 7), ("etapa.gpx", nil), ("Etapa_1a.gpx", nil),
            ("Etapa_99999999999999999999.gpx", nil), ("Etapa_١.gpx", nil), ("KT.gpx", nil),
        ] as [(String, Int?)])
    func readsTheStageNumberOfAFileName(name: String, number: Int?) {
        #expect(StageBundle.stageNumber(name) == number)
    }
}
