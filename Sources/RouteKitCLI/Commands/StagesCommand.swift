import Glibc
import RouteKit

/// `routekit stages`: a stage bundle → per-stage GeoJSON, profile and map, a summary and an offline page.
struct StagesCommand: Command {
    static let name = "stages"
    static let abstract = "A stage bundle to per-stage GeoJSON, profiles, maps, a summary and index.html."
    static var help: String {
        """
        Usage: routekit stages BUNDLE -o OUTDIR [options]

        Reads a stage bundle as the Slovenian Mountain Bike Route's backend serves it — a ZIP named after
        the date of the route's data (ZIP_03-09-2019.zip), or a folder — with Etapa_N.gpx or Etapa N.gpx
        (one stage's track), KT.gpx (control points), etape.json ([{name, href, desc, category, file}]) and
        kt.json ([{zapSt, naziv, naslov, zig}]: number, name, address and where the stamp is); names in any
        case, the JSON files optional. The files may sit in one folder inside the ZIP; what macOS adds to a
        ZIP is ignored; a ZIP or folder holding dated ZIPs opens the newest. An archive that would expand
        past 512 MiB is refused.

        Writes into OUTDIR, for every stage N in numeric order (stage 10 after stage 9): stage-N.geojson
        (the track and its control points), stage-N.gpx, stage-N-profile.svg and stage-N-map.svg; for the
        whole route: route.geojson, route-map.svg, stages.csv, stages.json and index.html, one
        self-contained page (inline SVG and CSS, no script, no network) that opens from a phone's storage
        where there is no signal: the bundle's date, every stage with its name, category, link and
        description (figures it leaves empty filled in from the track), numbers, profile and map, and its
        control points with their numbers, addresses and stamps.

        A control point belongs to the stage whose track passes nearest to it, within --max-distance; it is
        placed in order along that stage. kt.json entries are paired with the waypoints of KT.gpx in route
        order by their names; an entry without a waypoint is listed without a position. A stage that fails
        to read, missing JSON files and control points far from every stage are reported once each and the
        rest is still written (exit 0); when no stage can be read, the exit status is 65. On a terminal,
        a bundle that takes over a second shows its progress (stages read, then drawn) on standard error.

        Options:
        \(optionHelp)

        Examples:
          routekit stages ZIP_03-09-2019.zip -o stkp-offline/
          routekit stages data/stkp -o out/
          routekit stages ~/stkp --clubrooms data/clubrooms/clubrooms.xml --radius 5km -o stkp-offline/

        Exit status: 0 done (perhaps with warnings), 64 wrong usage, 65 nothing could be built or the
        archive is damaged or too large, 66 the bundle cannot be opened, 73 the output cannot be written.

        """
    }

    var bundle: String?
    var output: String?
    var maxDistance = 200.0
    var clubrooms: [String] = []
    var radius = 5_000.0
    var filter = ClubroomFilter()
    var dem = DEMOptions()
    var table: String?
    var quiet = false

    static var options: [Option<Self>] {
        [
            .value(
                "-o", "--output", name: "OUTDIR",
                help: "The folder to write (created if missing; files in it are replaced).",
                into: \.output),
            .value(
                "--max-distance", name: "D",
                help: """
                    How close a control point must be to a stage's track, with a unit:
                    200m (default).
                    """,
                parse: Units.length, into: \.maxDistance),
            .values(
                "--clubrooms", name: "CATALOG",
                help: """
                    Also list, per stage, the clubrooms near its track (SkautIS XML, CSV,
                    GeoJSON, or a postgresql:// table), within --radius.
                    """,
                into: \.clubrooms),
            .value(
                "--radius", name: "R", help: "For --clubrooms, with a unit: 5km (default).", parse: Units.length,
                into: \.radius),
            ClubroomSource.tableOption(into: \.table),
        ] + ClubroomFilterOptions.options(\.filter) + DEMOptions.options(\.dem) + [
            .quiet(sets: \.quiet)
        ]
    }

