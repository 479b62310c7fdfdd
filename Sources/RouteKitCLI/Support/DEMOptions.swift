import RouteKit

/// `--dem` and `--dem-mode`, the same in every command that reads tracks: elevations from a digital elevation
/// model instead of (or where missing from) the file's.
struct DEMOptions {
    var path: String?
    var mode = ElevationModel.Mode.replace

    /// The options for a command that keeps these at `key`.
    static func options<Target>(_ key: WritableKeyPath<Target, DEMOptions>) -> [Option<Target>] {
        let own: [Option<DEMOptions>] = [
            .value(
                "--dem", name: "PATH",
                help: """
                    Take elevations from a DEM: a raster GDAL reads (GeoTIFF, SRTM .hgt,
                    VRT, ...) in any CRS, or a folder of such tiles (opened as the track
                    needs them). Bilinear between samples; no-data honoured. Points the DEM
                    does not cover keep their own elevation, with one warning (an error
                    with --strict). With replace, the ascent counts every rise of the DEM's
                    elevations, as for exact data, on a track whose points all took them.
                    """,
                into: \.path),
            .value(
                "--dem-mode", name: "MODE",
                help: "replace (default): every elevation; fill: only points without one.",
                parse: OptionValues.choice(ElevationModel.Mode.self, message: "must be replace or fill"),
                into: \.mode),
        ]
        return own.map { $0.lifted(key) }
    }

    /// `--strict` in a command whose only lenient reading is of its track files and the DEM.
    static func strict<Target>(sets key: WritableKeyPath<Target, Bool>) -> Option<Target> {
        .flag(
            "--strict", help: "Treat a bad value in a file (or a point off the DEM) as an error (exit 65).", sets: key)
    }

    /// The ascent method for these options: with elevations from the DEM, the settings for exact data
    /// (``AscentMethod/exact``: no smoothing, every rise counted), unless the user chose others.
    func method(_ method: AscentMethod) -> AscentMethod {
        guard path != nil, mode == .replace else { return method }
        var exact = AscentMethod.exact
        exact.smoothingMeters = method.smoothingMeters ?? AscentMethod.exact.smoothingMeters
        exact.thresholdMeters = method.thresholdMeters ?? AscentMethod.exact.thresholdMeters
        return exact
    }

    /// The ascent method for a track read with the DEM as `tally` says: for exact data only when every point
    /// with an elevation took the DEM's, else `method` (the recorded elevations' noise is measured).
    func method(_ method: AscentMethod, after tally: ElevationModel.Tally?) -> AscentMethod {
        (tally?.linesKeepingRecordedElevations ?? 0) > 0 ? method : self.method(method)
    }

    /// A statistics collector for these options: for exact data on the lines whose points all took the DEM's
    /// elevations, `method` on the others.
    func collector(_ method: AscentMethod) -> StatisticsCollector {
        let collector = StatisticsCollector(method: self.method(method))
        if path != nil { collector.methodForRecordedElevations = method }
        return collector
    }

    /// The model, opened, with what the command does with it; nil without `--dem`.
    func open(strict: Bool) throws -> DEMUse? {
        guard let path else { return nil }
        return DEMUse(model: try ElevationModel(path: path), mode: mode, strict: strict)
    }
}

/// An open DEM during one run: wraps each input's handler, and adds up what it did for one warning at the end.
/// Files converted in parallel share it: the count takes turns.
final class DEMUse: @unchecked Sendable {
    let model: ElevationModel
    let mode: ElevationModel.Mode
    let strict: Bool
    private let lock = Lock()
    /// Touched only under `lock`.
    private var counted = ElevationModel.Tally()
    /// What the DEM did so far.
    var tally: ElevationModel.Tally {
        lock.withLock { counted }
    }

    init(model: ElevationModel, mode: ElevationModel.Mode, strict: Bool) {
        self.model = model
        self.mode = mode
        self.strict = strict
    }

    /// A handler that sets the elevations of the points of the file at `path` on their way into `target`.
    func handler(into target: GPXHandler, path: String) -> ElevationModelHandler {
        ElevationModelHandler(model: model, mode: mode, into: target) { [strict, model] coordinate in
            guard strict else { return }
            throw CLIError.data(
                "\(path): the DEM \(model.path) has no elevation at \(Self.position(coordinate)) (--strict)")
        }
    }

    /// Counts what `handler` did.
    func add(_ handler: ElevationModelHandler) { add(handler.tally) }

    /// Counts what was done to a track in memory.
    func add(_ tally: ElevationModel.Tally) {
        lock.withLock { counted.add(tally) }
    }

    /// The one warning about the points the DEM does not cover, if there were any.
    func report(console: Console, quiet: Bool) {
        guard tally.notCovered > 0, !quiet, let first = tally.firstNotCovered else { return }
        let points =
            tally.notCovered == 1
            ? "1 point outside \(model.path) (or where it has no data) kept its own elevation"
            : "\(DecimalText.grouped(tally.notCovered)) points outside \(model.path) (or where it has no data) "
                + "kept their own elevation"
        let lines = tally.linesKeepingRecordedElevations
        let measured =
            mode == .replace && lines > 0
            ? "; the ascent of \(lines == 1 ? "the track" : "the \(DecimalText.grouped(lines)) tracks") with such "
                + "points is measured as for recorded elevations (their noise smoothed), not as for exact data"
            : ""
        console.warning("--dem: \(points); the first at \(Self.position(first))\(measured)")
    }

    static func position(_ c: Coordinate) -> String {
        "\(DecimalText.fixed(c.latitude, decimals: 6)), \(DecimalText.fixed(c.longitude, decimals: 6))"
    }
}
