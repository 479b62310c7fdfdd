import RouteKit

/// `routekit profile`: an elevation profile as an SVG chart, or its series as CSV or JSON.
struct ProfileCommand: Command {
    static let name = "profile"
    static let abstract = "Elevation against distance: an SVG chart (or CSV/JSON), control points marked."
    static var help: String {
        """
        Usage: routekit profile [options] FILE [-o OUT]

        Draws the elevation profile of the track in FILE (GPX, KML, TCX or GeoJSON; several tracks are drawn
        one after the other, a file without tracks by its routes): distance in km across (in m for a track
        under 1 km), elevation in m up, a grid at round numbers, the area under the curve coloured by
        gradient (< 3, 3-6, 6-10, 10-15, > 15 %, up or down) by the average grade of 200 m stretches (longer
        on long routes, a pixel at least), so a steady climb is one colour, with a legend that says so and
        states the vertical exaggeration; each climb (see 'routekit climbs --help') bracketed and labelled
        "4.2 km · 7.1 % · Cat 2"; the highest and lowest points labelled; and a title with the name, length,
        ascent and descent. The curve is the elevation smoothed as for the ascent (see 'routekit stats
        --help'), with at most one vertex per pixel across, peaks kept.

        --waypoints marks control points at their place along the track: each is projected onto the
        nearest point of the track; one further than --max-distance from it is left out with a warning.
        Their names stand level above the plot in two rows, shortened with an ellipsis where they would
        cover one another.

        Options:
        \(optionHelp)

        Examples:
          routekit profile "Etapa 1.gpx" --waypoints KT.gpx -o etapa-1-profile.svg
          routekit profile --format csv "Etapa 1.gpx" > etapa-1-profile.csv
          routekit profile --width 1600 --height 500 route.gpx -o route-profile.svg

        Exit status: 0 done, 64 wrong usage, 65 bad data, 66 an input cannot be read, 73 the output
        cannot be written.

        """
    }

    enum Format: String { case svg, csv, json }

