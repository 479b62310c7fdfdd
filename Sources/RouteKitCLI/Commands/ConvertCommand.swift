import RouteKit

/// `routekit convert`: GPX, KML and TCX to GeoJSON, GeoJSON Text Sequences, GPX or KML; GeoJSON back to GPX or
/// KML; streaming.
struct ConvertCommand: Command {
    static let name = "convert"
    static let abstract = "Convert GPX, KML and TCX to GeoJSON (or a GeoJSON Text Sequence), GPX or KML, and back."
    static var help: String {
        """
        Usage: routekit convert [options] FILE... [-o OUT]
               routekit convert [options] -o OUTDIR/ FILE...

        Converts GPX, KML and TCX to GeoJSON, and any of them to GPX, KML or KMZ, streaming: memory stays
        small however large the file. Several inputs make one output. The input format is recognised from
        the content (GPX, KML or KMZ, TCX or GeoJSON), so the file names do not matter; - reads standard
        input. The output format is --to, else the extension of -o; an extension RouteKit does not write
        (out.txt) is refused rather than guessed.

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

        KML and TCX become GeoJSON in the shape togeojson's kml() and tcx() give them. KML: Placemarks
        (Point, LineString, LinearRing, Polygon, MultiGeometry as a GeometryCollection, gx:Track and
        gx:MultiTrack with their times), then ground overlays and network links; ExtendedData and
        styles as simplestyle properties (stroke, fill, icon, ...). TCX: one feature per lap (and one for
        the courses) with the lap totals (totalTimeSeconds, distanceMeters, maxSpeed, avgHeartRate, ...),
        times and heart rate per point, cadences, speeds and watts. To GPX, KML lines become tracks and
        Points waypoints (polygons have no GPX form and are left out with a warning); TCX laps become
        tracks with their sensor values. KML output: a track whose points all have times (three or more
        a segment) is a gx:Track, other tracks and routes LineStrings (a MultiGeometry for several
        segments), waypoints Points with their name, description and time.

        Bad values (a latitude of "undefined", an elevation that is not a number) are left out with a
        warning naming the line; --strict makes them errors. A file that cannot be read as its format is
        an error with its line and column, and nothing is written. On a terminal, a conversion that takes
        over a second shows its progress (bytes read of the inputs' size) on standard error.

        Options:
        \(optionHelp)

        Examples:
          routekit convert "Etapa 1.gpx" -o etapa-1.geojson
          routekit convert --to geojsonseq --precision 6 stages/*.gpx > stages.geojsons
          routekit convert -o geojson/ archive/*.gpx
          routekit convert etapa-1.geojson -o etapa-1.gpx
          routekit convert "My Places.kml" ride.tcx -o places.geojson
          routekit convert --to kml "Etapa 1.gpx" > etapa-1.kml

        Exit status: 0 done, 64 wrong usage, 65 bad data, 66 an input cannot be read, 73 the output
        cannot be written.

        """
    }

    enum OutputFormat: String, CaseIterable {
        case geojson, geojsonseq, ndjson, gpx, kml
        /// KML zipped: a ZIP of one `doc.kml`, as Google Earth and My Maps read it.
        case kmz

