import Glibc
import RouteKit

/// `routekit convert` on many files at once, on all cores: one output per input in a folder (`-o OUTDIR/`),
/// or several inputs into one text sequence. Each file is converted by one worker, streaming as always, so
/// memory is bounded per worker; what comes out, and every message, is in the order of the inputs.
extension ConvertCommand {
    /// The folder of `-o OUTDIR/` (a path ending in a slash, or a folder that exists); nil for a file.
    var outputFolder: String? {
        guard let output, output != "-" else { return nil }
        if output.hasSuffix("/") { return output }
        var info = stat()
        guard stat(output, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }  // -1 on error
        return output + "/"
    }

    /// The name of the output for `input`: its file name with the extension of `format` instead of its own.
    static func outputName(_ input: String, format: OutputFormat) -> String {
        let name = Folder.baseName(input)
        let stem = name.lastIndex(of: ".").flatMap { $0 > name.startIndex ? String(name[..<$0]) : nil } ?? name
        return stem + "." + format.fileExtension
    }

    /// One input's way through a batch: where it goes, or why it cannot.
    private struct Planned {
        var input: String
        var target: Result<(path: String, format: OutputFormat, bytes: Int64), Error>
    }

    /// `-o OUTDIR/`: every input to its own file in the folder, in parallel. A file that fails is reported and
    /// the others are still written; the exit status is then that of the first input that failed.
    func runBatch(into folder: String, console: Console) throws -> ExitCode {
        guard !inputs.contains("-") else {
            throw CLIError.usage(
                "-o \(folder) writes one file per input, named after it, and standard input has no name: "
                    + "convert it alone with -o FILE")
        }
        let plan = try planBatch(into: folder)
        let model = try dem.open(strict: strict)
        try makeFolder(folder)
        let counter = console.errorIsTerminal ? ProgressCounter() : nil
        counter?.expect(plan.reduce(0) { $0 + ((try? $1.target.get().bytes) ?? 0) })
        let progress = counter.flatMap { ProgressBar.bytes("convert", console: console, counter: $0) }
        defer { progress?.finish() }
        let outcomes = try parallelMap(plan.count) { i -> Outcome in
            let capture = CapturedMessages()
            do {
                let target = try plan[i].target.get()
                let (file, inputFormat) = try openTrackInputs([plan[i].input])[0]
                file.progress = counter
                let out = try OutputStream.create(path: target.path)
                try convert(
                    [(file, inputFormat)], to: target.format, into: out, dem: model, overlapped: false,
                    console: capture.console)
                try out.commit()
                return Outcome(messages: capture.messages, status: .success)
            } catch {
                let status = RouteKitCLI.report(error, command: Self.name, console: capture.console)
                return Outcome(messages: capture.messages, status: status)
            }
        }
        progress?.finish()
        for outcome in outcomes { outcome.replay(on: console) }
        model?.report(console: console, quiet: quiet, measuresAscent: false)
        let failed = outcomes.filter { $0.status != .success }
        guard let first = failed.first else { return .success }
        let written = outcomes.count - failed.count
        console.error(
            "\(failed.count) of \(outcomes.count) files could not be converted; "
                + (written == 0
                    ? "nothing was written"
                    : "the other \(written) \(written == 1 ? "is" : "are") written to \(folder)"))
        return first.status
    }

    /// Where each input goes, checked before anything is written: two inputs may not make the same file, and
    /// no output may replace an input. An input that cannot be opened or read is planned as a failure.
    private func planBatch(into folder: String) throws -> [Planned] {
        var plan: [Planned] = []
        var taken: [String: String] = [:]
        for input in inputs {
            let target = Result { () -> (path: String, format: OutputFormat, bytes: Int64) in
                let (file, inputFormat) = try openTrackInputs([input])[0]
                let format = self.format ?? (inputFormat == .geojson ? .gpx : .geojson)
                return (folder + Self.outputName(input, format: format), format, file.byteCount ?? 0)
            }
            if case .success(let planned) = target {
                if let other = taken[planned.path] {
                    throw CLIError.usage(
                        "'\(other)' and '\(input)' would both be written to \(planned.path); "
                            + "convert them into different folders")
                }
                if Self.sameFile(planned.path, input) {
                    throw CLIError.usage("\(planned.path) would replace its own input; choose another folder")
                }
                taken[planned.path] = input
            }
            plan.append(Planned(input: input, target: target))
        }
        return plan
    }

