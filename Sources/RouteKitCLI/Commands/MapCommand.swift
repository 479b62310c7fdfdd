import RouteKit

/// `routekit map`: an SVG map of tracks with their control points.
struct MapCommand: Command {
    static let name = "map"
    static let abstract = "An SVG map of tracks with control points, a scale bar and a graticule."
    static var help: String {
        """
        Usage: routekit map [options] TRACK... [-o map.svg]

        Draws the tracks (GPX, KML, TCX or GeoJSON; routes when a file has no tracks) on an SVG map: a
        transverse Mercator centred on the data, north up, true aspect; each line simplified to a quarter of
        a pixel (a 450,000-point route makes a map of a few hundred kilobytes); a graticule with degree
        labels, a scale bar whose length is right on the ground, a north arrow, start and finish markers,
        control points as numbered markers with their names (labels that would overlap are left out and
        counted), a legend and a title.

        Options:
        \(optionHelp)

        Examples:
          routekit map "Etapa 1.gpx" --waypoints KT.gpx -o etapa-1-map.svg
          routekit map data/stkp/Etapa*.gpx --size 1600x1000 --title "Sample route" -o route-map.svg
          routekit map stage.gpx --clubrooms data/clubrooms/clubrooms.xml --radius 3km -o stage-map.svg
          routekit map stage.gpx --clubrooms clubrooms.xml --age 10 --day wed -o stage-map.svg

        Exit status: 0 done, 64 wrong usage, 65 bad data, 66 an input cannot be read, 73 the output
        cannot be written.

        """
    }

    var inputs: [String] = []
    var waypoints: String?
    var maxDistance = 200.0
    var clubrooms: [String] = []
    var radius = 5_000.0
    var filter = ClubroomFilter()
    var table: String?
    var projection = MapProjection.Kind.transverseMercator
    var size = Size(width: 1200, height: 800)
    var title: String?
    var output: String?
    var dem: String?
    var quiet = false

    static var options: [Option<Self>] {
        [
            .value(
                "--waypoints", name: "FILE",
                help: """
                    Mark the waypoints of this GPX file as control points (for example KT.gpx),
                    numbered in order along the tracks.
                    """,
                into: \.waypoints),
            .value(
                "--max-distance", name: "D",
                help: """
                    Leave out (with a warning) waypoints further than this from every track,
                    with a unit: 200m (default), 2km.
                    """,
                parse: Units.length, into: \.maxDistance),
            .values(
                "--clubrooms", name: "CATALOG",
                help: """
                    Also mark the clubrooms (SkautIS XML, CSV, GeoJSON, or a postgresql://
                    table) within --radius of a track.
                    """,
                into: \.clubrooms),
            .value(
                "--radius", name: "R", help: "For --clubrooms, with a unit: 5km (default).", parse: Units.length,
                into: \.radius),
            ClubroomSource.tableOption(into: \.table),
        ] + ClubroomFilterOptions.options(\.filter) + [
            .value(
                "--projection", name: "P",
                help: """
                    tmerc (default: a transverse Mercator centred on the data) or webmercator
                    (as web maps draw it).
                    """,
                parse: OptionValues.choice(MapProjection.Kind.self, message: "must be tmerc or webmercator"),
                into: \.projection),
            .value(
                "--size", name: "WxH", help: "Size in pixels, for example 1200x800 (default).", parse: size,
                into: \.size),
            .value("--title", name: "TEXT", help: "The title; by default the first track's name.", into: \.title),
            .value(
                "--dem", name: "PATH",
                help: """
                    Shade the ground with the relief of this DEM (a raster GDAL reads, or a
                    folder of tiles, as for stats --dem), lit from the north-west.
                    """,
                into: \.dem),
            .output(into: \.output),
            .quiet(sets: \.quiet),
        ]
    }

    /// WIDTHxHEIGHT in pixels.
    static func size(_ text: String, _ option: String) throws -> Size {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
            (300...10_000).contains(w), (200...10_000).contains(h)
        else {
            throw CLIError.usage(
                "\(option) takes WIDTHxHEIGHT in pixels, for example 1200x800 (300 to 10000), not '\(text)'")
        }
        return Size(width: w, height: h)
    }