    static var positionals: Positionals<Self> {
        .one(\.bundle, second: { "stages takes one bundle (a folder or a ZIP); '\($0)' is a second one" })
    }

    func validate() throws {
        guard let bundle else {
            throw CLIError.usage("no bundle; give the ZIP or the folder with the Etapa N.gpx files")
        }
        guard bundle != "-" else {
            throw CLIError.usage("stages reads a ZIP or a folder, not standard input; save the ZIP and name it")
        }
        guard let output, output != "-" else { throw CLIError.usage("say where to write with -o OUTDIR (a folder)") }
        try dem.validate()
    }

    func run(console: Console) throws -> ExitCode {
        guard let bundle else { throw CLIError.usage("no bundle") }  // validate() has said so already
        guard var out = output else { throw CLIError.usage("say where to write with -o OUTDIR (a folder)") }
        while out.count > 1 && out.hasSuffix("/") { out.removeLast() }  // `-o out/` names files out/index.html
        let source = try BundleSource.open(bundle)
        let (read, drawn) = (ProgressCounter(), ProgressCounter())
        let progress = Self.progressBar(read: read, drawn: drawn, console: console)
        defer { progress?.finish() }
        let model = try dem.open(strict: false)
        let data = StageBundle.read(
            source, method: dem.method(.standard), assignmentMeters: maxDistance,
            elevations: model.map { ($0.model, $0.mode) }, methodForRecordedElevations: .standard, progress: read)
        if !quiet { report(data, origin: source.origin, console: console) }
        for stage in data.stages { if let tally = stage.elevations { model?.add(tally) } }
        model?.report(console: console, quiet: quiet)
        guard !data.stages.isEmpty else { throw StageBundleError.noStages(path: source.origin) }
        let nearby = try clubroomsNear(data.stages)
        try Folder.create(out)
        let drawings = try writeStages(data, source: source, into: out, drawn: drawn)
        let routeMap = try writeRoute(data, into: out)
        let total = TrackStatistics.total(of: data.stages.map(\.statistics))
        try write(StageOutput.json(data, total: total, nearby: nearby), to: "\(out)/stages.json")
        try write(StageOutput.csv(data, total: total), to: "\(out)/stages.csv")
        try write(
            StageOutput.html(
                data, total: total, routeMap: routeMap, profiles: drawings.map(\.profile),
                maps: drawings.map(\.map), nearby: nearby, radius: radius), to: "\(out)/index.html")
        progress?.finish()
        if !quiet {
            let count = data.stages.count
            console.note("routekit: wrote \(count) stage\(count == 1 ? "" : "s") into \(out)/ (open \(out)/index.html)")
        }
        return .success
    }

    /// The bundle's problems and the control points near no stage, as warnings.
    private func report(_ data: StageBundle, origin: String, console: Console) {
        for problem in data.problems {
            console.warning(problem.hasPrefix(origin) ? problem : "\(origin): \(problem)")
        }
        guard !data.unassigned.isEmpty else { return }
        let count = data.unassigned.count
        console.warning(
            "\(origin): \(count) control point\(count == 1 ? "" : "s") further than \(Int(maxDistance)) m "
                + "from every stage: \(StageBundle.list(data.unassigned.map(\.name)))")
    }

    /// For each stage, the clubrooms of --clubrooms within --radius of it, in order along it; none without
    /// --clubrooms.
    private func clubroomsNear(_ stages: [StageBundle.Stage]) throws -> [[ClubroomIndex.AlongTrack]] {
        guard !clubrooms.isEmpty else { return Array(repeating: [], count: stages.count) }
        let lines = stages.flatMap { $0.track.segments.map { $0.points.map(\.coordinate) } }
        let index = ClubroomIndex(
            try ClubroomSource.clubrooms(clubrooms, table: table, filter: filter, within: radius, ofLines: lines))
        return stages.map { index.clubrooms(within: radius, along: $0.profile.corridor()) }
    }