        /// The file name endings that choose each format for -o.
        static let extensions: [(String, OutputFormat)] = [
            (".gpx", .gpx), (".kml", .kml), (".kmz", .kmz), (".geojsons", .geojsonseq), (".geojsonseq", .geojsonseq),
            (".jsonseq", .geojsonseq), (".ndjson", .ndjson), (".geojsonl", .ndjson), (".jsonl", .ndjson),
            (".geojson", .geojson), (".json", .geojson),
        ]
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
                    after a record separator), ndjson (one Feature per line), gpx, kml or kmz
                    (the KML zipped as doc.kml). Default: from the extension of -o (.geojson,
                    .json, .geojsons, .ndjson, .gpx, .kml, .kmz; another extension is refused);
                    without -o, geojson, or gpx when the first input is GeoJSON.
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
            + DEMOptions.options(\.dem, measuresAscent: false) + [
                .flag(
                    "--strict",
                    help: """
                        Treat a bad value (or a point off the DEM) as an error (exit 65)
                        instead of a warning.
                        """,
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
        if format == nil { _ = try formatOfOutputName() }
        try dem.validate()
    }

    /// The output format: --to, else the extension of -o, else the opposite of the first input's format
    /// (GeoJSON in, GPX out; GPX, KML or TCX in, GeoJSON out).
    func outputFormat(firstInput: InputFormat) throws -> OutputFormat {
        if let format = try format ?? formatOfOutputName() { return format }
        return firstInput == .geojson ? .gpx : .geojson
    }

    /// The format the extension of -o names; nil without -o or an extension.
    ///
    /// - Throws: a usage error when -o ends in an extension RouteKit does not write (`out.txt`): RouteKit never
    ///   writes one format under another's name.
    func formatOfOutputName() throws -> OutputFormat? {
        // A folder (`-o OUTDIR/`) names no format.
        guard let output, output != "-", !output.hasSuffix("/") else { return nil }
        let lower = output.lowercased()
        if let (_, format) = OutputFormat.extensions.first(where: { lower.hasSuffix($0.0) }) { return format }
        let name = Folder.baseName(lower)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex
        else { return nil }
        throw CLIError.usage(
            "-o \(output): RouteKit does not write '\(name[dot...])' files; it writes "
                + OutputFormat.extensions.map(\.0).joined(separator: ", ")
                + " (choose one, or name the format with --to "
                + OutputFormat.allCases.map(\.rawValue).joined(separator: "|") + ")")
    }

    func run(console: Console) throws -> ExitCode {
        if let folder = outputFolder { return try runBatch(into: folder, console: console) }
        let files = try openTrackInputs(inputs)
        let format = try outputFormat(firstInput: files[0].1)
        let progress = ProgressBar.reading(files.map(\.0), label: "convert", console: console)
        defer { progress?.finish() }
        let model = try dem.open(strict: strict)
        let out = try console.output(output)
        if files.count > 1 && (format == .geojsonseq || format == .ndjson) {
            try convertInParallel(files, to: format, into: out, dem: model, console: console)
        } else {
            try convert(files, to: format, into: out, dem: model, console: console)
        }
        progress?.finish()
        model?.report(console: console, quiet: quiet, measuresAscent: false)
        try out.commit()
        return .success
    }

    /// Converts `files` into one output in `format`, printing each file's warnings after it. With `parts`
    /// (a text sequence only), the routes and waypoints held back go there instead of after the tracks.
    /// `overlapped` reads and writes on two threads; a worker among many (whose files already keep every core
    /// busy) does both on its own thread.
    func convert(
        _ files: [(InputFile, InputFormat)], to format: OutputFormat, into out: any ByteSink,
        parts: (routes: any ByteSink, waypoints: any ByteSink)? = nil, dem model: DEMUse? = nil,
        overlapped: Bool = true, console: Console
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
        /// Writes a KML or TCX file's features as they are, in togeojson's shape (GeoJSON outputs only).
        var features: ((JSONValue, Int, Int) throws -> Void)?
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
            // With a DEM, KML and TCX go through the handler, where the DEM sets their elevations.
            if model == nil { features = { feature, _, _ in try writer.write(feature: feature) } }
        case .gpx, .kml, .kmz:
            // A KMZ is the KML compressed on its way out, as the one file of a ZIP.
            let zip = format == .kmz ? try ZipFileSink(entryName: "doc.kml", into: out, name: output ?? "-") : nil
            let writer: any ItemWriter =
                format == .gpx
                ? GPXWriter(sink: out, precision: precision, kinds: kinds)
                : KMLWriter(sink: zip ?? out, precision: precision, kinds: kinds)
            try writer.begin()
            sink = writer
            finish = {
                try writer.finish()
                try zip?.close()
            }
            written = { writer.itemsWritten }
        }

        // Reading and writing overlap on two threads, unless the worker is one of many.
        let pipeline = overlapped ? GPXPipeline(into: sink) : nil
        for (file, inputFormat) in files {
            pending.path = file.path
            defer { flushWarnings() }
            let before = written()
            if let features, inputFormat == .kml || inputFormat == .tcx {
                try readFeatures(
                    file, format: inputFormat, strict: strict, quiet: quiet, console: console, into: features)
            } else {
                if let pipeline {
                    try readInput(
                        file, format: inputFormat, strict: strict, quiet: quiet, console: console, dem: model,
                        through: pipeline)
                } else {
                    try readInput(
                        file, format: inputFormat, strict: strict, quiet: quiet, console: console, dem: model,
                        handler: sink)
                }
            }
            if written() == before { warn("nothing to convert: no \(kinds.names) with a point") }
        }
        try finish()
        flushWarnings()
    }
}

/// The writers of GPX and KML, alike to the command.
private protocol ItemWriter: GPXHandler {
    func begin() throws
    func finish() throws
    var itemsWritten: Int { get }
}

extension GPXWriter: ItemWriter {}
extension KMLWriter: ItemWriter {}

/// Reads a KML or TCX file as GeoJSON features in togeojson's shape, printing what is left out and turning
/// format errors into data errors with the file name.
private func readFeatures(
    _ file: InputFile, format: InputFormat, strict: Bool, quiet: Bool, console: Console,
    into body: @escaping (JSONValue, Int, Int) throws -> Void
)
    throws
{
    let printer = WarningPrinter(console: console, path: file.path, quiet: quiet)
    defer { printer.finish() }
    do {
        if format == .kml {
            try KMLReader(strict: strict, onWarning: { printer($0) }).features(file, body: body)
        } else {
            try TCXReader(strict: strict, onWarning: { printer($0) }).features(file, body: body)
        }
    } catch let error as XMLFormatError {
        throw CLIError.data("\(file.path):\(error)")
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
