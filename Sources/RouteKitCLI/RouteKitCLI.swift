import RouteKit

/// The `routekit` command line, as testable code: `main` parses, runs and returns the exit code.
public enum RouteKitCLI {
    nonisolated(unsafe) static let commands: [any Command.Type] = [
        ConvertCommand.self, StatsCommand.self, ProfileCommand.self, ClimbsCommand.self, MapCommand.self,
        StagesCommand.self, NearCommand.self, LoadCommand.self,
    ]

    static var help: String {
        var text = """
            routekit — routes, stages and clubrooms: GPX, GeoJSON and SVG.

            Usage: routekit <command> [options] [files]

            Commands:

            """
        for command in commands {
            text +=
                "  " + command.name + String(repeating: " ", count: max(1, 10 - command.name.count)) + command.abstract
                + "\n"
        }
        text += """

            A file named - is standard input (or, after -o, standard output). Output files are written
            atomically: a failed run never leaves a half-written file. Work that takes over a second (a
            large conversion, a stage bundle, a big catalog) shows a progress bar on standard error when
            that is a terminal, and nothing when it is a file or a pipe.
            Run 'routekit <command> --help' for a command's options and examples.

            """
        return text
    }

    /// Runs the command line `arguments` (the program name first) with the process's own console.
    public static func main(_ arguments: [String]) -> Int32 {
        OutputStream.removeTemporaryFilesOnInterrupt()
        return run(Array(arguments.dropFirst()), console: .system()).rawValue
    }

    /// Runs `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String], console: Console) -> ExitCode {
        guard let first = arguments.first else {
            console.note(help)
            return .usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                return printHelp(command.help, console: console)
            }
            return printHelp(help, console: console)
        }
        if first == "--version" {
            return printHelp("routekit \(RouteKitVersion.current)\n", console: console)
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            console.error(
                "unknown command '\(first)'; the commands are "
                    + "\(commands.map { $0.name }.joined(separator: ", ")). See 'routekit --help'."
            )
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            return printHelp(command.help, console: console)
        }
        do {
            return try command.execute(rest, console: console)
        } catch {
            return report(error, command: command.name, console: console)
        }
    }

    /// Prints `error` the way DESIGN.md describes and returns its exit code.
    static func report(_ error: Error, command: String, console: Console) -> ExitCode {
        if let error = error as? CLIError {
            switch error {
            case .usage(let message):
                console.error("\(message)\nSee 'routekit \(command) --help'.")
                return .usage
            case .data(let message):
                console.error(message)
                return .dataError
            case .noInput(let message):
                console.error(message)
                return .noInput
            case .cannotCreate(let message):
                console.error(message)
                return .cannotCreate
            }
        }
        if let error = error as? IOError {
            console.error(error.description)
            switch error {
            case .cannotOpen, .readFailed: return .noInput
            case .cannotCreate, .writeFailed: return .cannotCreate
            }
        }
        if let error = error as? ElevationModelError {
            console.error("--dem \(error)")
            return error.isUnreadable ? .noInput : .dataError
        }
        if let error = error as? DatabaseError {
            console.error(error.description)
            return exitCode(of: error, loading: command == LoadCommand.name)
        }
        // Readers' errors that a command did not word itself are still bad data, not a failure of ours.
        if let error = error as? CatalogError, case .missingColumn = error.underlying {
            console.error("\(error); name it with --lat-column/--lon-column")
            return .dataError
        }
        if error is CatalogError || error is GeoJSONError || error is GPXError || error is XMLFormatError
            || error is ArchiveError || error is StageBundleError || error is TrackLoadError
        {
            console.error("\(error)")
            return .dataError
        }
        console.error("internal error: \(error)")
        return .software
    }

    /// A database's failure in the README's exit codes: the database is the input of a search (66 when it
    /// cannot be reached, lacks PostGIS or the table) and the output of a load (73).
    static func exitCode(of error: DatabaseError, loading: Bool) -> ExitCode {
        switch error {
        case .notADatabaseURI, .badTableName: return .usage
        case .cannotConnect, .noPostGIS, .missingTable: return loading ? .cannotCreate : .noInput
        case .tableExists: return .cannotCreate
        case .unexpectedTable, .badRow: return .dataError
        case .server: return error.isDataError ? .dataError : .ioError
        }
    }

    private static func printHelp(_ text: String, console: Console) -> ExitCode {
        do {
            var buffer = ByteBuffer()
            buffer.append(string: text)
            try console.write(&buffer, to: nil)
            return .success
        } catch {
            return .cannotCreate
        }
    }
}
