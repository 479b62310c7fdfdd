/// A clubroom catalog in a PostGIS table: loaded from catalog files, searched like a ``ClubroomIndex``.
///
/// The table (``load(_:into:table:replace:)`` creates it):
///
/// ```sql
/// CREATE TABLE clubrooms (
///     id text PRIMARY KEY,         -- the clubroom's id (SkautIS Realty_ID)
///     seq bigint NOT NULL,         -- its place in the catalog: ties in distance keep the catalog's order
///     name text NOT NULL, type text, street text, city text, postcode text,
///     description text, note text, occupation_note text,
///     units jsonb NOT NULL,        -- see ClubroomRow
///     meetings jsonb NOT NULL,
///     location geography(Point, 4326) NOT NULL);
/// CREATE INDEX clubrooms_location_idx ON clubrooms USING gist (location);
/// ```
///
/// A search asks PostGIS for the candidates (`ST_DWithin` on the geography, on the sphere, with a margin
/// of 1 % + 10 m over the radius that covers the sphere's error against the ellipsoid), with the filter's
/// criteria as a superset in SQL, then measures each candidate with the exact geodesic (as the index does) and
/// applies ``ClubroomFilter`` itself: the answer is the one ``ClubroomIndex`` gives on the same catalog, to
/// the last bit of every distance.
public final class ClubroomTable {
    /// The table.
    public let table: TableName
    private let connection: PostgresConnection
    private var prepared: Set<String> = []

    /// Opens the table `table` of the database at `uri`.
    ///
    /// - Throws: ``DatabaseError/cannotConnect(database:reason:)``, ``DatabaseError/noPostGIS(database:reason:)``,
    ///   ``DatabaseError/missingTable(table:database:)``.
    public init(_ uri: DatabaseURI, table: TableName) throws {
        self.table = table
        connection = try PostgresConnection(uri)
        guard try Self.hasPostGIS(connection) else {
            throw DatabaseError.noPostGIS(database: connection.database, reason: "the extension is not installed")
        }
        guard try Self.exists(table, in: connection) else {
            throw DatabaseError.missingTable(table: table.description, database: connection.database)
        }
    }

    /// The clubrooms within `radiusMeters` of `position` that pass `filter` (each with only what passes),
    /// nearest first, ties in catalog order: the same as ``ClubroomIndex/clubrooms(within:of:)`` over the
    /// catalog filtered by ``ClubroomFilter/apply(to:)-([Clubroom])``.
    ///
    /// - Throws: ``DatabaseError`` when the query fails or a row is not a clubroom.
    public func clubrooms(
        within radiusMeters: Double, of position: Coordinate, filter: ClubroomFilter = ClubroomFilter()
    ) throws -> [ClubroomIndex.Found] {
        let (condition, filterParameters) = Self.filterSQL(filter, firstParameter: 4)
        let name = "within" + Self.statementSuffix(filter)
        if !prepared.contains(name) {
            try connection.prepare(
                name,
                "SELECT \(ClubroomRow.selectList) FROM \(table.quoted) WHERE ST_DWithin(location, "
                    + "ST_SetSRID(ST_MakePoint($1::float8, $2::float8), 4326)::geography, $3::float8, false)"
                    + condition + " ORDER BY seq",
                parameterCount: 3 + filterParameters.count)
            prepared.insert(name)
        }
        let parameters =
            [
                DecimalText.string(position.longitude), DecimalText.string(position.latitude),
                DecimalText.string(Self.searchRadius(radiusMeters)),
            ] + filterParameters
        let rooms = try filter.apply(to: decode(connection.executePrepared(name, parameters)))
        return ClubroomIndex.measuringEach(of: rooms, within: radiusMeters, of: position)
    }

