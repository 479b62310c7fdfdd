import RouteKit

/// The line of the track file at `path` as one track (``GPXDocument/tracksElseRoutes()``), for the commands
/// that draw or measure one track; throws when the file has no track or route with a point.
func readTrack(_ path: String, strict: Bool, quiet: Bool, console: Console, dem: DEMUse? = nil) throws -> Track {
    let (file, inputFormat) = try openTrackInputs([path])[0]
    let builder = GPXDocumentBuilder()
    try readInput(
        file, format: inputFormat, strict: strict, quiet: quiet, console: console, dem: dem, handler: builder)
    let track = builder.document.tracksElseRoutes()
    guard track.segments.contains(where: { !$0.points.isEmpty }) else {
        throw CLIError.data("\(path): no track or route to draw")
    }
    return track
}
