import RouteKit

/// `routekit climbs`: the climbs of a track, categorised.
struct ClimbsCommand: Command {
    static let name = "climbs"
    static let abstract = "The climbs of a track, categorised: a table, JSON, CSV or GeoJSON."
    static var help: String {
        """
        Usage: routekit climbs [options] FILE [-o OUT]

        Finds the climbs of the track in FILE (GPX, KML, TCX or GeoJSON; several tracks one after the other,
        a file without tracks by its routes) on its elevations smoothed as for the ascent (see 'routekit
        stats --help'). A climb runs from a low point to the following high point; a dip inside it does not
        end it while it loses less than max(10 m, 10 % of the climb's gain so far) and is shorter than
        500 m. A climb counts when it is at least 500 m long with an average grade of at least 3 %.

        For each: where it starts and ends (km along the track, segment gaps not counted), length, gain
        (top minus bottom), average grade, the steepest grade over any 100 m, the top's elevation, the
        score (length in m times average grade in %) and the category it gives (80,000 or more HC;
        64,000: 1; 32,000: 2; 16,000: 3; 8,000: 4; less: none), and the FIETS index (gain² / (10 ×
        length) + (top − 1000) / 1000 when the top is over 1000 m, all in metres).

        Options:
        \(optionHelp)

        Examples:
          routekit climbs "Etapa 1.gpx"
          routekit climbs --format geojson --min-category 3 route.gpx -o climbs.geojson

        Exit status: 0 done, 64 wrong usage, 65 bad data, 66 an input cannot be read, 73 the output
        cannot be written.

        """
    }

    enum Format: String { case table, json, csv, geojson }

    var input: String?
    var output: String?
    /// --format; nil: the one -o's extension names, else table (``chosenFormat()``).
    var format: Format?
    /// The format to write: --format, else the one -o's extension names, else table; throws for an extension that
    /// names a format this command does not write.
    func chosenFormat() throws -> Format {
        try format ?? OptionValues.format(Format.self, ofOutput: output, command: "climbs") ?? .table
    }
    var minimumCategory: ClimbCategory?
    var method = AscentMethod.standard
    var dem = DEMOptions()
    var strict = false
    var quiet = false

    static var options: [Option<Self>] {
        [
            .output(into: \.output),
            .value(
                "--format", name: "F",
                help: """
                    table, json, csv or geojson (each climb a LineString with its numbers);
                    by default the one -o's extension names, else table.
                    """,
                parse: OptionValues.choice(Format.self, message: "must be table, json, csv or geojson"),
                into: \.format),
            .value(
                "--min-category", name: "C", help: "Only climbs of this category or harder: HC, 1, 2, 3 or 4.",
                parse: Self.category, into: \.minimumCategory),
            .value(
                "--smoothing", name: "METRES", help: "Smoothing bandwidth instead of the automatic one (0: none).",
                parse: OptionValues.metres, into: \.method.smoothingMeters),
            .value(
                "--noise", name: "SPEC",
                help: """
                    Elevation noise SIGMA[,CORR[,WHITE]] in metres instead of the estimate
                    (see stats).
                    """,
                parse: OptionValues.noise, into: \.method.knownNoise),
        ]
            + DEMOptions.options(\.dem) + [
                DEMOptions.strict(sets: \.strict),
                .quiet(sets: \.quiet),
            ]
    }

    static var positionals: Positionals<Self> {
        .one(\.input, second: { "climbs takes one track file; '\($0)' is a second one" })
    }

    static func category(_ text: String, _ option: String) throws -> ClimbCategory? {
        guard let category = ClimbCategory(rawValue: text.uppercased()) else {
            throw CLIError.usage("\(option) must be HC, 1, 2, 3 or 4, not '\(text)'")
        }
        return category
    }

    func validate() throws {
        guard input != nil else {
            throw CLIError.usage("no input file; give a GPX file with a track, or - for standard input")
        }
        _ = try chosenFormat()  // an -o naming a format this command does not write
        try dem.validate()
    }

    func run(console: Console) throws -> ExitCode {
        guard let path = input else { throw CLIError.usage("no input file") }  // validate() has said so already
        let model = try dem.open(strict: strict)
        let (track, recorded) = try readTrack(path, strict: strict, quiet: quiet, console: console, dem: model)
        model?.report(console: console, quiet: quiet)
        let profile = dem.profile(track, recorded: recorded, method: method)
        if profile.samples.isEmpty && !quiet { console.warning("\(path): the track has no elevations: no climbs") }
        warnElevationsNotCounted(profile.statistics, at: path, dem: model != nil, quiet: quiet, console: console)
        let climbs = profile.climbs().filter { climb in
            minimumCategory.map { minimum in climb.category.map { $0 <= minimum } ?? false } ?? true
        }
        var buffer = ByteBuffer(capacity: 1 << 14)
        switch try chosenFormat() {
        case .table: ClimbsFormatter.table(climbs, name: profile.name ?? path, into: &buffer)
        case .json: ClimbsFormatter.json(climbs, name: profile.name, into: &buffer)
        case .csv: ClimbsFormatter.csv(climbs, into: &buffer)
        case .geojson: ClimbsFormatter.geojson(climbs, profile: profile, into: &buffer)
        }
        try console.write(&buffer, to: output)
        return .success
    }
}
