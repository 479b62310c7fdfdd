import RouteKit

/// `routekit convert`: GPX to GeoJSON or GeoJSON Text Sequences, GeoJSON back to GPX; streaming.
struct ConvertCommand: Command {
    static let name = "convert"
    static let abstract = "Convert GPX to GeoJSON (or a GeoJSON Text Sequence) and GeoJSON to GPX."
    static var help: String {
        """
        Usage: routekit convert [options] FILE... [-o OUT]
               routekit convert [options] -o OUTDIR/ FILE...

        Converts GPX to GeoJSON and GeoJSON back to GPX, streaming: memory stays small however large the
        file. Several inputs make one output. The input format is recognised from the content, so the
        file names do not matter; - reads standard input.

        With -o OUTDIR/ (a folder: a path ending in /, or one that exists), every input goes to its own file
        there, named after it (Etapa 1.gpx becomes Etapa 1.geojson; GeoJSON becomes .gpx unless --to says
        otherwise). Files are converted on all cores. A file that cannot be converted is reported and the
        others are still written; the exit status is then that of the first file that failed. Several
        inputs into one text sequence (--to geojsonseq or ndjson) are converted on all cores too, in the
        order one writer gives: every file's tracks, then the routes, then the waypoints.

        GPX becomes a GeoJSON FeatureCollection (RFC 7946) in the structure togeojson produces: tracks,
        then routes, then waypoints; a track with several segments is a MultiLineString; coordinates are
        [lon, lat, ele]; times, heart rate, cadence, temperature and power are arrays in
        properties.coordinateProperties, aligned with the coordinates. Numbers keep every digit unless
        --precision rounds them. GeoJSON becomes GPX 1.1: lines are tracks (routes when _gpxType is rte),
        points are waypoints, per-point times and sensor values go back into the points.

        Bad values (a latitude of "undefined", an elevation that is not a number) are left out with a
        warning naming the line; --strict makes them errors. A file that is not XML or not GPX is an error
        with its line and column, and nothing is written. On a terminal, a conversion that takes over a
        second shows its progress (bytes read of the inputs' size) on standard error.

        Options:
        \(optionHelp)

        Examples:
          routekit convert "Etapa 1.gpx" -o etapa-1.geojson
          routekit convert --to geojsonseq --precision 6 stages/*.gpx > stages.geojsons
          routekit convert -o geojson/ archive/*.gpx
          routekit convert etapa-1.geojson -o etapa-1.gpx

        Exit status: 0 done, 64 wrong usage, 65 bad data, 66 an input cannot be read, 73 the output
        cannot be written.

        """
    }

    enum OutputFormat: String, CaseIterable {
        case geojson, geojsonseq, ndjson, gpx
    }

    var inputs: [String] = []
    var output: String?
    var format: OutputFormat?
    var precision: Int?
    var kinds: FeatureKinds = .all
    var dem = DEMOptions()
    var strict = false
    var quiet = false

    static var options: [Option<Self>] {
        [
            .output(into: \.output),
            .value(
                "--to", name: "FORMAT",
                help: """
                    geojson, geojsonseq (RFC 8142 text sequence: one Feature per line, each
                    after a record separator), ndjson (one Feature per line) or gpx. Default:
                    from the extension of -o (.gpx, .geojsons, .ndjson, otherwise geojson),
                    and gpx when the first input is GeoJSON.
                    """,
                parse: OptionValues.choice(
                    OutputFormat.self,
                    message: "must be one of \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))"),
                into: \.format),
            .value(
                "--precision", name: "N",
                help: "Round coordinates to N decimals (0-15): 6 is about 0.1 m, for the web.",
                parse: { text, option in
                    guard let n = Int(text), (0...15).contains(n) else {
                        throw CLIError.usage(
                            "\(option) must be a whole number of decimals from 0 to 15, for example 6, not '\(text)'")
                    }
                    return n
                }, into: \.precision),
            .value(
                "--only", name: "KINDS", help: "Keep only these, comma-separated: tracks, routes, waypoints.",
                parse: { text, _ in try parseKinds(text) }, into: \.kinds),
        ]
            + DEMOptions.options(\.dem) + [
                .flag(
                    "--strict",
                    help: "Treat a bad value (or a point off the DEM) as an error (exit 65) instead of a warning.",
                    sets: \.strict),
                .quiet(sets: \.quiet),
            ]
    }

    static var positionals: Positionals<Self> { .many(\.inputs) }

    static func parseKinds(_ text: String) throws -> FeatureKinds {
        var kinds: FeatureKinds = []
        for part in text.split(separator: ",") {
            switch String(part).trimmingSpaces().lowercased() {
            case "tracks", "track", "trk": kinds.insert(.tracks)
            case "routes", "route", "rte": kinds.insert(.routes)
            case "waypoints", "waypoint", "wpt": kinds.insert(.waypoints)
            default:
                throw CLIError.usage(
                    "--only takes tracks, routes and waypoints, comma-separated; '\(part)' is none of them")
            }
        }
        guard !kinds.isEmpty else { throw CLIError.usage("--only needs at least one of tracks, routes, waypoints") }
        return kinds
    }