    var input: String?
    var output: String?
    /// --format; nil: the one -o's extension names, else svg (``chosenFormat()``).
    var format: Format?
    /// The format to write: --format, else the one -o's extension names, else svg; throws for an extension that
    /// names a format this command does not write.
    func chosenFormat() throws -> Format {
        try format ?? OptionValues.format(Format.self, ofOutput: output, command: "profile") ?? .svg
    }
    var waypoints: String?
    var maxDistance = 200.0
    var width = 1000.0
    var height = 360.0
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
                    svg, csv or json (by default the one -o's extension names, else svg):
                    csv and json the series at full resolution, with the columns distance_m,
                    elevation_m, smoothed_elevation_m, grade_pct.
                    """,
                parse: OptionValues.choice(Format.self, message: "must be svg, csv or json"), into: \.format),
            .value(
                "--waypoints", name: "FILE", help: "Mark the waypoints of this GPX file (for example KT.gpx).",
                into: \.waypoints),
            .value(
                "--max-distance", name: "D",
                help: """
                    How far from the track a waypoint may be, with a unit: 200m (default),
                    1.5km.
                    """,
                parse: Units.length, into: \.maxDistance),
            .value(
                "--width", name: "PIXELS", help: "Width of the chart, 300 to 10000 (default 1000).",
                parse: OptionValues.pixels(300...10_000), into: \.width),
            .value(
                "--height", name: "PIXELS", help: "Height of the chart, 200 to 5000 (default 360).",
                parse: OptionValues.pixels(200...5_000), into: \.height),
            .value(
                "--smoothing", name: "METRES", help: "Smoothing bandwidth instead of the automatic one (0: none).",
                parse: OptionValues.metres, into: \.method.smoothingMeters),
            .value(
                "--threshold", name: "METRES",
                help: "Hysteresis threshold for the ascent instead of the automatic one.",
                parse: OptionValues.metres, into: \.method.thresholdMeters),
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
        .one(\.input, second: { "profile takes one track file; '\($0)' is a second one" })
    }

    func validate() throws {
        guard input != nil else {
            throw CLIError.usage("no input file; give a GPX file with a track, or - for standard input")
        }
        let chosen = try chosenFormat()  // an -o naming a format profile does not write is refused here too
        if waypoints != nil && chosen == .csv {
            let why = format == nil ? " (-o's extension chose CSV; give --format svg or json)" : ""
            throw CLIError.usage("--waypoints marks the SVG chart or the JSON; CSV has no place for them\(why)")
        }
        try dem.validate()
    }

    func run(console: Console) throws -> ExitCode {
        guard let path = input else { throw CLIError.usage("no input file") }  // validate() has said so already
        let model = try dem.open(strict: strict)
        let (track, recorded) = try readTrack(path, strict: strict, quiet: quiet, console: console, dem: model)
        model?.report(console: console, quiet: quiet)
        let profile = dem.profile(track, recorded: recorded, method: method)
        if profile.samples.isEmpty && !quiet { console.warning("\(path): the track has no elevations") }
        warnElevationsNotCounted(profile.statistics, at: path, dem: model != nil, quiet: quiet, console: console)
        let placed = try placeWaypoints(on: profile, console: console)
        var buffer = ByteBuffer(capacity: 1 << 16)
        switch try chosenFormat() {
        case .svg:
            let markers = placed.map { ProfileChart.Marker(label: $0.name, distanceMeters: $0.alongMeters) }
            buffer.append(string: ProfileChart(width: width, height: height).render(profile, markers: markers))
        case .csv: Self.csv(profile, into: &buffer)
        case .json: Self.json(profile, waypoints: placed, into: &buffer)
        }
        try console.write(&buffer, to: output)
        return .success
    }

    /// A waypoint placed on the track.
    struct PlacedWaypoint {
        var name: String
        /// Distance along the track (the profile's distance), metres.
        var alongMeters: Double
        /// Distance from the track, metres.
        var offTrackMeters: Double
    }

    /// The --waypoints within --max-distance of the track, in file order; the others are left out with a warning.
    private func placeWaypoints(on profile: ElevationProfile, console: Console) throws -> [PlacedWaypoint] {
        guard let waypoints else { return [] }
        let marks = try readWaypoints(waypoints, strict: strict, quiet: quiet, console: console)
        guard !profile.positions.isEmpty else { return [] }
        var placed: [PlacedWaypoint] = []
        var far: [String] = []
        for p in Placement.place(marks.map(\.coordinate), on: [profile.corridor()]) {
            let name = marks[p.index].name ?? "waypoint \(p.index + 1)"
            if p.offTrackMeters > maxDistance {
                far.append("\(name) (\(Int(p.offTrackMeters.rounded())) m)")
            } else {
                placed.append(PlacedWaypoint(name: name, alongMeters: p.alongMeters, offTrackMeters: p.offTrackMeters))
            }
        }
        if !far.isEmpty && !quiet {
            console.warning(
                "\(waypoints): \(far.count) waypoint\(far.count == 1 ? "" : "s") "
                    + "further than \(Int(maxDistance)) m "
                    + "from the track left out: \(StageBundle.list(far))")
        }
        return placed
    }

    /// The samples as CSV.
    private static func csv(_ profile: ElevationProfile, into buffer: inout ByteBuffer) {
        buffer.append("distance_m,elevation_m,smoothed_elevation_m,grade_pct\n")
        for s in profile.samples {
            buffer.append(
                string: "\(DecimalText.compact(s.distanceMeters, decimals: 3)),"
                    + "\(DecimalText.compact(s.elevationMeters, decimals: 3)),"
                    + "\(DecimalText.compact(s.smoothedElevationMeters, decimals: 3)),"
                    + "\(DecimalText.compact(s.gradePercent, decimals: 2))\n")
        }
    }

    /// The profile as JSON: name, length, ascent and descent, the waypoints placed and the samples.
    private static func json(
        _ profile: ElevationProfile, waypoints placed: [PlacedWaypoint],
        into buffer: inout ByteBuffer
    ) {
        func number(_ value: Double?) -> String { value.map { DecimalText.compact($0, decimals: 3) } ?? "null" }
        buffer.append("{\"name\":")
        if let name = profile.name { JSONText.appendString(name, to: &buffer) } else { buffer.append("null") }
        buffer.append(string: ",\"length_2d_m\":\(number(profile.statistics.length2DMeters))")
        buffer.append(string: ",\"ascent_m\":\(number(profile.statistics.ascent?.ascentMeters))")
        buffer.append(string: ",\"descent_m\":\(number(profile.statistics.ascent?.descentMeters))")
        buffer.append(",\"waypoints\":[")
        for (i, p) in placed.enumerated() {
            if i > 0 { buffer.append(0x2C) }
            buffer.append("{\"name\":")
            JSONText.appendString(p.name, to: &buffer)
            buffer.append(
                string: ",\"distance_m\":\(DecimalText.compact(p.alongMeters, decimals: 3)),"
                    + "\"off_track_m\":\(DecimalText.compact(p.offTrackMeters, decimals: 3))}")
        }
        buffer.append("],\n\"samples\":[")
        for (i, s) in profile.samples.enumerated() {
            buffer.append(i > 0 ? ",\n" : "\n")
            buffer.append(
                string: "{\"distance_m\":\(DecimalText.compact(s.distanceMeters, decimals: 3)),"
                    + "\"elevation_m\":\(DecimalText.compact(s.elevationMeters, decimals: 3)),"
                    + "\"smoothed_elevation_m\":\(DecimalText.compact(s.smoothedElevationMeters, decimals: 3)),"
                    + "\"grade_pct\":\(DecimalText.compact(s.gradePercent, decimals: 2))}")
        }
        buffer.append("]}\n")
    }
}
