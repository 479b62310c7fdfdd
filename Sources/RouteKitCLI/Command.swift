import RouteKit

/// A subcommand of `routekit`: its help, its options, a check of their combination, and its work.
protocol Command {
    /// The word that selects the command.
    static var name: String { get }
    /// One line on what the command does.
    static var abstract: String { get }
    /// The full `--help` text.
    static var help: String { get }

    /// Reads the command's arguments.
    init(arguments: inout Arguments) throws
    /// Rejects bad combinations of options with a sentence the user can act on.
    func validate() throws
    /// Does the work; returns the exit code.
    func run(console: Console) throws -> ExitCode
}

extension Command {
    func validate() throws {}

    /// Parses `words`, validates and runs.
    static func execute(_ words: [String], console: Console) throws -> ExitCode {
        var arguments = Arguments(words)
        let command = try Self(arguments: &arguments)
        try command.validate()
        return try command.run(console: console)
    }
}