    func validate() throws {
        guard !inputs.isEmpty else {
            throw CLIError.usage("no input file; give one or more GPX or GeoJSON files, or - for standard input")
        }
        if inputs.filter({ $0 == "-" }).count > 1 {
            throw CLIError.usage("standard input (-) can be read only once")
        }
    }

    /// The output format: --to, else the extension of -o, else the opposite of the first input's format.
    func outputFormat(firstInput: InputFormat) -> OutputFormat {
        if let format { return format }
        if let output {
            let lower = output.lowercased()
            if lower.hasSuffix(".gpx") { return .gpx }
            if lower.hasSuffix(".geojsons") || lower.hasSuffix(".geojsonseq") || lower.hasSuffix(".jsonseq") {
                return .geojsonseq
            }
            if lower.hasSuffix(".ndjson") || lower.hasSuffix(".geojsonl") || lower.hasSuffix(".jsonl") {
                return .ndjson
            }
            if lower.hasSuffix(".geojson") || lower.hasSuffix(".json") { return .geojson }
        }
        return firstInput == .geojson ? .gpx : .geojson
    }

    func run(console: Console) throws -> ExitCode {
        if let folder = outputFolder { return try runBatch(into: folder, console: console) }
        let files = try openTrackInputs(inputs)
        let progress = ProgressBar.reading(files.map(\.0), label: "convert", console: console)
        defer { progress?.finish() }
        let format = outputFormat(firstInput: files[0].1)
        let model = try dem.open(strict: strict)
        let out = try console.output(output)
        if files.count > 1 && (format == .geojsonseq || format == .ndjson) {
            try convertInParallel(files, to: format, into: out, dem: model, console: console)
        } else {
            try convert(files, to: format, into: out, dem: model, console: console)
        }
        progress?.finish()
        model?.report(console: console, quiet: quiet)
        try out.commit()
        return .success
    }

    /// Converts `files` into one output in `format`, printing each file's warnings after it. With `parts`
    /// (a text sequence only), the routes and waypoints held back go there instead of after the tracks.
    func convert(
        _ files: [(InputFile, InputFormat)], to format: OutputFormat, into out: any ByteSink,
        parts: (routes: any ByteSink, waypoints: any ByteSink)? = nil, dem model: DEMUse? = nil, console: Console
    ) throws {
        // The writer runs on the pipeline's thread: its warnings wait here and are printed by this thread
        // once the file is through.
        final class Pending: @unchecked Sendable {
            var path = ""
            var messages: [String] = []
        }
        let pending = Pending()
        let warn: (String) -> Void = quiet ? { _ in } : { pending.messages.append("\(pending.path): \($0)") }
        func flushWarnings() {
            for message in pending.messages { console.warning(message) }
            pending.messages.removeAll()
        }

        let sink: GPXHandler
        let finish: () throws -> Void
        let written: () -> Int
        switch format {
        case .geojson, .geojsonseq, .ndjson:
            let layout: GeoJSONLayout =
                format == .geojson ? .featureCollection : format == .geojsonseq ? .textSequence : .lineDelimited
            let writer = GeoJSONWriter(sink: out, layout: layout, precision: precision, kinds: kinds, onWarning: warn)
            try writer.begin()
            sink = writer
            finish = {
                try parts.map { try writer.finishPart(routes: $0.routes, waypoints: $0.waypoints) } ?? writer.finish()
            }
            written = { writer.counts.features }
        case .gpx:
            let writer = GPXWriter(sink: out, precision: precision, kinds: kinds)
            try writer.begin()
            sink = writer
            finish = writer.finish
            written = { writer.itemsWritten }
        }

        // Reading and writing overlap on two threads.
        let pipeline = GPXPipeline(into: sink)
        for (file, inputFormat) in files {
            pending.path = file.path
            defer { flushWarnings() }
            let before = written()
            try readInput(
                file, format: inputFormat, strict: strict, quiet: quiet, console: console, dem: model, through: pipeline
            )
            if written() == before { warn("nothing to convert: no \(kinds.names) with a point") }
        }
        try finish()
        flushWarnings()
    }
}

extension FeatureKinds {
    /// "track, route or waypoint", or the ones in the set.
    var names: String {
        let names = [(FeatureKinds.tracks, "track"), (.routes, "route"), (.waypoints, "waypoint")]
            .filter { contains($0.0) }.map { $0.1 }
        guard names.count > 1, let last = names.last else { return names.first ?? "feature" }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }
}
