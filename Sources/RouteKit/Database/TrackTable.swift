import Glibc

/// GPX (and GeoJSON) tracks in a PostGIS table, one row per track (or, in a file without tracks, per route):
///
/// ```sql
/// CREATE TABLE tracks (
///     id bigserial PRIMARY KEY,
///     file text NOT NULL,          -- the file as given
///     track integer NOT NULL,      -- the track's place in its file, from 1
///     name text,
///     properties jsonb NOT NULL,   -- as GeoJSON's: _gpxType, name, cmt, desc, …, coordinateProperties
///     geom geometry(MultiLineStringZM, 4326) NOT NULL);
/// CREATE INDEX tracks_geom_idx ON tracks USING gist (geom);
/// ```
///
/// One line of the geometry per segment (a segment of one point is left out); Z is the elevation, M the time
/// in seconds since 1970 (Unix time, with its fraction). A new table has Z when every point loaded has an
/// elevation and M when every point has a time: `MultiLineStringZM` for a typical recording,
/// `MultiLineStringZ` for a planned route without times (and `…M` or plain otherwise), so that no value is
/// ever invented. The times as written (zone and fraction kept) and the sensor readings are in
/// `properties.coordinateProperties`, nested per line as GeoJSON's are.
public enum TrackTable {
    /// What a load did.
    public struct LoadSummary: Hashable, Sendable {
        /// Files read.
        public var files: Int
        /// Rows written: tracks (or routes).
        public var tracks: Int
        /// Points written.
        public var points: Int
        /// The geometry type of the table: `MultiLineStringZM`, `MultiLineStringZ`, …
        public var geometryType: String
        /// True when an existing table was replaced.
        public var replaced: Bool
        /// Warnings of the readers, each `FILE:LINE:COLUMN: …`.
        public var warnings: [String]
    }

    /// One file read, as rows of `COPY` text for the staging table.
    private final class FileRows {
        var rows = ByteBuffer(capacity: 1 << 16)
        var tracks = 0
        var points = 0
        var allElevations = true
        var allTimes = true
        var warnings: [String] = []
    }

