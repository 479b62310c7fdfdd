import RouteKit
import Testing

@testable import RouteKitCLI

/// The one option parser every command shares, through the commands' own tables.
@Suite struct OptionParserTests {
    @Test func valuesComeInlineOrAsTheNextWord() throws {
        let spaced = try ConvertCommand.parse(["a.gpx", "-o", "out.geojson", "--precision", "6", "--only", "tracks"])
        let inline = try ConvertCommand.parse(["a.gpx", "--output=out.geojson", "--precision=6", "--only=tracks"])
        for command in [spaced, inline] {
            #expect(command.inputs == ["a.gpx"])
            #expect(command.output == "out.geojson")
            #expect(command.precision == 6)
            #expect(command.kinds == .tracks)
        }
    }

    @Test func aLoneDashIsAPositionalAndSoIsEverythingAfterDoubleDash() throws {
        let command = try ConvertCommand.parse(["-", "-o", "-", "--", "--strict"])
        #expect(command.inputs == ["-", "--strict"])
        #expect(command.output == "-")
        #expect(!command.strict)
    }

    @Test func flagsAndRepeatedOptions() throws {
        let map = try MapCommand.parse([
            "t.gpx", "--clubrooms", "a.xml", "--clubrooms=b.csv", "-q", "--size", "1600x1000", "--projection",
            "WebMercator",
        ])
        #expect(map.clubrooms == ["a.xml", "b.csv"])
        #expect(map.quiet)
        #expect(map.size.width == 1600 && map.size.height == 1000)
        #expect(map.projection == .webMercator)
    }

    @Test func nestedPropertiesAreSetThroughTheTable() throws {
        let stats = try StatsCommand.parse(["--smoothing", "5m", "--threshold=0", "x.gpx"])
        #expect(stats.method.smoothingMeters == 5)
        #expect(stats.method.thresholdMeters == 0)
        let near = try NearCommand.parse(["--at", "49.1951,16.6068", "--lat-column", "y", "--lon-column=x", "c.csv"])
        #expect(near.columns.latitude == "y" && near.columns.longitude == "x")
        #expect(near.atText == "49.1951,16.6068")
        #expect(near.at.map { abs($0.latitude - 49.1951) < 1e-12 && abs($0.longitude - 16.6068) < 1e-12 } == true)
    }

    @Test(arguments: ["near", "map", "stages"])
    func theClubroomFilterIsReadTheSameByEveryCommand(command: String) throws {
        let words = ["--unit", "621.03", "--age=9", "--day", "út", "--sex", "girls", "--water"]
        let filter: ClubroomFilter
        switch command {
        case "near": filter = try NearCommand.parse(words).filter
        case "map": filter = try MapCommand.parse(words).filter
        default: filter = try StagesCommand.parse(words).filter
        }
        #expect(filter == ClubroomFilter(unit: "621.03", age: 9, weekday: .tuesday, sex: .girls, waterOnly: true))
    }

    @Test(arguments: [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["-o"], "-o needs a value"),
        (["--strict=yes"], "--strict takes no value; leave out '=yes'"),
        (
            ["--precision", "16"],
            "--precision must be a whole number of decimals from 0 to 15, for example 6, not '16'"
        ),
        (["--to=shp"], "--to must be one of geojson, geojsonseq, ndjson, gpx, kml, kmz, not 'shp'"),
    ])
    func mistakesAreUsageErrorsThatSayWhatIsWrong(words: [String], message: String) {
        #expect(throws: CLIError.usage(message)) { try ConvertCommand.parse(words) }
    }

    @Test func aSecondPositionalIsRefusedWhereOneIsTaken() {
        #expect(throws: CLIError.usage("profile takes one track file; 'b.gpx' is a second one")) {
            try ProfileCommand.parse(["a.gpx", "b.gpx"])
        }
        #expect(throws: CLIError.usage("stages takes one bundle (a folder or a ZIP); 'b' is a second one")) {
            try StagesCommand.parse(["a", "b"])
        }
    }

    @Test func everyOptionOfEveryCommandIsInItsHelp() {
        func check<C: Command>(_: C.Type) {
            for option in C.options {
                let line = "  " + option.names.joined(separator: ", ") + (option.valueName.map { " " + $0 } ?? "")
                #expect(C.help.contains("\n" + line + " "), "\(C.name): \(line)")
            }
            #expect(C.help.contains("\n  -h, --help            Show this help.\n"))
        }
        check(ConvertCommand.self)
        check(StatsCommand.self)
        check(ProfileCommand.self)
        check(MapCommand.self)
        check(StagesCommand.self)
        check(NearCommand.self)
    }

    @Test func helpLinesWrapUnderTheirColumn() {
        let option = Option<ConvertCommand>.flag("--strict", help: "First line.\nSecond line.", sets: \.strict)
        #expect(
            option.helpLines == "  --strict              First line.\n" + String(repeating: " ", count: 24)
                + "Second line.")
    }
}
