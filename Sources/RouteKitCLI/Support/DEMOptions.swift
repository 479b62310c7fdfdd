import RouteKit

/// `--dem` and `--dem-mode`, the same in every command that reads tracks: elevations from a digital elevation
/// model instead of (or where missing from) the file's.
struct DEMOptions {
    var path: String?
    /// `--dem-mode` as given; nil when not given (``mode`` is then replace).
    var givenMode: ElevationModel.Mode?
    /// What to do with the DEM's elevations.
    var mode: ElevationModel.Mode { givenMode ?? .replace }

    /// The options for a command that keeps these at `key`; `measuresAscent` when the command counts the ascent
    /// (all but convert), whose help then says how.
    static func options<Target>(
        _ key: WritableKeyPath<Target, DEMOptions>, measuresAscent: Bool = true
    ) -> [Option<Target>] {
        // Each option's help, with what it does to the ascent where the command measures one.
        func help(_ text: String, ascent: String) -> String { measuresAscent ? text + "\n" + ascent : text }
        let own: [Option<DEMOptions>] = [
            .value(
                "--dem", name: "PATH",
                help: help(
                    """
                    Take elevations from a DEM: a raster GDAL reads (GeoTIFF, SRTM .hgt,
                    VRT, ...) in any CRS, or a folder of such tiles (opened as the track
                    needs them). Bilinear between samples; no-data honoured. Points the DEM
                    does not cover keep their own elevation, with one warning (an error
                    with --strict).
                    """,
                    ascent: """
                        The ascent counts every rise of the DEM's elevations, as for exact
                        data; stretches that keep their own are smoothed for noise.
                        """),
                into: \.path),
            .value(
                "--dem-mode", name: "MODE",
                help: help(
                    """
                    With --dem: replace (default) takes every elevation from the DEM;
                    fill only those of points without one (--dem-mode fill fills a
                    recording's gaps).
                    """,
                    ascent: """
                        With fill, the ascent counts the DEM's heights as exact and the
                        file's as recorded, smoothed for noise.
                        """),
                parse: OptionValues.choice(ElevationModel.Mode.self, message: "must be replace or fill"),
                into: \.givenMode),
        ]
        return own.map { $0.lifted(key) }
    }

    /// Rejects `--dem-mode` without `--dem`: it would change nothing, and the user meant a DEM to be used.
    func validate() throws {
        if let givenMode, path == nil {
            throw CLIError.usage(
                "--dem-mode \(givenMode.rawValue) needs --dem PATH, the DEM to take the elevations from: for example "
                    + "--dem dem/ --dem-mode \(givenMode.rawValue)")
        }
    }

    /// `--strict` in a command whose only lenient reading is of its track files and the DEM.
    static func strict<Target>(sets key: WritableKeyPath<Target, Bool>) -> Option<Target> {
        .flag(
            "--strict", help: "Treat a bad value in a file (or a point off the DEM) as an error (exit 65).", sets: key)
    }

    /// The ascent method for these options: with elevations from the DEM, the settings for exact data
    /// (``AscentMethod/exact``: no smoothing, every rise counted), unless the user chose others, and no settling at a
    /// recording's start (the terrain's heights need none: ``ElevationSettling``). The stretches of a line that kept
    /// recorded elevations are measured with `method` itself.
    func method(_ method: AscentMethod) -> AscentMethod {
        guard path != nil else { return method }
        var exact = AscentMethod.exact
        exact.smoothingMeters = method.smoothingMeters ?? AscentMethod.exact.smoothingMeters
        exact.thresholdMeters = method.thresholdMeters ?? AscentMethod.exact.thresholdMeters
        exact.settlingSeconds = nil
        return exact
    }

    /// The profile of `track` with `method`, `recorded` its points that kept recorded elevations
    /// (``DEMUse/apply(to:path:)``): for exact data where the points took the DEM's elevations, `method` on the
    /// stretches that kept their own.
    func profile(_ track: Track, recorded: [Int], method: AscentMethod) -> ElevationProfile {
        ElevationProfile(
            track: track, method: self.method(method), recorded: recorded, recordedMethod: path != nil ? method : nil)
    }

    /// A statistics collector for these options: for exact data where the points took the DEM's elevations,
    /// `method` on the stretches that kept their own.
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
        ElevationModelHandler(model: model, mode: mode, into: target) { [self] coordinate in
            guard strict else { return }
            throw notCovered(coordinate, path: path)
        }
    }

    /// Sets the elevations of `track`, read from `path`, as ``handler(into:path:)`` would, and counts what it did.
    ///
    /// - Returns: the points that kept recorded elevations (see ``ElevationModel/apply(to:mode:tally:)``).
    func apply(to track: inout Track, path: String) throws -> [Int] {
        var counted = ElevationModel.Tally()
        let recorded = try model.apply(to: &track, mode: mode, tally: &counted)
        add(counted)
        if strict, let first = counted.firstNotCovered { throw notCovered(first, path: path) }
        return recorded
    }

    /// The error of a strict run for a point at `coordinate` of the file at `path` that the DEM does not cover.
    private func notCovered(_ coordinate: Coordinate, path: String) -> CLIError {
        CLIError.data("\(path): the DEM \(model.path) has no elevation at \(Self.position(coordinate)) (--strict)")
    }

    /// Counts what `handler` did.
    func add(_ handler: ElevationModelHandler) { add(handler.tally) }

    /// Counts what was done to a track in memory.
    func add(_ tally: ElevationModel.Tally) {
        lock.withLock { counted.add(tally) }
    }

    /// The one warning about the points the DEM does not cover, if there were any. A strict run warns of
    /// nothing: each input with such a point failed with its error (see ``handler(into:path:)``), and the others
    /// have none. `measuresAscent` says whether the run measures ascent (convert does not), for the warning's
    /// last clause.
    func report(console: Console, quiet: Bool, measuresAscent: Bool = true) {
        guard tally.notCovered > 0, !quiet, !strict, let first = tally.firstNotCovered else { return }
        let points =
            tally.notCovered == 1
            ? "1 point outside \(model.path) (or where it has no data) kept its own elevation"
            : "\(DecimalText.grouped(tally.notCovered)) points outside \(model.path) (or where it has no data) "
                + "kept their own elevation"
        let lines = tally.linesKeepingRecordedElevations
        let measured =
            measuresAscent && mode == .replace && lines > 0
            ? "; the ascent of \(lines == 1 ? "the track" : "the \(DecimalText.grouped(lines)) tracks") with such "
                + "points counts them as recorded elevations, their noise smoothed"
            : ""
        console.warning("--dem: \(points); the first at \(Self.position(first))\(measured)")
    }

    static func position(_ c: Coordinate) -> String {
        "\(DecimalText.fixed(c.latitude, decimals: 6)), \(DecimalText.fixed(c.longitude, decimals: 6))"
    }
}