    /// Reads `paths` (GPX or GeoJSON, told apart by content; files read in parallel, a batch of files per
    /// core at a time so memory stays bounded) and writes their tracks to `table` with `COPY`, in one
    /// transaction: a load that fails (a file that cannot be read, a server that refuses) leaves the
    /// database as it was. A missing table is created; an existing one is appended to (its geometry type
    /// must take the tracks' elevations and times) or, with `replace`, replaced.
    ///
    /// - Throws: ``IOError`` and the readers' errors (``GPXError``, ``GeoJSONError``) naming the file;
    ///   ``DatabaseError``.
    @discardableResult
    public static func load(
        paths: [String], into uri: DatabaseURI, table: TableName, replace: Bool, strict: Bool = false
    ) throws -> LoadSummary {
        let connection = try PostgresConnection(uri)
        return try ClubroomTable.transaction(connection) {
            try ClubroomTable.requirePostGIS(connection)
            try connection.execute(
                "CREATE TEMP TABLE routekit_staging (id bigserial, file text, track integer, name text, "
                    + "properties jsonb, geom geometry(MultiLineStringZM, 4326)) ON COMMIT DROP")
            var summary = LoadSummary(
                files: paths.count, tracks: 0, points: 0, geometryType: "", replaced: false, warnings: [])
            var allElevations = true
            var allTimes = true
            let batchSize = max(1, 2 * Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
            var start = 0
            var pending: [FileRows] = []
            try connection.copy("COPY routekit_staging (file, track, name, properties, geom) FROM STDIN") { buffer in
                if pending.isEmpty {
                    guard start < paths.count else { return false }
                    let batch = Array(paths[start..<min(paths.count, start + batchSize)])
                    start += batch.count
                    pending = try parallelMap(batch.count) { try read(batch[$0], strict: strict) }
                }
                let file = pending.removeFirst()
                buffer.append(moving: &file.rows)
                summary.tracks += file.tracks
                summary.points += file.points
                summary.warnings += file.warnings
                allElevations = allElevations && file.allElevations
                allTimes = allTimes && file.allTimes
                return !pending.isEmpty || start < paths.count
            }
            let wanted = Dimensions(z: allElevations, m: allTimes)
            let existing = try dimensions(of: table, in: connection)
            var target = wanted
            if let existing {
                if replace {
                    try connection.execute("DROP TABLE \(table.quoted)")
                    summary.replaced = true
                } else {
                    guard summary.tracks == 0 || (!existing.z || wanted.z) && (!existing.m || wanted.m) else {
                        throw DatabaseError.unexpectedTable(
                            table: table.description,
                            reason: "its geometry is \(existing.typeName), and not every point loaded has "
                                + (existing.z && !wanted.z ? "an elevation" : "a time")
                                + ": load these into another table, or --replace")
                    }
                    target = existing
                }
            }
            if existing == nil || replace {
                try connection.execute(
                    "CREATE TABLE \(table.quoted) (id bigserial PRIMARY KEY, file text NOT NULL, "
                        + "track integer NOT NULL, name text, properties jsonb NOT NULL, "
                        + "geom geometry(\(target.typeName), 4326) NOT NULL)")
                try connection.execute(
                    "CREATE INDEX \(table.quoted(suffix: "_geom_idx")) ON \(table.quoted) USING gist (geom)")
            }
            try connection.execute(
                "INSERT INTO \(table.quoted) (file, track, name, properties, geom) SELECT file, track, name, "
                    + "properties, \(target.force)(geom) FROM routekit_staging ORDER BY id")
            try connection.execute("ANALYZE \(table.quoted)")
            summary.geometryType = target.typeName
            return summary
        }
    }

    /// Which of Z and M a geometry has.
    struct Dimensions: Equatable {
        var z: Bool
        var m: Bool

        var typeName: String { "MultiLineString" + (z ? "Z" : "") + (m ? "M" : "") }

        /// The PostGIS function that gives a ZM geometry these dimensions.
        var force: String {
            switch (z, m) {
            case (true, true): ""
            case (true, false): "ST_Force3DZ"
            case (false, true): "ST_Force3DM"
            case (false, false): "ST_Force2D"
            }
        }
    }

    /// The dimensions of an existing table's `geom` column; nil when there is no table.
    private static func dimensions(of table: TableName, in connection: PostgresConnection) throws -> Dimensions? {
        guard try ClubroomTable.exists(table, in: connection) else { return nil }
        let result = try connection.execute(
            "SELECT upper(type), coord_dimension FROM geometry_columns WHERE (f_table_schema, f_table_name) = "
                + "(SELECT n.nspname::text, c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = "
                + "c.relnamespace WHERE c.oid = to_regclass($1::text)) AND f_geometry_column = 'geom'",
            [table.quoted])
        guard result.rowCount == 1, let type = result.value(0, 0), let dimension = result.value(0, 1).flatMap(Int.init),
            type.hasPrefix("MULTILINESTRING")
        else {
            throw DatabaseError.unexpectedTable(
                table: table.description, reason: "no geom column of type MultiLineString with SRID 4326")
        }
        // geometry_columns says MULTILINESTRING with 4 dimensions for ZM, MULTILINESTRINGM with 3 for M.
        let m = type.hasSuffix("M") || dimension == 4
        return Dimensions(z: dimension == 4 || dimension == 3 && !m, m: m)
    }

    /// Reads one file into rows for the staging table.
    private static func read(_ path: String, strict: Bool) throws -> FileRows {
        let (input, format) = try InputFormat.open(path: path)
        guard let format else {
            throw TrackLoadError.notATrackFile(path: path)
        }
        var warnings: [String] = []
        let builder = GPXDocumentBuilder()
        let warn = { (warning: ReadWarning) in warnings.append("\(path):\(warning)") }
        do {
            switch format {
            case .gpx: _ = try GPXReader(strict: strict, onWarning: warn).read(input, handler: builder)
            case .geojson: try GeoJSONReader(strict: strict, onWarning: warn).read(input, handler: builder)
            case .kml: try KMLReader(strict: strict, onWarning: warn).read(input, handler: builder)
            case .tcx: try TCXReader(strict: strict, onWarning: warn).read(input, handler: builder)
            }
        } catch let error as GPXError {
            throw TrackLoadError.unreadable(path: path, reason: error.description)
        } catch let error as GeoJSONError {
            throw TrackLoadError.unreadable(path: path, reason: error.description)
        } catch let error as XMLFormatError {
            throw TrackLoadError.unreadable(path: path, reason: error.description)
        }
        let document = builder.document
        let rows = FileRows()
        rows.warnings = warnings
        let lines: [(type: String, details: Details, segments: [[TrackPoint]])] =
            document.tracks.isEmpty
            ? document.routes.map { route in
                let points = route.points.map {
                    TrackPoint(coordinate: $0.coordinate, elevation: $0.elevation, time: $0.time, sensors: $0.sensors)
                }
                return ("rte", route.details, [points])
            }
            : document.tracks.map { ("trk", $0.details, $0.segments.map(\.points)) }
        for (n, line) in lines.enumerated() {
            let segments = line.segments.filter { $0.count >= 2 }
            guard !segments.isEmpty else { continue }
            let points = segments.joined()
            let hasElevations = points.allSatisfy { $0.elevation != nil }
            rows.allElevations = rows.allElevations && hasElevations
            rows.allTimes = rows.allTimes && points.allSatisfy { $0.time != nil }
            rows.tracks += 1
            rows.points += points.count
            CopyText.appendField(path, to: &rows.rows)
            rows.rows.append(0x09)
            DecimalText.appendInteger(Int64(n + 1), to: &rows.rows)
            rows.rows.append(0x09)
            CopyText.appendField(line.details.name, to: &rows.rows)
            rows.rows.append(0x09)
            var json = ByteBuffer(capacity: 1024)
            appendProperties(type: line.type, details: line.details, segments: segments, to: &json)
            CopyText.appendBytes(json, to: &rows.rows)
            rows.rows.append(0x09)
            var wkb = WKBWriter()
            wkb.multiLineString(segments, measures: true)
            wkb.appendHex(to: &rows.rows)
            rows.rows.append(0x0A)
        }
        return rows
    }

    /// The properties as GeoJSON's (togeojson's): `_gpxType`, the details, the first time, and the per-point
    /// times (as written) and sensor readings in `coordinateProperties`, nested per line.
    static func appendProperties(
        type: String, details: Details, segments: [[TrackPoint]], to buffer: inout ByteBuffer
    ) {
        var object = JSONObjectWriter(&buffer)
        object.string("_gpxType", type, &buffer)
        object.string("name", details.name, &buffer)
        object.string("cmt", details.comment, &buffer)
        object.string("desc", details.description, &buffer)
        object.string("src", details.source, &buffer)
        if !details.links.isEmpty {
            object.key("links", &buffer)
            buffer.append(0x5B)
            for (i, link) in details.links.enumerated() {
                if i > 0 { buffer.append(0x2C) }
                var l = JSONObjectWriter(&buffer)
                l.string("href", link.href, &buffer)
                l.string("text", link.text, &buffer)
                l.string("type", link.type, &buffer)
                l.finish(&buffer)
            }
            buffer.append(0x5D)
        }
        object.string("sym", details.symbol, &buffer)
        object.string("type", details.type, &buffer)
        object.integer("number", details.number, &buffer)
        let firstTime = segments.lazy.joined().first { $0.time != nil }?.time
        object.string("time", firstTime?.description, &buffer)
        let kinds = SensorReadings.Kind.allCases.filter { kind in
            segments.contains { $0.contains { $0.sensors[kind] != nil } }
        }
        guard firstTime != nil || !kinds.isEmpty else { return object.finish(&buffer) }
        object.key("coordinateProperties", &buffer)
        var members = JSONObjectWriter(&buffer)
        if firstTime != nil {
            members.key("times", &buffer)
            nested(segments, into: &buffer) { point, buffer in
                if let time = point.time {
                    JSONText.appendString(time.description, to: &buffer)
                } else {
                    buffer.append("null")
                }
            }
        }
        for kind in kinds {
            members.key(kind.coordinatePropertiesKey.description, &buffer)
            nested(segments, into: &buffer) { point, buffer in
                if let v = point.sensors[kind] { DecimalText.append(v, to: &buffer) } else { buffer.append("null") }
            }
        }
        members.finish(&buffer)
        object.finish(&buffer)
    }

    /// `[[v, v, …], […]]`: one array per line.
    private static func nested(
        _ segments: [[TrackPoint]], into buffer: inout ByteBuffer, _ write: (TrackPoint, inout ByteBuffer) -> Void
    ) {
        buffer.append(0x5B)
        for (i, segment) in segments.enumerated() {
            if i > 0 { buffer.append(0x2C) }
            buffer.append(0x5B)
            for (j, point) in segment.enumerated() {
                if j > 0 { buffer.append(0x2C) }
                write(point, &buffer)
            }
            buffer.append(0x5D)
        }
        buffer.append(0x5D)
    }
}

/// Why a file could not be loaded as tracks.
public enum TrackLoadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is not GPX, KML, KMZ, TCX or GeoJSON.
    case notATrackFile(path: String)
    /// The file is GPX or GeoJSON that cannot be read (the reader's message, with line and column).
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "\(path):\(reason)"
        case .notATrackFile(let path):
            return "\(path): not GPX, KML, KMZ, TCX or GeoJSON (the file is empty or starts with something else)"
        }
    }
}
