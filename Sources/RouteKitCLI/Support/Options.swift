/// One option of a command, described once: its names, whether it takes a value and what the value is
/// called, its line in `--help`, and how its value is read into the command. Every command lists its options
/// in a table (``Command/options``) that one parser walks (``OptionParser``) and that the help prints, so an
/// option cannot be read without being documented, nor documented without being read.
struct Option<Target> {
    /// The names, the short one first: `["-o", "--output"]`.
    let names: [String]
    /// What the value is called in the help (`FILE`, `METRES`); nil for a flag, which takes no value.
    let valueName: String?
    /// The help text, wrapped by hand to the help's width; lines after the first are indented under it.
    let help: String
    /// Reads the option into the command: the value (nil for a flag), parsed and checked, or a usage error;
    /// given the name as it was typed, for the message.
    let apply: (inout Target, _ value: String?, _ name: String) throws -> Void

    /// An option whose value is read by `apply`.
    init(
        _ names: [String], value valueName: String?, help: String,
        apply: @escaping (inout Target, _ value: String?, _ name: String) throws -> Void
    ) {
        self.names = names
        self.valueName = valueName
        self.help = help
        self.apply = apply
    }

    /// A flag: present or not.
    static func flag(_ names: String..., help: String, sets key: WritableKeyPath<Target, Bool>) -> Option {
        Option(names, value: nil, help: help) { target, _, _ in target[keyPath: key] = true }
    }

    /// An option whose value is taken as it is.
    static func value(
        _ names: String..., name: String, help: String, into key: WritableKeyPath<Target, String?>
    ) -> Option {
        Option(names, value: name, help: help) { target, text, _ in target[keyPath: key] = text }
    }

    /// An option whose value is read by `parse` (given the text and the option's name, for its message);
    /// also into an optional property.
    static func value<T>(
        _ names: String..., name: String, help: String, parse: @escaping (String, String) throws -> T,
        into key: WritableKeyPath<Target, T>
    ) -> Option {
        Option(names, value: name, help: help) { target, text, name in
            target[keyPath: key] = try parse(text ?? "", name)
        }
    }

    /// An option that may be given several times, each value added to a list.
    static func values(
        _ names: String..., name: String, help: String, into key: WritableKeyPath<Target, [String]>
    ) -> Option {
        Option(names, value: name, help: help) { target, text, _ in target[keyPath: key].append(text ?? "") }
    }

    /// `-o FILE`, the same in every command that writes one file.
    static func output(into key: WritableKeyPath<Target, String?>) -> Option {
        .value(
            "-o", "--output", name: "FILE", help: "Write to FILE (atomically) instead of standard output.", into: key)
    }

    /// `-q`, the same in every command.
    static func quiet(sets key: WritableKeyPath<Target, Bool>) -> Option {
        .flag("-q", "--quiet", help: "Do not print warnings.", sets: key)
    }

    /// The same option for a command that keeps these values in a part of itself (the clubroom filter).
    func lifted<Outer>(_ key: WritableKeyPath<Outer, Target>) -> Option<Outer> {
        let apply = self.apply
        return Option<Outer>(names, value: valueName, help: help) { outer, text, name in
            try apply(&outer[keyPath: key], text, name)
        }
    }

    /// The option's lines in `--help`: names and value in a column of 24 characters, then the text.
    var helpLines: String {
        let head = "  " + names.joined(separator: ", ") + (valueName.map { " " + $0 } ?? "")
        let indent = String(repeating: " ", count: Self.helpColumn)
        let padding = String(repeating: " ", count: max(2, Self.helpColumn - head.count))
        return head + padding
            + help.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + indent)
    }

    /// Where the help's texts start.
    static var helpColumn: Int { 24 }
}

/// What a command does with the words that are not options.
enum Positionals<Target> {
    /// Every one is added to the list (input files).
    case many(WritableKeyPath<Target, [String]>)
    /// One at most; `second` words the usage error for another one.
    case one(WritableKeyPath<Target, String?>, second: (String) -> String)
}

/// The one parser of the command line: walks the words with ``Arguments`` and applies each to the command
/// as its option table says.
enum OptionParser {
    /// Reads `words` into `target`.
    ///
    /// - Throws: ``CLIError/usage(_:)`` for an unknown option, a missing value, a value given to a flag, or
    ///   a value an option refuses (with that option's message).
    static func parse<Target>(
        _ words: [String], options: [Option<Target>], positionals: Positionals<Target>, into target: inout Target
    ) throws {
        var byName: [String: Option<Target>] = [:]
        for option in options { for name in option.names { byName[name] = option } }
        var arguments = Arguments(words)
        while let word = arguments.next() {
            switch word {
            case .positional(let text):
                switch positionals {
                case .many(let key): target[keyPath: key].append(text)
                case .one(let key, let second):
                    guard target[keyPath: key] == nil else { throw CLIError.usage(second(text)) }
                    target[keyPath: key] = text
                }
            case let .option(name, inline):
                guard let option = byName[name] else { throw CLIError.usage("unknown option '\(name)'") }
                if option.valueName == nil {
                    guard inline == nil else {
                        throw CLIError.usage("\(name) takes no value; leave out '=\(inline ?? "")'")
                    }
                    try option.apply(&target, nil, name)
                } else {
                    try option.apply(&target, try arguments.value(for: name, inline: inline), name)
                }
            }
        }
    }

    /// The `Options:` lines of a command's help, `-h, --help` last.
    static func help<Target>(_ options: [Option<Target>]) -> String {
        (options.map(\.helpLines) + ["  -h, --help            Show this help."]).joined(separator: "\n")
    }
}
