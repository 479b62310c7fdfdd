import Glibc
import RouteKit

/// `routekit near`: the clubrooms within a radius of a position (or of many positions).
struct NearCommand: Command {
    static let name = "near"
    static let abstract = "Clubrooms within a radius (default 60 km) of a position, nearest first."
    static var help: String {
        """
        Usage: routekit near --at LAT,LON [--radius 60km] [options] CATALOG... [-o OUT]
               routekit near --at-file POSITIONS [--radius 60km] [options] CATALOG...
               routekit near --along TRACK.gpx --radius 5km [options] CATALOG...
               routekit near --skautis-request --at LAT,LON [--radius 60km] [--unit NUMBER] > request.xml

        Finds the clubrooms within a radius of a position, exactly on the WGS84 ellipsoid (a clubroom is
        listed if and only if its geodesic distance is at most the radius), nearest first, each with its
        distance, the bearing from the position, its address, the units that recruit there and when they
        meet. Catalogs are SkautIS AdvertisingSummary XML (the saved SOAP response or just its records), CSV
        with a header (comma, semicolon or tab; decimal commas; UTF-8 or Windows-1250) or GeoJSON Points;
        the format is recognised from the content. Records of one place (the same Realty_ID) are one
        clubroom; its records are grouped by meeting (MeetingDate_ID) and, within a meeting, by age and sex
        category, so each meeting is listed once with its ages and sexes. Times are shown as 16:30–18:00
        (SkautIS sends PT16H30M), days by their Czech name, water scouts marked. Records without usable
        coordinates are left out with one warning that counts them. On a terminal, catalogs that take over a
        second to read show their progress on standard error. A postgresql:// URI with --table searches a
        PostGIS table written by routekit load, with the same answers.

        Options:
        \(optionHelp)

        Examples:
          routekit near --at 49.1951,16.6068 data/clubrooms/clubrooms.xml
          routekit near --at 49.1951,16.6068 --radius 10km --age 9 --day út --sex girls clubrooms.xml
          routekit near --at "50.0755 14.4378" --radius 10km --unit 111 --format geojson clubrooms.csv
          routekit near --at-file our-units.csv --radius 60km --format csv clubrooms.xml -o nearby.csv
          routekit near --along "Etapa 1.gpx" --radius 5km data/clubrooms/clubrooms.xml
          routekit near --skautis-request --at 49.1951,16.6068 --radius 20km -o request.xml

        Exit status: 0 done, 64 wrong usage, 65 bad data (or no usable clubroom), 66 an input cannot be
        read (or the database reached), 73 the output cannot be written, 74 the database refused a query.

        """
    }

    enum Format: String { case table, geojson, csv, svg }

    var catalogs: [String] = []
    var at: Coordinate?
    var atText: String?
    var atFile: String?
    var along: String?
    var radius = 60_000.0
    var filter = ClubroomFilter()
    var skautISRequest = false
    var limit: Int?
    var format = Format.table
    var columns = CSVCatalogReader.Columns()
    var table: String?
    var output: String?
    var quiet = false
    var exhaustive = false
    var verbose = false
    var cache: String?

