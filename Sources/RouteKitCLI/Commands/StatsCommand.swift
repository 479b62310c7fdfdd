import RouteKit

/// `routekit stats`: per track and in total, length, climbing, elevation, time and speed.
struct StatsCommand: Command {
    static let name = "stats"
    static let abstract = "Length, ascent, descent, elevation, times and speeds per track and in total."
    static var help: String {
        """
        Usage: routekit stats [options] FILE... [-o OUT]

        Prints, for every track of the given GPX (or KML, TCX, GeoJSON) files and for all of them
        together: points, segments, length (2D on the WGS84 ellipsoid, and 3D with the elevation
        changes), ascent and descent, lowest and highest elevation, start and end time, duration,
        moving time, average and maximum speed, the steepest climb and descent, and the bounding box;
        then each track's climbs (as 'routekit climbs' finds them). A file with routes but no tracks
        is summarised by its routes.

        How the numbers are made:
          length       geodesics on WGS84 (Karney's algorithm, PROJ), summed within segments only.
          ascent       elevation noise is estimated from the data (or given with --noise); the
                       elevations are smoothed over distance in proportion to it, and rises and falls
                       smaller than a threshold (a few times the remaining noise) are ignored. Exact
                       elevations (a DEM, a planned route) are used as they are. The noise is shown
                       beside the ascent. A jump between neighbouring points that no one rides (20 m
                       or more, steeper than 1:1, far beyond the track's other steps: two altimeters
                       mixed, a logger's glitch) is not climbing; nor are a recording's first heights
                       while its receiver or altimeter finds its level (faster than anyone moves:
                       steeper than 1:1 at 0.3 m/s or more, or rising steeper than 1:2 at 0.8 m/s
                       or more). A warning says where.
          moving time  intervals between consecutive fixes with an average speed of at least 0.5 m/s.
          speeds       average = length between timed fixes / moving time; maximum = fastest stretch
                       of at least 10 s.
          grades       steepest climb and descent over at least 100 m of the smoothed elevations.

        Options:
        \(optionHelp)

        Examples:
          routekit stats "Etapa 1.gpx"
          routekit stats --format json data/stkp/Etapa*.gpx -o stages.json
          routekit stats --threshold 0 --smoothing 0 planned-route.gpx
          routekit stats --noise 0.3 barometer-ride.gpx
          routekit stats --noise 4,30,0.5 phone-ride.gpx

        Exit status: 0 done, 64 wrong usage, 65 bad data, 66 an input cannot be read, 73 the output
        cannot be written.

        """
    }

    enum Format: String, CaseIterable { case table, json, csv }

    var inputs: [String] = []
    var output: String?
    /// --format; nil: the one -o's extension names, else table (``chosenFormat()``).
    var format: Format?
    /// The format to write: --format, else the one -o's extension names, else table; throws for an extension that
    /// names a format this command does not write.
    func chosenFormat() throws -> Format {
        try format ?? OptionValues.format(Format.self, ofOutput: output, command: "stats") ?? .table
    }
    var method = AscentMethod.standard
    var dem = DEMOptions()
    var strict = false
    var quiet = false

    static var options: [Option<Self>] {
        [
            .value(
                "--format", name: "F",
                help: """
                    table, json or csv; by default the one -o's extension names (.json, .csv),
                    else table. JSON and CSV carry plain SI numbers with the unit in the key
                    (length_2d_m, duration_s, average_speed_mps, ...), null where unknown.
                    """,
                parse: OptionValues.choice(Format.self, message: "must be table, json or csv"), into: \.format),
            .output(into: \.output),
            .value(
                "--smoothing", name: "METRES",
                help: """
                    Use this smoothing bandwidth (Gaussian sigma, metres along the track)
                    instead of the automatic one; 0 turns smoothing off.
                    """,
                parse: OptionValues.metres, into: \.method.smoothingMeters),
            .value(
                "--threshold", name: "METRES",
                help: """
                    Use this hysteresis threshold instead of the automatic one; 0 counts
                    every rise.
                    """,
                parse: OptionValues.metres, into: \.method.thresholdMeters),
            .value(
                "--noise", name: "SPEC",
                help: """
                    The elevation noise, when it is known, instead of the estimate from the
                    data: SIGMA (metres of white noise, a barometer: 0.3), SIGMA,CORR (SIGMA
                    correlated over CORR metres, GPS: 4,30) or SIGMA,CORR,WHITE (with WHITE
                    metres of white noise beside it: 4,30,0.5). 0 counts every rise. With
                    --dem, for the points that keep their recorded elevations.
                    """,
                parse: OptionValues.noise, into: \.method.knownNoise),
        ]
            + DEMOptions.options(\.dem) + [
                DEMOptions.strict(sets: \.strict),
                .quiet(sets: \.quiet),
            ]
    }

    static var positionals: Positionals<Self> { .many(\.inputs) }

    func validate() throws {
        guard !inputs.isEmpty else {
            throw CLIError.usage("no input file; give one or more GPX files, or - for standard input")
        }
        _ = try chosenFormat()  // an -o naming a format this command does not write
        try dem.validate()
    }

