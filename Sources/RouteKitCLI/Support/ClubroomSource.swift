import RouteKit

/// Where `near`, `map --clubrooms` and `stages --clubrooms` take clubrooms from: catalog files, or one
/// PostGIS table named by a `postgresql://` URI and `--table`.
enum ClubroomSource {
    /// The table `--table` names when it is not given.
    static let defaultTable = "clubrooms"

    /// The `--table` option, the same in every command that reads clubrooms.
    static func tableOption<Target>(into key: WritableKeyPath<Target, String?>) -> Option<Target> {
        .value(
            "--table", name: "NAME",
            help: """
                With a postgresql:// catalog, the table to read (default clubrooms; see
                routekit load).
                """, into: key)
    }

    /// The table when `catalogs` is one `postgresql://` URI; nil for files. A URI among files, two URIs, or
    /// `--table` without a URI is a usage error, and so is a table name that is no identifier.
    static func table(_ catalogs: [String], table name: String?) throws -> ClubroomTable? {
        let uris = catalogs.filter(DatabaseURI.looksLikeURI)
        guard let first = uris.first, let uri = DatabaseURI(first) else {
            if name != nil { throw CLIError.usage("--table names a table of a postgresql:// catalog; give its URI") }
            return nil
        }
        guard catalogs.count == 1 else {
            throw CLIError.usage("a postgresql:// catalog is read alone: leave out the other catalogs")
        }
        return try ClubroomTable(uri, table: try tableName(name ?? defaultTable))
    }

    /// A table name checked as an identifier.
    static func tableName(_ text: String) throws -> TableName {
        guard let name = TableName(text) else { throw CLIError.usage(DatabaseError.badTableName(text).description) }
        return name
    }

    /// The clubrooms that pass `filter` and may lie within `radiusMeters` of `lines`: every clubroom of
    /// the catalog files, or the table's candidates near the lines (a superset of those within the
    /// radius); build a ``ClubroomIndex`` over them for the exact answer.
    static func clubrooms(
        _ catalogs: [String], table: String?, filter: ClubroomFilter, within radiusMeters: Double,
        ofLines lines: [[Coordinate]]
    ) throws -> [Clubroom] {
        if let database = try self.table(catalogs, table: table) {
            return try database.candidates(within: radiusMeters, ofLines: lines, filter: filter)
        }
        return try ClubroomCatalog.read(paths: catalogs).filtered(by: filter).clubrooms
    }
}