    static var options: [Option<Self>] {
        [
            Option(
                ["--at"], value: "POSITION",
                help: """
                    Where to search from: 49.1951,16.6068 or "49.1951, 16.6068" or
                    "49°11'42\\"N 16°36'24\\"E".
                    """
            ) { command, text, name in
                let text = text ?? ""
                guard let coordinate = PositionText.parse(text) else {
                    throw CLIError.usage("\(name): \(PositionText.problem(text))")
                }
                command.at = coordinate
                command.atText = text
            },
            .value(
                "--at-file", name: "FILE",
                help: """
                    Many positions, one per line: LAT,LON[,label]. The index is built once;
                    each result says which position (label, or line number) it answers.
                    """,
                into: \.atFile),
            .value(
                "--along", name: "TRACK",
                help: """
                    The clubrooms near a track (GPX, KML, TCX or GeoJSON; its segments
                    joined), with their distance from it and the kilometre where the track
                    passes closest, in order along the track.
                    """,
                into: \.along),
            .value(
                "--radius", name: "R",
                help: """
                    With a unit: 60km (default), 500m. A bare number is refused: other tools
                    read it as miles.
                    """,
                parse: Units.length, into: \.radius),
        ] + ClubroomFilterOptions.options(\.filter) + [
            .value(
                "--limit", name: "N", help: "At most N clubrooms per position, the nearest.",
                parse: { text, option in
                    guard let n = Int(text), n > 0 else {
                        throw CLIError.usage("\(option) takes a positive whole number, not '\(text)'")
                    }
                    return n
                }, into: \.limit),
            .value(
                "--format", name: "F",
                help: """
                    table (default), geojson, csv or svg (a map of the position, the
                    geodesic circle of the radius, the clubrooms labelled, a scale bar;
                    with --at only).
                    """,
                parse: OptionValues.choice(Format.self, message: "must be table, geojson, csv or svg"), into: \.format),
            .value(
                "--lat-column", name: "NAME", help: "The CSV column with latitudes, when its name is unusual.",
                into: \.columns.latitude),
            .value("--lon-column", name: "NAME", help: "The CSV column with longitudes.", into: \.columns.longitude),
            ClubroomSource.tableOption(into: \.table),
            .flag(
                "--skautis-request",
                help: """
                    Print the SOAP request for the SkautIS AdvertisingSummary service that asks
                    for the clubrooms within --radius of --at (and of --unit's unit), to
                    send with curl (see the README); no catalog is read. Replace the
                    placeholders for ID_Application and ID_Login (and ID_Unit) first.
                    """,
                sets: \.skautISRequest),
            .value(
                "--cache", name: "FOLDER",
                help: """
                    Where the tables of CSV catalogs of a megabyte or more are kept, so that
                    the next search need not read the catalog again (default $ROUTEKIT_CACHE,
                    else $XDG_CACHE_HOME/routekit or ~/.cache/routekit); off keeps none. A
                    search of more than 4 positions keeps one; a table is used only while
                    the catalog is unchanged.
                    """,
                into: \.cache),
            .output(into: \.output),
            .flag(
                "-v", "--verbose", help: "Print how long reading, indexing and searching took, on standard error.",
                sets: \.verbose),
            .flag(
                "--exhaustive",
                help: """
                    Measure every clubroom instead of using the spatial index (slow; for
                    checking the index and for benchmarks).
                    """,
                sets: \.exhaustive),
            .quiet(sets: \.quiet),
        ]
    }

    static var positionals: Positionals<Self> {
        .many(\.catalogs)
    }

    func validate() throws {
        if skautISRequest {
            guard atFile == nil, along == nil else {
                throw CLIError.usage("--skautis-request asks about one position: use --at (or --unit alone)")
            }
            guard at != nil || filter.unit != nil else {
                throw CLIError.usage("--skautis-request needs --at LAT,LON (with --radius), --unit NUMBER, or both")
            }
            guard catalogs.isEmpty else {
                throw CLIError.usage(
                    "--skautis-request writes a request and reads no catalog; leave out '\(catalogs[0])'")
            }
            guard !filter.concernsMeetings && !filter.waterOnly else {
                throw CLIError.usage(
                    "the service's request has no --age, --day, --sex or --water: give them to 'routekit near' "
                        + "with the answer (routekit near --at LAT,LON --age 9 clubrooms.xml)")
            }
            return
        }
        if cache == "" { throw CLIError.usage("--cache takes a folder, or off to keep no table") }
        let places = [at != nil, atFile != nil, along != nil].filter { $0 }.count
        guard places == 1 else {
            throw CLIError.usage(
                places == 0
                    ? "say where to search from: --at LAT,LON, --at-file FILE or --along TRACK"
                    : "give one of --at, --at-file and --along")
        }
        guard !catalogs.isEmpty else {
            throw CLIError.usage("no catalog; give a SkautIS XML, CSV or GeoJSON file of clubrooms")
        }
        if exhaustive && catalogs.contains(where: DatabaseURI.looksLikeURI) {
            throw CLIError.usage(
                "--exhaustive measures every clubroom of a file; a postgresql:// catalog has its index")
        }
        if format == .svg && at == nil {
            throw CLIError.usage("--format svg draws the map around one position: use it with --at")
        }
    }