    /// One stage's SVG drawings, for the page.
    private struct Drawings {
        var profile: String
        var map: String
    }

    /// Every stage's GeoJSON, GPX, profile and map, written on all cores (the stages are independent).
    private func writeStages(
        _ data: StageBundle, source: BundleSource, into out: String,
        drawn: ProgressCounter
    ) throws -> [Drawings] {
        drawn.expect(Int64(data.stages.count))
        return try parallelMap(data.stages.count) { i -> Drawings in
            defer { drawn.advance(by: 1) }
            let stage = data.stages[i]
            let n = stage.number
            try StageOutput.writeGeoJSON(
                [(stage.track, stage.name)], stage.controlPoints, to: "\(out)/stage-\(n).geojson")
            try copy(source.bytes(stage.fileName), to: "\(out)/stage-\(n).gpx")
            var named = stage.profile
            named.name = stage.name
            let markers = stage.controlPoints.map { p in
                ProfileChart.Marker(label: (p.number.map { "\($0). " } ?? "") + p.name, distanceMeters: p.alongMeters)
            }
            let profileSVG = ProfileChart(width: 1000, height: 360).render(named, markers: markers)
            try write(profileSVG, to: "\(out)/stage-\(n)-profile.svg")
            let line = TrackMap.Line(track: stage.track, name: stage.name)
            let mapSVG = try TrackMap(width: 1000, height: 700).render(
                title: stage.name, lines: [line], markers: stage.controlPoints.map(Self.marker), idPrefix: "stage-\(n)")
            try write(mapSVG, to: "\(out)/stage-\(n)-map.svg")
            return Drawings(profile: profileSVG, map: mapSVG)
        }
    }

    /// The map and the GeoJSON of the whole route; returns the map, for the page.
    private func writeRoute(_ data: StageBundle, into out: String) throws -> String {
        let lines = data.stages.map { TrackMap.Line(track: $0.track, name: $0.name) }
        let allPoints = data.stages.flatMap(\.controlPoints)
        let routeMap = try TrackMap(width: 1200, height: 800).render(
            title: "The whole route", lines: lines, markers: allPoints.map(Self.marker), idPrefix: "route")
        try write(routeMap, to: "\(out)/route-map.svg")
        try StageOutput.writeGeoJSON(
            data.stages.map { ($0.track, $0.name) }, allPoints + data.unassigned, to: "\(out)/route.geojson")
        return routeMap
    }

    /// A control point's numbered marker on a map.
    private static func marker(_ p: StageBundle.ControlPoint) -> TrackMap.Marker {
        TrackMap.Marker(label: p.name, coordinate: p.coordinate, number: p.number)
    }

    /// The bar for the stages: read, then drawn, each half of the work.
    static func progressBar(read: ProgressCounter, drawn: ProgressCounter, console: Console) -> ProgressBar? {
        ProgressBar.start("stages", console: console) {
            let (stages, done) = (read.total, read.done)
            guard drawn.total > 0 else {
                return .init(done: done, total: 2 * stages, detail: "\(done) of \(stages) stages read")
            }
            return .init(
                done: done + drawn.done, total: stages + drawn.total,
                detail: "\(drawn.done) of \(drawn.total) stages drawn")
        }
    }

    private func write(_ text: String, to path: String) throws {
        let stream = try OutputStream.create(path: path)
        var buffer = ByteBuffer(capacity: text.utf8.count + 16)
        buffer.append(string: text)
        try stream.write(&buffer)
        try stream.commit()
    }

    /// The stage's GPX as it is, byte for byte (whatever its encoding).
    private func copy(_ bytes: [UInt8], to path: String) throws {
        let stream = try OutputStream.create(path: path)
        try bytes.withUnsafeBytes { try stream.write(bytes: $0) }
        try stream.commit()
    }
}