    /// True when both paths name one existing file.
    private static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        // -1 on error: a path that does not exist is no file of the other.
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// Creates the output folder when it does not exist (its parent must).
    private func makeFolder(_ folder: String) throws {
        var info = stat()
        if stat(folder, &info) == 0 {  // -1 when it does not exist
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw CLIError.cannotCreate("\(folder): exists and is not a folder")
            }
            return
        }
        guard mkdir(folder, 0o777) == 0 else {  // -1 on error, errno set
            throw CLIError.cannotCreate("\(folder): cannot create the folder: \(String(cString: strerror(errno)))")
        }
    }

    /// Several inputs into one text sequence: each file converted by a worker into spools, a few files
    /// at a time, and written in input order: every file's tracks, then all routes, then all waypoints,
    /// as one writer orders them. The first file that fails (in input order) fails the whole output.
    ///
    /// A window's files are written while the next window's are converted: the writing is one more task
    /// among the conversions, so no core waits for it (and two windows of spools at most are held).
    func convertInParallel(
        _ files: [(InputFile, InputFormat)], to format: OutputFormat, into out: OutputStream, dem: DEMUse?,
        console: Console
    ) throws {
        let routes = Spool()
        let waypoints = Spool()
        let window = 2 * processorCount
        // In input order, each file's messages and tracks out, its routes and waypoints to their spools.
        func write(_ parts: [Outcome]) throws {
            for part in parts {
                part.replay(on: console)
                if let failure = part.failure { throw failure }
                try part.spools.tracks.drain(into: out)
                try part.spools.routes.drain(into: routes)
                try part.spools.waypoints.drain(into: waypoints)
            }
        }
        var start = 0
        var converted: [Outcome] = []
        while start < files.count || !converted.isEmpty {
            let end = min(files.count, start + window)
            let written = converted
            // Task 0 writes the window before; tasks 1… convert this one.
            let parts = try parallelMap(end - start + 1) { k -> Outcome? in
                guard k > 0 else {
                    try write(written)
                    return nil
                }
                let capture = CapturedMessages()
                var part = Outcome(messages: [], status: .success)
                part.spools = (Spool(memoryLimit: 1 << 20), Spool(memoryLimit: 1 << 20), Spool(memoryLimit: 1 << 20))
                do {
                    try convert(
                        [files[start + k - 1]], to: format, into: part.spools.tracks,
                        parts: (part.spools.routes, part.spools.waypoints), dem: dem, overlapped: false,
                        console: capture.console)
                } catch {
                    part.failure = error
                }
                part.messages = capture.messages
                return part
            }
            converted = parts.compactMap { $0 }
            start = end
        }
        try routes.drain(into: out)
        try waypoints.drain(into: out)
    }
}

/// What a worker did with one file: its messages, to be printed in input order, and how it ended.
private struct Outcome {
    var messages: [String]
    var status: ExitCode
    var failure: Error?
    var spools = (tracks: Spool(memoryLimit: 0), routes: Spool(memoryLimit: 0), waypoints: Spool(memoryLimit: 0))

    func replay(on console: Console) {
        for message in messages { console.note(message.hasSuffix("\n") ? String(message.dropLast()) : message) }
    }
}

/// A console whose messages are kept, for a worker whose messages wait their turn.
private final class CapturedMessages: @unchecked Sendable {
    private(set) var messages: [String] = []
    private(set) lazy var console = Console(
        writeError: { [unowned self] in messages.append($0) },
        standardOutput: { throw CLIError.cannotCreate("-: a worker has no standard output") })
}

extension ConvertCommand.OutputFormat {
    /// The file extension of an output in this format.
    var fileExtension: String {
        switch self {
        case .geojson: "geojson"
        case .geojsonseq: "geojsons"
        case .ndjson: "ndjson"
        case .gpx: "gpx"
        case .kml: "kml"
        case .kmz: "kmz"
        }
    }
}