    /// A map's size in pixels.
    struct Size {
        var width: Double
        var height: Double
    }

    static var positionals: Positionals<Self> {
        .many(\.inputs)
    }

    func validate() throws {
        guard !inputs.isEmpty else { throw CLIError.usage("no track file; give one or more GPX files") }
    }

    func run(console: Console) throws -> ExitCode {
        let relief = try dem.map { try ElevationModel(path: $0) }
        let lines = try readLines(console: console)
        // One corridor per line, for the waypoints and the clubrooms alike.
        let corridors = waypoints == nil && clubrooms.isEmpty ? [] : lines.map { TrackCorridor(segments: $0.segments) }
        let markers = try waypointMarkers(on: corridors, console: console)
        let rooms = try clubroomMarkers(near: corridors, of: lines)
        let svg: String
        do {
            var map = TrackMap(width: size.width, height: size.height)
            map.projectionKind = projection
            map.relief = relief
            svg = try map.render(title: title ?? lines[0].name, lines: lines, markers: markers, clubrooms: rooms)
        } catch let error as ProjectionError {
            throw CLIError.data(error.description)
        }
        var buffer = ByteBuffer(capacity: svg.utf8.count + 16)
        buffer.append(string: svg)
        try console.write(&buffer, to: output)
        return .success
    }

    /// Every track of the inputs as a line (a file's routes when it has no track); throws when there is none.
    private func readLines(console: Console) throws -> [TrackMap.Line] {
        var lines: [TrackMap.Line] = []
        for (file, format) in try openTrackInputs(inputs) {
            let builder = GPXDocumentBuilder()
            try readInput(file, format: format, strict: false, quiet: quiet, console: console, handler: builder)
            // An unnamed line is named after its file (the last part of its path: a title, not a location).
            let fileName = Folder.baseName(file.path)
            lines += builder.document.lines().map { TrackMap.Line(track: $0, name: $0.name ?? fileName) }
        }
        guard !lines.isEmpty else { throw CLIError.data("no track or route in \(inputs.joined(separator: ", "))") }
        return lines
    }

    /// The --waypoints near a track, in order along the tracks (the first track first); those further than
    /// --max-distance from every track are left out with a warning.
    private func waypointMarkers(on corridors: [TrackCorridor], console: Console) throws -> [TrackMap.Marker] {
        guard let waypoints else { return [] }
        let points = try readWaypoints(waypoints, strict: false, quiet: quiet, console: console)
        let placements = Placement.place(points.map(\.coordinate), on: corridors)
        let name = { (i: Int) in points[i].name ?? "waypoint \(i + 1)" }
        let far = placements.filter { !($0.offTrackMeters <= maxDistance) }.map { name($0.index) }
        if !far.isEmpty && !quiet {
            console.warning(
                "\(waypoints): \(far.count) waypoint\(far.count == 1 ? "" : "s") "
                    + "further than \(Int(maxDistance)) m "
                    + "from every track left out: \(StageBundle.list(far))")
        }
        return placements.filter { $0.offTrackMeters <= maxDistance }
            .sorted { ($0.line, $0.alongMeters) < ($1.line, $1.alongMeters) }
            .map { TrackMap.Marker(label: name($0.index), coordinate: points[$0.index].coordinate) }
    }

    /// The clubrooms of --clubrooms within --radius of any of the tracks, in catalog order.
    private func clubroomMarkers(
        near corridors: [TrackCorridor], of lines: [TrackMap.Line]
    ) throws
        -> [TrackMap.Marker]
    {
        guard !clubrooms.isEmpty else { return [] }
        let index = ClubroomIndex(
            try ClubroomSource.clubrooms(
                clubrooms, table: table, filter: filter, within: radius, ofLines: lines.flatMap(\.segments)))
        let near = Set(corridors.flatMap { index.clubrooms(within: radius, along: $0).map(\.clubroom) })
        return index.clubrooms.filter(near.contains).map { TrackMap.Marker(label: $0.name, coordinate: $0.coordinate) }
    }
}