    /// The clubrooms that pass `filter` (each with only what passes) and may lie within `radiusMeters` of
    /// any of `lines` (each a list of positions joined by straight lines), in catalog order: every clubroom
    /// within the radius, and some a little beyond it. Build a ``ClubroomIndex`` over them for the exact
    /// answer (``ClubroomIndex/clubrooms(within:along:)-(_,TrackCorridor)``).
    public func candidates(
        within radiusMeters: Double, ofLines lines: [[Coordinate]], filter: ClubroomFilter = ClubroomFilter()
    ) throws -> [Clubroom] {
        let drawn = lines.filter { !$0.isEmpty }
        guard !drawn.isEmpty else { return [] }
        var wkb = WKBWriter()
        wkb.multiLineString(drawn.map { line in line.count == 1 ? [line[0], line[0]] : line })
        let (condition, filterParameters) = Self.filterSQL(filter, firstParameter: 3)
        let sql =
            "SELECT \(ClubroomRow.selectList) FROM \(table.quoted) WHERE ST_DWithin(location, $1::geography, "
            + "$2::float8, false)" + condition + " ORDER BY seq"
        // Along a line, PostGIS's great-circle edges and the corridor's geodesic ones part by a little more:
        // 100 m more margin.
        let margin = DecimalText.string(Self.searchRadius(radiusMeters) + 100)
        return try filter.apply(to: decode(connection.execute(sql, [wkb.hex, margin] + filterParameters)))
    }

    /// The clubrooms within `radiusMeters` of `track` that pass `filter`, in order along it: the same as
    /// ``ClubroomIndex/clubrooms(within:along:)-(_,Track)`` over the filtered catalog.
    public func clubrooms(
        within radiusMeters: Double, along track: Track, filter: ClubroomFilter = ClubroomFilter()
    ) throws -> [ClubroomIndex.AlongTrack] {
        let lines = track.segments.map { $0.points.map(\.coordinate) }
        return ClubroomIndex(try candidates(within: radiusMeters, ofLines: lines, filter: filter))
            .clubrooms(within: radiusMeters, along: track)
    }

    /// The radius PostGIS searches on its sphere for an ellipsoidal radius: the sphere's distances differ
    /// from the ellipsoid's by under 0.6 %.
    static func searchRadius(_ radiusMeters: Double) -> Double { radiusMeters * 1.01 + 10 }

    private func decode(_ result: PostgresResult) throws -> [Clubroom] {
        try (0..<result.rowCount).map { try ClubroomRow.decode(result.row($0), table: table.description).clubroom }
    }

    // MARK: - The filter in SQL