    func run(console: Console) throws -> ExitCode {
        let files = try openTrackInputs(inputs)
        let progress = ProgressBar.reading(files.map(\.0), label: "stats", console: console)
        defer { progress?.finish() }
        let model = try dem.open(strict: strict)
        var rows: [(file: String, stats: TrackStatistics)] = []
        for (file, format) in files {
            let collector = dem.collector(method)
            try readInput(
                file, format: format, strict: strict, quiet: quiet, console: console, dem: model,
                through: GPXPipeline(into: collector))
            let lines = collector.lines
            if lines.isEmpty { console.warning("\(file.path): no track or route with a point") }
            for (k, line) in lines.enumerated() where !quiet {
                let place = file.path + (lines.count > 1 ? " (\(line.name ?? "track \(k + 1)"))" : "")
                warnElevationsNotCounted(line, at: place, dem: model != nil, quiet: quiet, console: console)
                guard let problem = line.timeProblem else { continue }
                console.warning("\(place): \(problem): duration, moving time and speeds are left out")
            }
            rows += lines.map { (file.path, $0) }
        }
        progress?.finish()
        model?.report(console: console, quiet: quiet)
        let total = TrackStatistics.total(of: rows.map(\.stats))
        var buffer = ByteBuffer(capacity: 4096)
        switch try chosenFormat() {
        case .table:
            StatsFormatter.table(
                rows, total: total, dem: model, exact: dem.method(method).takesElevationsAsExact,
                noiseGiven: model == nil && method.knownNoise != nil, into: &buffer)
        case .json: StatsFormatter.json(files: inputs, rows, total: total, dem: model, into: &buffer)
        case .csv: StatsFormatter.csv(rows, total: total, into: &buffer)
        }
        try console.write(&buffer, to: output)
        return .success
    }
}

/// Says where a line's elevations jump (``ElevationJump``) and where they settle at a recording's start
/// (``ElevationSettling``), which the ascent does not count; `place` names the file and, where it holds several lines,
/// the line; without a DEM in use, that --dem would take the terrain's heights. Nothing when quiet or where there is
/// neither.
func warnElevationsNotCounted(_ line: TrackStatistics, at place: String, dem: Bool, quiet: Bool, console: Console) {
    guard !quiet, let said = line.ascent?.notCountedSummaries else { return }
    // The hint once, after the last.
    for (k, summary) in said.enumerated() {
        let hint = dem || k < said.count - 1 ? "" : "; --dem takes the terrain's heights instead"
        console.warning("\(place): \(summary)\(hint)")
    }
}

/// Opens every input and recognises its format, before anything is written: a missing or unknown file
/// is reported first.
func openTrackInputs(_ paths: [String]) throws -> [(InputFile, InputFormat)] {
    try paths.map { path in
        let (file, format) = try InputFormat.open(path: path)
        guard let format else {
            throw CLIError.data(
                "\(path): not GPX, KML, KMZ, TCX or GeoJSON (the file is empty or starts with something else)")
        }
        return (file, format)
    }
}

/// Reads one input through `pipeline` (reading here, handling on the pipeline's thread) and waits until
/// the handler has taken everything.
func readInput(
    _ file: InputFile, format: InputFormat, strict: Bool, quiet: Bool, console: Console, dem: DEMUse? = nil,
    through pipeline: GPXPipeline
) throws {
    do {
        try readInput(
            file, format: format, strict: strict, quiet: quiet, console: console, dem: dem, handler: pipeline)
        try pipeline.finish()
    } catch {
        try? pipeline.finish()  // only to stop the handler's thread: the reader's error is the one to report
        throw error
    }
}

/// Reads one input (GPX, KML, TCX or GeoJSON) into `handler`, printing warnings and turning format errors into
/// data errors with the file name. Shared by the commands that read tracks. With `dem`, the points take
/// their elevations from it on the way.
func readInput(
    _ file: InputFile, format: InputFormat, strict: Bool, quiet: Bool, console: Console, dem: DEMUse? = nil,
    handler target: GPXHandler
) throws {
    let printer = WarningPrinter(console: console, path: file.path, quiet: quiet)
    let elevations = dem?.handler(into: target, path: file.path)
    let handler: GPXHandler = elevations ?? target
    defer { if let elevations { dem?.add(elevations) } }
    do {
        switch format {
        case .gpx: try GPXReader(strict: strict, onWarning: { printer($0) }).read(file, handler: handler)
        case .geojson: try GeoJSONReader(strict: strict, onWarning: { printer($0) }).read(file, handler: handler)
        case .kml: try KMLReader(strict: strict, onWarning: { printer($0) }).read(file, handler: handler)
        case .tcx: try TCXReader(strict: strict, onWarning: { printer($0) }).read(file, handler: handler)
        }
    } catch let error as GPXError {
        throw CLIError.data("\(file.path):\(error)")
    } catch let error as GeoJSONError {
        throw CLIError.data("\(file.path):\(error)")
    } catch let error as XMLFormatError {
        throw CLIError.data("\(file.path):\(error)")
    }
    printer.finish()
}