    /// One position to answer.
    struct Query {
        var label: String
        var coordinate: Coordinate
    }

    func queries() throws -> [Query] {
        if let at { return [Query(label: atText ?? "", coordinate: at)] }
        guard let atFile else { throw CLIError.usage("say where to search from: --at LAT,LON or --at-file FILE") }
        let bytes = try InputFile(path: atFile).readAll()
        var result: [Query] = []
        for (n, raw) in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated()
        {
            let line = String(raw).trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false).map {
                String($0).trimmingSpaces()
            }
            guard parts.count >= 2, let lat = DecimalText.parse(parts[0]), let lon = DecimalText.parse(parts[1]),
                Coordinate(latitude: lat, longitude: lon).isValid
            else {
                if n == 0 { continue }  // a header line
                throw CLIError.data("\(atFile):\(n + 1): expected LAT,LON[,label], found '\(PositionText.shown(line))'")
            }
            result.append(
                Query(
                    label: parts.count > 2 && !parts[2].isEmpty ? parts[2] : "line \(n + 1)",
                    coordinate: Coordinate(latitude: lat, longitude: lon)))
        }
        guard !result.isEmpty else { throw CLIError.data("\(atFile): no position in the file") }
        return result
    }

    /// The clubrooms found for one position.
    struct Answer {
        var query: Query
        var clubrooms: [ClubroomIndex.Found]
    }

    func run(console: Console) throws -> ExitCode {
        if skautISRequest { return try writeSkautISRequest(console: console) }
        let started = Clock.seconds()
        let positions = along == nil ? try queries() : []
        if let database = try ClubroomSource.table(catalogs, table: table) {
            if let along {
                return try runAlong(along, console: console) {
                    try database.clubrooms(within: radius, along: $0, filter: filter)
                }
            }
            let opened = Clock.seconds()
            let answers = Answers(
                try positions.map {
                    Answer(
                        query: $0,
                        clubrooms: limited(try database.clubrooms(within: radius, of: $0.coordinate, filter: filter)))
                })
            if verbose {
                note(
                    answers, console: console, timing: "connected in \(Clock.milliseconds(opened - started)); ",
                    since: opened)
            }
            return try write(answers, console: console)
        }
        if along == nil, let table = try searchableTable(for: positions, console: console) {
            // One CSV catalog, no filter: each clubroom is built only when a query finds it.
            let read = Clock.seconds()
            let search = CatalogTableSearch(table, queries: positions.count)
            let few = positions.count <= CatalogTableSearch.scanLimit
            let built = Clock.seconds()
            let answers = try answerAll(
                positions, { search.clubrooms(within: radius, of: $0) },
                visit: { search.forEachClubroom(within: radius, of: $0, limit: limit, place: $1, $2) })
            if verbose {
                note(
                    answers, console: console,
                    timing: (table.readFromCache
                        ? "took the kept table of \(table.count) clubrooms (its cells"
                            + "\(table.keptWithinReach ? " near the positions" : "") checked) in "
                        : "read \(table.count) clubrooms\(table.keptWithinReach ? " near the positions" : "") in ")
                        + "\(Clock.milliseconds(read - started)); "
                        + (table.searchesByCells
                            ? "searched by its cells; "
                            : few
                                ? "no index (few positions: scanned); "
                                : "index built in \(Clock.milliseconds(built - read)); "),
                    since: built)
            }
            return try write(answers, console: console)
        }
        let rooms = try readClubrooms(console: console)
        if let along {
            return try runAlong(along, console: console) { ClubroomIndex(rooms).clubrooms(within: radius, along: $0) }
        }
        let read = Clock.seconds()
        let index = exhaustive ? nil : ClubroomIndex(rooms)
        let built = Clock.seconds()
        let answers = try answerAll(positions) {
            index?.clubrooms(within: radius, of: $0)
                ?? ClubroomIndex.measuringEach(of: rooms, within: radius, of: $0)
        }
        if verbose {
            note(
                answers, console: console,
                timing: "read \(rooms.count) clubrooms in \(Clock.milliseconds(read - started)); "
                    + (exhaustive
                        ? "no index (--exhaustive); " : "index built in \(Clock.milliseconds(built - read)); "),
                since: built)
        }
        return try write(answers, console: console)
    }

    /// --verbose: how long the work took, ending with the queries answered since `start`.
    private func note(_ answers: Answers, console: Console, timing: String, since start: Double) {
        let searched = Clock.seconds()
        let found = answers.found
        let count = answers.count
        console.note(
            "routekit: " + timing + "\(count) quer\(count == 1 ? "y" : "ies") answered in "
                + "\(Clock.milliseconds(searched - start)) "
                + "(\(Clock.milliseconds((searched - start) / Double(max(1, count)))) each, \(found) results)")
    }

    /// Writes the answers in the chosen format.
    private func write(_ answers: Answers, console: Console) throws -> ExitCode {
        var buffer = ByteBuffer(capacity: 1 << 16)
        switch format {
        case .table: NearFormatter.table(answers.kept, radius: radius, many: atFile != nil, into: &buffer)
        case .geojson: NearFormatter.geojson(answers.kept, many: atFile != nil, into: &buffer)
        case .csv:
            let out = try console.output(output)
            var header = ByteBuffer(capacity: 256)
            header.append(NearFormatter.csvHeader)
            try out.write(&header)
            for part in answers.parts {
                if let csv = part.csv { try out.write(&csv.bytes) }
                for answer in part.kept { NearFormatter.csvRows(answer.query.label, answer.clubrooms, into: &buffer) }
                try out.write(&buffer)
            }
            try out.commit()
            return .success
        case .svg:
            guard let first = answers.kept.first else {
                throw CLIError.usage("--format svg draws the map around one position: use it with --at")
            }
            buffer.append(string: try map(first))
        }
        try console.write(&buffer, to: output)
        return .success
    }

    /// The catalog as a table to search when that gives the same answers faster: one CSV file, no filter, no
    /// --exhaustive; nil otherwise. When the positions reach a small part of the globe, only the clubrooms
    /// that may be near them are kept.
    private func searchableTable(for positions: [Query], console: Console) throws -> CSVCatalogTable? {
        guard catalogs.count == 1, filter.isEmpty, !exhaustive else { return nil }
        let counter = console.errorIsTerminal ? ProgressCounter() : nil
        let progress = counter.flatMap { ProgressBar.bytes("near", console: console, counter: $0) }
        defer { progress?.finish() }
        // The reach (and its grid) is built only when it is to be used.
        let narrow =
            GeodesicIndex.Reach.areaShare(radius, centers: positions.count) <= CatalogTableSearch.reachAreaLimit
        let folder = CatalogTableCache.folder(option: cache) { getenv($0).map { String(cString: $0) } }
        guard
            let table = try CSVCatalogTable(
                path: catalogs[0], columns: columns, progress: counter,
                reach: narrow ? GeodesicIndex.Reach(radius, of: positions.map(\.coordinate)) : nil,
                cache: folder.map(CatalogTableCache.init),
                keepsTable: positions.count > CatalogTableSearch.scanLimit)
        else { return nil }
        progress?.finish()
        Self.reportSkipped(table.summary, quiet: quiet, console: console)
        guard table.hasUsableRows else { throw CLIError.data("no usable clubroom in \(catalogs[0])") }
        return table
    }

    /// The catalogs' clubrooms that pass the filter (warning when none does); throws when the catalogs have none.
    private func readClubrooms(console: Console) throws -> [Clubroom] {
        let counter = console.errorIsTerminal ? ProgressCounter() : nil
        let progress = counter.flatMap { ProgressBar.bytes("near", console: console, counter: $0) }
        defer { progress?.finish() }
        let catalog = try ClubroomCatalog.read(paths: catalogs, columns: columns, progress: counter)
        progress?.finish()
        Self.reportSkipped(catalog, quiet: quiet, console: console)
        guard !catalog.clubrooms.isEmpty else {
            throw CLIError.data("no usable clubroom in \(catalogs.joined(separator: ", "))")
        }
        guard !filter.isEmpty else { return catalog.clubrooms }
        let rooms = filter.apply(to: catalog.clubrooms)
        if rooms.isEmpty && !quiet { console.warning("no clubroom in the catalogs passes \(Self.describe(filter))") }
        return rooms
    }

    /// The answers to `positions` by `search` (nearest first; at most `limit` each), on all cores in runs of
    /// consecutive positions, in order. With `--format csv` each run writes its answers' rows as it finds
    /// them, into bytes of its own, and keeps no answer: a million clubrooms found take no more memory than
    /// their text. A search that can `visit` what it finds one clubroom at a time (the `limit` nearest,
    /// returning how many) builds no answer at all then.
    private func answerAll(
        _ positions: [Query], _ search: (Coordinate) -> [ClubroomIndex.Found],
        visit: (
            (
                Coordinate, ((CSVCatalogTable.PlaceRow, Double, Double) -> Void)?,
                (borrowing Clubroom, Double, Double) -> Void
            ) -> Int
        )? = nil
    ) throws -> Answers {
        let runs = parallelRuns(positions.count)
        let csv = format == .csv
        let parts = try parallelMap(runs.count) { k in
            var part = Answers.Part(csv: csv ? Answers.CSVBytes() : nil)
            for query in positions[runs[k]] {
                if let csv = part.csv, let visit {
                    part.found += visit(query.coordinate) { place, distance, bearing in
                        NearFormatter.csvRow(
                            query.label, place: place, distance: distance, bearing: bearing, into: &csv.bytes)
                    } _: { room, distance, bearing in
                        NearFormatter.csvRow(query.label, room, distance: distance, bearing: bearing, into: &csv.bytes)
                    }
                    continue
                }
                let found = limited(search(query.coordinate))
                part.found += found.count
                if let csv = part.csv {
                    NearFormatter.csvRows(query.label, found, into: &csv.bytes)
                } else {
                    part.kept.append(Answer(query: query, clubrooms: found))
                }
            }
            return part
        }
        return Answers(count: positions.count, parts: parts)
    }

    /// The answers to the positions: kept, or for CSV their rows, in order, by run.
    struct Answers {
        /// One run's.
        struct Part {
            var kept: [Answer] = []
            var csv: CSVBytes?
            var found = 0
        }

        /// Bytes handed over whole from the core that wrote them (made, written and returned by one run).
        final class CSVBytes {
            // A megabyte reserved (untouched memory costs nothing): a run's rows are rarely copied to grow.
            var bytes = ByteBuffer(capacity: 1 << 20)
        }

        var count: Int
        var parts: [Part]

        init(count: Int, parts: [Part]) {
            self.count = count
            self.parts = parts
        }

        init(_ kept: [Answer]) {
            self.init(count: kept.count, parts: [Part(kept: kept, found: kept.reduce(0) { $0 + $1.clubrooms.count })])
        }

        var kept: [Answer] { parts.flatMap(\.kept) }
        var found: Int { parts.reduce(0) { $0 + $1.found } }
    }

    /// The first `limit` of `found`, or all of them without --limit.
    private func limited<T>(_ found: [T]) -> [T] {
        guard let limit, found.count > limit else { return found }
        return Array(found.prefix(limit))
    }

    /// `--format svg`: the same renderer as `routekit map`, with the search drawn on it.
    private func map(_ answer: Answer) throws -> String {
        let places = answer.clubrooms.map {
            TrackMap.Marker(label: NearFormatter.label($0.clubroom), coordinate: $0.clubroom.coordinate)
        }
        let count = places.count
        do {
            return try TrackMap(width: 900, height: 900).render(
                title: "Clubrooms near \(answer.query.label)",
                subtitle: "\(count) clubroom\(count == 1 ? "" : "s") within "
                    + "\(DecimalText.compact(radius / 1000, decimals: 1)) km",
                lines: [], markers: [], clubrooms: places,
                search: TrackMap.Search(center: answer.query.coordinate, radiusMeters: radius))
        } catch let error as ProjectionError {
            throw CLIError.data(error.description)
        }
    }

    /// `--along`: the clubrooms near a track, in order along it.
    private func runAlong(
        _ path: String, console: Console, search: (Track) throws -> [ClubroomIndex.AlongTrack]
    ) throws -> ExitCode {
        let (file, format) = try openTrackInputs([path])[0]
        let builder = GPXDocumentBuilder()
        try readInput(file, format: format, strict: false, quiet: quiet, console: console, handler: builder)
        let track = builder.document.tracksElseRoutes()
        guard track.segments.contains(where: { !$0.points.isEmpty }) else {
            throw CLIError.data("\(path): no track or route to search along")
        }
        let label = track.name ?? path
        let found = limited(try search(track))
        var buffer = ByteBuffer(capacity: 1 << 16)
        switch self.format {
        case .table: NearFormatter.alongTable(found, label: label, radius: radius, into: &buffer)
        case .geojson: NearFormatter.alongGeoJSON(found, label: label, into: &buffer)
        case .csv: NearFormatter.alongCSV(found, label: label, into: &buffer)
        case .svg: throw CLIError.usage("--format svg draws the map around one position: use it with --at")
        }
        try console.write(&buffer, to: output)
        return .success
    }

    /// `--skautis-request`: the SOAP request, and on standard error how to send it.
    func writeSkautISRequest(console: Console) throws -> ExitCode {
        let request = SkautISRequest(position: at, radiusMeters: radius, unitNumber: filter.unit)
        var buffer = ByteBuffer(capacity: 2048)
        buffer.append(string: request.xml())
        try console.write(&buffer, to: output)
        if !quiet {
            let file = output ?? "request.xml"
            console.note(
                "routekit: replace \(SkautISRequest.applicationPlaceholder) and \(SkautISRequest.loginPlaceholder)"
                    + (filter.unit == nil ? "" : " and \(SkautISRequest.unitPlaceholder)")
                    + " in the request, then send it:\n"
                    + "  curl -H 'Content-Type: text/xml; charset=utf-8' -H 'SOAPAction: "
                    + "\"\(SkautISRequest.soapAction)\"' "
                    + "--data @\(file) \(SkautISRequest.endpoint) > clubrooms.xml\n"
                    + "  routekit near --at LAT,LON clubrooms.xml")
        }
        return .success
    }

    /// The filter in words, for a warning: "unit 621.03, age 9, Tuesday, girls, water scouts".
    static func describe(_ filter: ClubroomFilter) -> String {
        [
            filter.unit.map { "unit \($0) (or its child units)" }, filter.age.map { "age \($0)" },
            filter.weekday?.englishName,
            filter.sex.map { "\($0.rawValue) (or mixed)" }, filter.waterOnly ? "water scouts" : nil,
        ].compactMap { $0 }.joined(separator: ", ")
    }

    /// Warns of the records left out of `catalog` (unless `quiet`), with the first few and a hint at
    /// swapped columns.
    static func reportSkipped(_ catalog: ClubroomCatalog, quiet: Bool, console: Console) {
        guard !catalog.skipped.isEmpty, !quiet else { return }
        let first = catalog.skipped.prefix(3).map { "\($0.file):\($0.line): \($0.reason)" }.joined(separator: "; ")
        var message =
            "\(catalog.skipped.count) of \(catalog.recordCount) records left out for want of usable coordinates "
            + "(\(first)\(catalog.skipped.count > 3 ? "; …" : ""))"
        if catalog.swappedLooking > 0 {
            message +=
                "; \(catalog.swappedLooking) have a latitude beyond ±90 but a longitude within it: are the "
                + "latitude and longitude columns swapped?"
        }
        console.warning(message)
    }
}

/// Wall-clock timing for --verbose.
enum Clock {
    static func seconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)  // cannot fail for CLOCK_MONOTONIC
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func milliseconds(_ seconds: Double) -> String {
        let ms = seconds * 1000
        return ms < 10 ? "\(DecimalText.fixed(ms, decimals: 3)) ms" : "\(DecimalText.fixed(ms, decimals: 0)) ms"
    }
}