    /// Conditions (each starting with ` AND `) that every clubroom passing `filter` meets, with their
    /// parameters numbered from `firstParameter`: the unit and water scouts on `units`, the day, age and
    /// sex as an SQL/JSON path over `meetings`. A superset: ``ClubroomFilter`` decides after.
    static func filterSQL(_ filter: ClubroomFilter, firstParameter: Int) -> (String, [String?]) {
        var sql = ""
        var parameters: [String?] = []
        if let unit = filter.unit {
            let n = firstParameter + parameters.count
            sql +=
                " AND EXISTS (SELECT 1 FROM jsonb_array_elements(units) AS u WHERE u->>'registration_number' = "
                + "$\(n)::text OR starts_with(u->>'registration_number', $\(n)::text || '.'))"
            parameters.append(unit)
        }
        if filter.waterOnly { sql += " AND units @> '[{\"water\": true}]'::jsonb" }
        var meeting: [String] = []
        var category: [String] = []
        var text = ByteBuffer()
        var variables = JSONObjectWriter(&text)
        if let day = filter.weekday {
            meeting.append("@.weekday == $day")
            variables.integer("day", day.rawValue, &text)
        }
        if let age = filter.age {
            category.append("(!(exists(@.age_from)) || @.age_from <= $age)")
            category.append("(!(exists(@.age_to)) || @.age_to >= $age)")
            variables.integer("age", age, &text)
        }
        if let sex = filter.sex, sex != .mixed {
            category.append("(!(exists(@.sex)) || @.sex == \"mixed\" || @.sex == $sex)")
            variables.string("sex", sex.code, &text)
        }
        if !category.isEmpty {
            meeting.append(
                "(!(exists(@.categories[*])) || exists(@.categories[*] ? (\(category.joined(separator: " && ")))))")
        }
        if !meeting.isEmpty {
            let n = firstParameter + parameters.count
            sql += " AND jsonb_path_exists(meetings, $\(n)::jsonpath, $\(n + 1)::jsonb)"
            parameters.append("$[*] ? (\(meeting.joined(separator: " && ")))")
            variables.finish(&text)
            parameters.append(text.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })
        }
        return (sql, parameters)
    }

    /// Which criteria a prepared statement has: one statement per combination.
    private static func statementSuffix(_ filter: ClubroomFilter) -> String {
        (filter.unit == nil ? "" : "_unit") + (filter.waterOnly ? "_water" : "") + (filter.weekday == nil ? "" : "_day")
            + (filter.age == nil ? "" : "_age") + (filter.sex == nil || filter.sex == .mixed ? "" : "_sex")
    }

    // MARK: - Loading

    /// What a load did.
    public struct LoadSummary: Hashable, Sendable {
        /// Clubrooms written.
        public var clubrooms: Int
        /// True when an existing table was replaced.
        public var replaced: Bool
    }

    /// Writes `clubrooms` to the table `table` (creating it, with its GiST index) with `COPY`, in batches of
    /// about 1 MB, all in one transaction: a load that fails leaves the database as it was. An existing
    /// table is replaced only with `replace` (readers wait for the new one while the load runs). Creates
    /// the PostGIS extension when the database lacks it and the user may.
    ///
    /// - Throws: ``DatabaseError/tableExists(table:)`` without `replace`; the connection's errors; a server
    ///   error for a value the table cannot hold (a NUL character).
    @discardableResult
    public static func load(
        _ clubrooms: [Clubroom], into uri: DatabaseURI, table: TableName, replace: Bool
    )
        throws -> LoadSummary
    {
        let connection = try PostgresConnection(uri)
        return try transaction(connection) {
            try requirePostGIS(connection)
            let existed = try exists(table, in: connection)
            if existed {
                guard replace else { throw DatabaseError.tableExists(table: table.description) }
                try connection.execute("DROP TABLE \(table.quoted)")
            }
            try connection.execute(
                "CREATE TABLE \(table.quoted) (id text PRIMARY KEY, seq bigint NOT NULL, name text NOT NULL, "
                    + "type text, street text, city text, postcode text, description text, note text, "
                    + "occupation_note text, units jsonb NOT NULL, meetings jsonb NOT NULL, "
                    + "location geography(Point, 4326) NOT NULL)")
            var next = 0
            try connection.copy("COPY \(table.quoted) (\(ClubroomRow.copyList)) FROM STDIN") { buffer in
                while next < clubrooms.count, buffer.count < 1 << 20 {
                    ClubroomRow.appendCopyLine(clubrooms[next], seq: next, to: &buffer)
                    next += 1
                }
                return next < clubrooms.count
            }
            try connection.execute(
                "CREATE INDEX \(table.quoted(suffix: "_location_idx")) ON \(table.quoted) USING gist (location)")
            try connection.execute("ANALYZE \(table.quoted)")
            return LoadSummary(clubrooms: clubrooms.count, replaced: existed)
        }
    }

    // MARK: - Shared with the track table

    /// Runs `body` between `BEGIN` and `COMMIT`; on an error, rolls back and rethrows it.
    static func transaction<T>(_ connection: PostgresConnection, _ body: () throws -> T) throws -> T {
        try connection.execute("BEGIN")
        do {
            let value = try body()
            try connection.execute("COMMIT")
            return value
        } catch {
            _ = try? connection.execute("ROLLBACK")  // the error that made us roll back is the one to report
            throw error
        }
    }

    static func hasPostGIS(_ connection: PostgresConnection) throws -> Bool {
        try connection.execute("SELECT 1 FROM pg_extension WHERE extname = 'postgis'").rowCount > 0
    }

    /// Creates the PostGIS extension when it is missing (inside the load's transaction).
    static func requirePostGIS(_ connection: PostgresConnection) throws {
        guard try !hasPostGIS(connection) else { return }
        do {
            try connection.execute("CREATE EXTENSION postgis")
        } catch DatabaseError.server(_, let message) {
            throw DatabaseError.noPostGIS(database: connection.database, reason: message)
        }
    }

    static func exists(_ table: TableName, in connection: PostgresConnection) throws -> Bool {
        try connection.execute("SELECT to_regclass($1::text) IS NOT NULL", [table.quoted]).value(0, 0) == "t"
    }
}
