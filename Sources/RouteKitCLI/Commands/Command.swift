import RouteKit

/// A subcommand of `routekit`: its help, its options, a check of their combination, and its work.
///
/// A command is a struct whose properties hold its options, each with its default; ``options`` says how the
/// command line sets them and ``positionals`` where the other words go. ``OptionParser`` reads them all the
/// same way for every command.
protocol Command {
    /// The word that selects the command.
    static var name: String { get }
    /// One line on what the command does.
    static var abstract: String { get }
    /// The full `--help` text (its `Options:` lines are ``OptionParser/help(_:)`` of ``options``).
    static var help: String { get }
    /// The command's options, in the order its help lists them.
    static var options: [Option<Self>] { get }
    /// Where the words that are not options go.
    static var positionals: Positionals<Self> { get }

    /// Every option at its default.
    init()
    /// Rejects bad combinations of options with a sentence the user can act on.
    func validate() throws
    /// Does the work; returns the exit code.
    func run(console: Console) throws -> ExitCode
}

extension Command {
    func validate() throws {}

    /// The `Options:` lines of the help.
    static var optionHelp: String { OptionParser.help(options) }

    /// Reads the command's words into a command.
    static func parse(_ words: [String]) throws -> Self {
        var command = Self()
        try OptionParser.parse(words, options: options, positionals: positionals, into: &command)
        return command
    }

    /// Parses `words`, validates and runs.
    static func execute(_ words: [String], console: Console) throws -> ExitCode {
        let command = try parse(words)
        try command.validate()
        return try command.run(console: console)
    }
}
