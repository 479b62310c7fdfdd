import RouteKit

/// `routekit profile`: an elevation profile as an SVG chart, or its series as CSV or JSON.
struct ProfileCommand: Command {
    static let name = "profile"
    static let abstract = "Elevation against distance: an SVG chart (or CSV/JSON), control points marked."
    static let help = """
        Usage: routekit profile [options] FILE [-o OUT]

        Draws the elevation profile of the track in FILE (GPX or GeoJSON; several tracks are drawn one
        after the other, a file without tracks by its routes): distance in km across, elevation in m up,
        a grid at round numbers, the area under the curve coloured by gradient (< 3, 3-6, 6-10, 10-15,
        > 15 %, up or down) with a legend, the highest and lowest points labelled, and a title with the
        name, length, ascent and descent. The curve is the elevation smoothed as for the ascent (see
        'routekit stats --help'), with at most one vertex per pixel across, peaks kept.

        --waypoints marks control points at their place along the track: each is projected onto the
        nearest point of the track; one further than --max-distance from it is left out with a warning.

        Options:
          -o, --output FILE     Write to FILE (atomically) instead of standard output.
          --format F            svg (default), csv or json: the series at full resolution, with the
                                columns distance_m, elevation_m, smoothed_elevation_m, grade_pct.
          --waypoints FILE      Mark the waypoints of this GPX file (for example KT.gpx).
          --max-distance D      How far from the track a waypoint may be, with a unit: 200m (default),
                                1.5km.
          --width PIXELS        Width of the chart, 300 to 10000 (default 1000).
          --height PIXELS       Height of the chart, 200 to 5000 (default 360).
          --smoothing METRES    Smoothing bandwidth instead of the automatic one (0: none).
          --threshold METRES    Hysteresis threshold for the ascent instead of the automatic one.
          --strict              Treat a bad value in a file as an error (exit 65).
          -q, --quiet           Do not print warnings.
          -h, --help            Show this help.

        Examples:
          routekit profile "Etapa 1.gpx" --waypoints KT.gpx -o etapa-1-profile.svg
          routekit profile --format csv "Etapa 1.gpx" > etapa-1-profile.csv
          routekit profile --width 1600 --height 500 route.gpx -o route-profile.svg

        Exit status: 0 done, 64 wrong usage, 65 bad data, 66 an input cannot be read, 73 the output
        cannot be written.

        """

    enum Format: String { case svg, csv, json }

    var input: String?
    var output: String?
    var format = Format.svg
    var waypoints: String?
    var maxDistance = 200.0
    var width = 1000.0
    var height = 360.0
    var method = AscentMethod.standard
    var strict = false
    var quiet = false

    init(arguments: inout Arguments) throws {
        while let word = arguments.next() {
            switch word {
            case .positional(let path):
                guard input == nil else { throw CLIError.usage("profile takes one track file; '\(path)' is a second one") }
                input = path
            case let .option(name, inline):
                switch name {
                case "-o", "--output": output = try arguments.value(for: name, inline: inline)
                case "--format":
                    let value = try arguments.value(for: name, inline: inline)
                    guard let f = Format(rawValue: value.lowercased()) else {
                        throw CLIError.usage("--format must be svg, csv or json, not '\(value)'")
                    }
                    format = f
                case "--waypoints": waypoints = try arguments.value(for: name, inline: inline)
                case "--max-distance":
                    maxDistance = try Units.length(try arguments.value(for: name, inline: inline), option: name)
                case "--width": width = try Self.pixels(try arguments.value(for: name, inline: inline), name, 300...10_000)
                case "--height": height = try Self.pixels(try arguments.value(for: name, inline: inline), name, 200...5_000)
                case "--smoothing": method.smoothingMeters = try StatsCommand.metres(try arguments.value(for: name, inline: inline), name)
                case "--threshold": method.thresholdMeters = try StatsCommand.metres(try arguments.value(for: name, inline: inline), name)
                case "--strict": strict = true
                case "-q", "--quiet": quiet = true
                default: throw CLIError.usage("unknown option '\(name)'")
                }
            }
        }
    }

    static func pixels(_ text: String, _ option: String, _ range: ClosedRange<Double>) throws -> Double {
        guard let v = Double(text), range.contains(v), v == v.rounded() else {
            throw CLIError.usage("\(option) takes whole pixels from \(Int(range.lowerBound)) to \(Int(range.upperBound)), not '\(text)'")
        }
        return v
    }

    func validate() throws {
        guard input != nil else { throw CLIError.usage("no input file; give a GPX file with a track, or - for standard input") }
        if waypoints != nil && format != .svg && format != .json {
            throw CLIError.usage("--waypoints marks the SVG chart or the JSON; CSV has no place for them")
        }
    }

