import Glibc
import RouteKit

/// Where a command writes its messages: standard error, or a buffer in tests.
public final class Console {
    private let writeError: (String) -> Void
    /// True when standard error is a terminal (progress bars are drawn only then).
    public let errorIsTerminal: Bool
    /// Standard output, for results written without `-o`.
    let standardOutput: () throws -> OutputStream
    /// How many warnings have been printed.
    private(set) var warningCount = 0
    /// Warnings beyond this many per input are counted, not printed.
    let warningLimit = 10

    /// The process's own standard output and standard error.
    public static func system() -> Console {
        Console(
            writeError: { text in
                var copy = text
                copy.withUTF8 { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let n = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)  // -1 on error
                        if n < 0 && errno == EINTR { continue }
                        if n <= 0 { return }  // nowhere left to report a failure to write a message
                        offset += n
                    }
                }
            }, errorIsTerminal: isatty(STDERR_FILENO) == 1, standardOutput: { OutputStream.standardOutput() })
    }

    /// A console with its own places for errors and output.
    public init(
        writeError: @escaping (String) -> Void, errorIsTerminal: Bool = false,
        standardOutput: @escaping () throws -> OutputStream
    ) {
        self.writeError = writeError
        self.errorIsTerminal = errorIsTerminal
        self.standardOutput = standardOutput
    }

    /// Prints `routekit: error: MESSAGE`.
    func error(_ message: String) {
        writeError("routekit: error: \(message)\n")
    }

    /// Prints `routekit: warning: MESSAGE`.
    func warning(_ message: String) {
        warningCount += 1
        writeError("routekit: warning: \(message)\n")
    }

    /// Prints a line as it is.
    func note(_ message: String) {
        writeError(message + "\n")
    }

    /// Opens the output: standard output for nil or `-`, otherwise an atomic file.
    func output(_ path: String?) throws -> OutputStream {
        guard let path, path != "-" else { return try standardOutput() }
        return try OutputStream.create(path: path)
    }

    /// Writes a whole result to the output (standard output for nil or `-`) and commits it.
    func write(_ buffer: inout ByteBuffer, to path: String?) throws {
        let out = try output(path)
        try out.write(&buffer)
        try out.commit()
    }
}

/// Collects the warnings of one input: prints the first few with their place, counts the rest.
final class WarningPrinter {
    private let console: Console
    private let path: String
    private let quiet: Bool
    private(set) var count = 0

    init(console: Console, path: String, quiet: Bool = false) {
        self.console = console
        self.path = path
        self.quiet = quiet
    }

    func callAsFunction(_ warning: some CustomStringConvertible) {
        count += 1
        if !quiet && count <= console.warningLimit { console.warning("\(path):\(warning)") }
    }

    /// Prints how many warnings were not shown.
    func finish() {
        if !quiet && count > console.warningLimit {
            console.warning("\(path): \(count - console.warningLimit) more problems like these (\(count) in all)")
        }
    }
}
