/// The command line's words, taken one by one by a command as it parses them.
///
/// Options come as `--name VALUE`, `--name=VALUE` or, for those with a short form, `-o VALUE`; flags as
/// `--name`; everything else is a positional argument, and so is every word after `--`. A lone `-` is a
/// positional argument (standard input or output).
struct Arguments {
    private var words: [String]
    private var index = 0

    init(_ words: [String]) {
        self.words = words
    }

    /// What the next word is.
    enum Word: Equatable {
        case option(name: String, inlineValue: String?)
        case positional(String)
    }

    private var afterDoubleDash = false

    /// The next word, or nil at the end.
    mutating func next() -> Word? {
        guard index < words.count else { return nil }
        let word = words[index]
        index += 1
        if afterDoubleDash || word == "-" || !word.hasPrefix("-") || Double(word) != nil && !word.hasPrefix("--") {
            return .positional(word)
        }
        if word == "--" {
            afterDoubleDash = true
            return next()
        }
        if let eq = word.firstIndex(of: "="), word.hasPrefix("--") {
            return .option(name: String(word[..<eq]), inlineValue: String(word[word.index(after: eq)...]))
        }
        return .option(name: word, inlineValue: nil)
    }

    /// The value of an option: the inline `=VALUE` or the next word.
    mutating func value(for name: String, inline: String?) throws -> String {
        if let inline { return inline }
        guard index < words.count else { throw CLIError.usage("\(name) needs a value") }
        index += 1
        return words[index - 1]
    }
}

/// A failure the command line reports, with its exit code.
enum CLIError: Error, Equatable {
    /// The words of the command line are wrong (exit 64).
    case usage(String)
    /// The input data cannot be used (exit 65).
    case data(String)
    /// An input cannot be opened (exit 66).
    case noInput(String)
    /// An output cannot be created or written (exit 73).
    case cannotCreate(String)
}

/// Exit codes, as in sysexits.h.
public enum ExitCode: Int32, Sendable {
    case success = 0
    case usage = 64
    case dataError = 65
    case noInput = 66
    case software = 70
    case cannotCreate = 73
    case ioError = 74
}
