import RouteKit

/// The line of the track file at `path` as one track (``GPXDocument/tracksElseRoutes()``), for the commands
/// that draw or measure one track; throws when the file has no track or route with a point. With `dem`, its
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
    let recorded = try dem?.apply(to: &track, path: path) ?? []
    return (track, recorded)
}