    func run(console: Console) throws -> ExitCode {
        let path = input!
        let file = try InputFile(path: path)
        guard let inputFormat = try InputFormat.detect(file) else {
            throw CLIError.data("\(path): neither GPX nor GeoJSON (the file is empty or starts with something else)")
        }
        let builder = GPXDocumentBuilder()
        try readInput(file, format: inputFormat, strict: strict, quiet: quiet, console: console, handler: builder)
        let document = builder.document
        let track = document.tracksElseRoutes()
        guard track.segments.contains(where: { !$0.points.isEmpty }) else { throw CLIError.data("\(path): no track or route to draw") }
        let profile = ElevationProfile(track: track, method: method)
        if profile.samples.isEmpty && !quiet { console.warning("\(path): the track has no elevations") }

        var placed: [(name: String, placement: TrackCorridor.Match)] = []
        if let waypoints {
            let marks = try GPXReader(strict: strict).document(at: waypoints)
            var far: [String] = []
            // One corridor (one index over the track) for all the waypoints.
            let corridor = profile.corridor()
            for (i, w) in marks.waypoints.enumerated() where !profile.positions.isEmpty {
                let name = w.name ?? "waypoint \(i + 1)"
                let p = corridor.place(w.coordinate)
                if p.distanceMeters > maxDistance {
                    far.append("\(name) (\(Int(p.distanceMeters.rounded())) m)")
                } else {
                    placed.append((name, p))
                }
            }
            if !far.isEmpty && !quiet {
                console.warning("\(waypoints): \(far.count) waypoint\(far.count == 1 ? "" : "s") further than \(Int(maxDistance)) m from the track left out: \(far.joined(separator: ", "))")
            }
        }

        var buffer = ByteBuffer(capacity: 1 << 16)
        switch format {
        case .svg:
            let markers = placed.map { ProfileChart.Marker(label: $0.name, distanceMeters: $0.placement.alongMeters) }
            buffer.append(string: ProfileChart(width: width, height: height).render(profile, markers: markers))
        case .csv:
            buffer.append("distance_m,elevation_m,smoothed_elevation_m,grade_pct\n")
            for s in profile.samples {
                buffer.append(string: "\(SVGWriter.number(s.distanceMeters, decimals: 3)),\(SVGWriter.number(s.elevationMeters, decimals: 3)),\(SVGWriter.number(s.smoothedElevationMeters, decimals: 3)),\(SVGWriter.number(s.gradePercent, decimals: 2))\n")
            }
        case .json:
            buffer.append("{\"name\":")
            if let name = profile.name { JSONOut.string(name, &buffer) } else { buffer.append("null") }
            buffer.append(string: ",\"length_2d_m\":\(SVGWriter.number(profile.statistics.length2DMeters, decimals: 3))")
            buffer.append(string: ",\"ascent_m\":\(profile.statistics.ascent.map { SVGWriter.number($0.ascentMeters, decimals: 3) } ?? "null")")
            buffer.append(string: ",\"descent_m\":\(profile.statistics.ascent.map { SVGWriter.number($0.descentMeters, decimals: 3) } ?? "null")")
            buffer.append(",\"waypoints\":[")
            for (i, p) in placed.enumerated() {
                if i > 0 { buffer.append(0x2C) }
                buffer.append("{\"name\":")
                JSONOut.string(p.name, &buffer)
                buffer.append(string: ",\"distance_m\":\(SVGWriter.number(p.placement.alongMeters, decimals: 3)),\"off_track_m\":\(SVGWriter.number(p.placement.distanceMeters, decimals: 3))}")
            }
            buffer.append("],\n\"samples\":[")
            for (i, s) in profile.samples.enumerated() {
                buffer.append(i > 0 ? ",\n" : "\n")
                buffer.append(string: "{\"distance_m\":\(SVGWriter.number(s.distanceMeters, decimals: 3)),\"elevation_m\":\(SVGWriter.number(s.elevationMeters, decimals: 3)),\"smoothed_elevation_m\":\(SVGWriter.number(s.smoothedElevationMeters, decimals: 3)),\"grade_pct\":\(SVGWriter.number(s.gradePercent, decimals: 2))}")
            }
            buffer.append("]}\n")
        }
        try console.write(&buffer, to: output)
        return .success
    }
}

/// Lengths on the command line always carry a unit: a bare number is ambiguous (metres? miles?).
enum Units {
    /// Metres from text like `200m`, `1.5km`, `60 km`.
    static func length(_ text: String, option: String) throws -> Double {
        let t = text.lowercased().trimmingSpaces()
        var number = t
        var factor = 1.0
        if t.hasSuffix("km") {
            number = String(t.dropLast(2))
            factor = 1000
        } else if t.hasSuffix("m") {
            number = String(t.dropLast(1))
        } else {
            throw CLIError.usage("\(option) needs a unit, for example 200m or 1.5km (a bare number could be read as miles)")
        }
        guard let value = DecimalText.parse(number), value > 0 else {
            throw CLIError.usage("\(option) must be a positive length, for example 200m or 1.5km, not '\(text)'")
        }
        // No two places on the Earth are farther apart than about 20,004 km.
        guard value * factor <= 20_000_000 else {
            throw CLIError.usage("\(option) can be at most 20000km (the distance to the other side of the Earth), not '\(text)'")
        }
        return value * factor
    }
}
