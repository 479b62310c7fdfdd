import RouteKit

/// `routekit load`: clubroom catalogs or GPX tracks into a PostGIS table.
struct LoadCommand: Command {
    static let name = "load"
    static let abstract = "Load clubroom catalogs or GPX tracks into a PostGIS table."
    static var help: String {
        """
        Usage: routekit load CATALOG... --into postgresql://… [--table NAME] [--replace]
               routekit load TRACK.gpx... --into postgresql://… --table NAME [--replace]

        Writes clubroom catalogs (SkautIS XML, CSV or GeoJSON, as routekit near reads them) or tracks
        into a table of a PostgreSQL database with PostGIS, for catalogs and archives beyond one file.
        GPX, KML and TCX files are loaded as tracks, anything else as catalogs. The load is one
        transaction: COPY in batches, then the GiST index; a load that fails leaves the database as it
        was.

        Clubrooms: one row per clubroom (id, its fields, units and meetings as JSONB, the position as
        geography(Point, 4326) with a GiST index); routekit near, map --clubrooms and stages
        --clubrooms then take the URI in place of a catalog file and give the same answers. An
        existing table is replaced only with --replace.
        Tracks: one row per track (file, track, name, properties as JSONB, geometry(MultiLineStringZM,
        4326) with Z the elevation and M the Unix time; MultiLineStringZ when points lack times, and
        no Z when they lack elevations: nothing is invented); the files are read on all cores; an
        existing table is added to, or with --replace replaced.

        The password comes from the URI, PGPASSWORD or ~/.pgpass (or whatever else libpq reads), and is
        never printed.

        Options:
        \(optionHelp)

        Examples:
          routekit load clubrooms.xml --into postgresql://maps@db.example.org/scouts
          routekit load export.csv --into "postgresql:///scouts?host=/run/postgresql" --replace
          routekit load archive/*.gpx --into postgresql:///gis --table tracks

        Exit status: 0 done, 64 wrong usage, 65 bad data (nothing is loaded), 66 an input cannot be
        read, 73 the database cannot be reached or written (or the table exists without --replace),
        74 the database refused a statement.

        """
    }

    var inputs: [String] = []
    var into: String?
    var table: String?
    var replace = false
    var strict = false
    var quiet = false
    var columns = CSVCatalogReader.Columns()

    static var options: [Option<Self>] {
        [
            .value(
                "--into", name: "URI",
                help: """
                    The database: postgresql://[user@][host][:port]/dbname[?param=value];
                    a socket folder as ?host=/run/postgresql.
                    """,
                into: \.into),
            .value(
                "--table", name: "NAME",
                help: """
                    The table (name or schema.name; letters, digits, _): clubrooms by
                    default for catalogs; required for tracks.
                    """,
                into: \.table),
            .flag(
                "--replace", help: "Replace the table if it exists (in the same transaction).", sets: \.replace),
            .value(
                "--lat-column", name: "NAME", help: "The CSV column with latitudes, when its name is unusual.",
                into: \.columns.latitude),
            .value("--lon-column", name: "NAME", help: "The CSV column with longitudes.", into: \.columns.longitude),
            .flag(
                "--strict", help: "A bad value in a track is an error (exit 65) instead of a warning.", sets: \.strict),
            .quiet(sets: \.quiet),
        ]
    }

    static var positionals: Positionals<Self> { .many(\.inputs) }

    func validate() throws {
        guard !inputs.isEmpty else { throw CLIError.usage("nothing to load; give catalog or GPX files") }
        guard let into else { throw CLIError.usage("say where to load with --into postgresql://…") }
        guard DatabaseURI(into) != nil else { throw CLIError.usage(DatabaseError.notADatabaseURI(into).description) }
        if let table { _ = try ClubroomSource.tableName(table) }
    }

    func run(console: Console) throws -> ExitCode {
        guard let into, let uri = DatabaseURI(into) else { throw CLIError.usage("say where to load with --into") }
        let kinds = try Set(inputs.map(Self.isGPX))
        guard kinds.count == 1 else {
            throw CLIError.usage("give either GPX tracks or clubroom catalogs, not both in one load")
        }
        let started = Clock.seconds()
        if kinds.contains(true) {
            guard let table else { throw CLIError.usage("say which table takes the tracks: --table NAME") }
            let name = try ClubroomSource.tableName(table)
            let summary = try TrackTable.load(paths: inputs, into: uri, table: name, replace: replace, strict: strict)
            if !quiet {
                for warning in summary.warnings.prefix(console.warningLimit) { console.warning(warning) }
                if summary.warnings.count > console.warningLimit {
                    console.warning("\(summary.warnings.count - console.warningLimit) more problems like these")
                }
                console.note(
                    "routekit: loaded \(summary.tracks) track\(summary.tracks == 1 ? "" : "s") "
                        + "(\(DecimalText.grouped(summary.points)) points) of \(summary.files) file"
                        + "\(summary.files == 1 ? "" : "s") into \(name) (\(summary.geometryType)) of \(uri) in "
                        + Clock.milliseconds(Clock.seconds() - started))
            }
            return .success
        }
        let name = try ClubroomSource.tableName(table ?? ClubroomSource.defaultTable)
        let catalog = try ClubroomCatalog.read(paths: inputs, columns: columns)
        NearCommand.reportSkipped(catalog, quiet: quiet, console: console)
        guard !catalog.clubrooms.isEmpty else {
            throw CLIError.data("no usable clubroom in \(inputs.joined(separator: ", ")); nothing loaded")
        }
        let summary = try ClubroomTable.load(catalog.clubrooms, into: uri, table: name, replace: replace)
        if !quiet {
            console.note(
                "routekit: loaded \(DecimalText.grouped(summary.clubrooms)) clubrooms into \(name) of \(uri)"
                    + (summary.replaced ? " (replaced)" : "") + " in " + Clock.milliseconds(Clock.seconds() - started))
        }
        return .success
    }

    /// True when the file holds tracks: GPX, KML or TCX, as the readers recognise them from the content.
    static func isGPX(_ path: String) throws -> Bool {
        // A ZIP that is no KMZ is no track file: the catalog reader says what it is.
        let format: InputFormat?
        do {
            format = try InputFormat.open(path: path).format
        } catch ArchiveError.missingFile {
            return false
        }
        switch format {
        case .gpx, .kml, .tcx: return true
        case .geojson, nil: return false
        }
    }
}
