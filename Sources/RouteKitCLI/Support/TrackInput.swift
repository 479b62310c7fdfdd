import RouteKit

/// The line of the track file at `path` as one track (``GPXDocument/tracksElseRoutes()``), for the commands
/// that draw or measure one track (several lines are named for their first and last: "Morning … Evening (3 tracks one
/// after the other)"); throws when the file has no track or route with a point. With `dem`, its
/// points take their elevations from it; `recorded` are those that kept their own (see
/// ``DEMUse/apply(to:path:)``).
func readTrack(
    _ path: String, strict: Bool, quiet: Bool, console: Console, dem: DEMUse? = nil
) throws -> (track: Track, recorded: [Int]) {
    let (file, inputFormat) = try openTrackInputs([path])[0]
    let builder = GPXDocumentBuilder()
    try readInput(file, format: inputFormat, strict: strict, quiet: quiet, console: console, handler: builder)
    var track = builder.document.tracksElseRoutes()
    guard track.segments.contains(where: { !$0.points.isEmpty }) else {
        throw CLIError.data("\(path): no track or route to draw")
    }
    // Several lines one after the other are named for all of them, not for the first alone.
    let lines = builder.document.lines().filter { $0.segments.contains { !$0.points.isEmpty } }
    if lines.count > 1 {
        let names = lines.compactMap { $0.name.flatMap { $0.isEmpty ? nil : $0 } }
        let kind =
            builder.document.tracks.contains { $0.segments.contains { !$0.points.isEmpty } } ? "tracks" : "routes"
        let all = "\(lines.count) \(kind) one after the other"
        track.details.name =
            names.count == lines.count
            ? "\(names[0]) … \(names[names.count - 1]) (\(all))"
            : "\(Folder.baseName(path)) (\(all))"
    }
    let recorded = try dem?.apply(to: &track, path: path) ?? []
    return (track, recorded)
}

/// The waypoints of the file at `path` (GPX, KML, TCX or GeoJSON), for `--waypoints`: read as the tracks are, so that
/// a file that cannot be read is named in the error (66 when it cannot be opened, 65 when it is not such a file).
func readWaypoints(_ path: String, strict: Bool, quiet: Bool, console: Console) throws -> [Waypoint] {
    let (file, format) = try openTrackInputs([path])[0]
    let builder = GPXDocumentBuilder()
    try readInput(file, format: format, strict: strict, quiet: quiet, console: console, handler: builder)
    return builder.document.waypoints
}
