import Glibc
import RouteKit
import Synchronization

/// Where a command writes its messages: standard error, or a buffer in tests.
///
/// A progress bar's thread draws its status line here while the command's thread may print a message: both
/// go through one lock, and a message first clears the status line, so the two never mix on one line.
/// (Unchecked: the warning count is the command's thread's alone; what is shared is under the lock.)
public final class Console: @unchecked Sendable {
    private let writeError: (String) -> Void
    /// Whether a status line (a progress bar) is on the terminal now, under the lock for standard error.
    private let statusShown = Mutex(false)
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
                    guard let base = bytes.baseAddress else { return }  // nil only for no bytes
                    var offset = 0
                    while offset < bytes.count {
                        let n = Glibc.write(STDERR_FILENO, base + offset, bytes.count - offset)  // -1 on error
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
        emit("routekit: error: \(message)\n")
    }

    /// Prints `routekit: warning: MESSAGE`.
    func warning(_ message: String) {
        warningCount += 1
        emit("routekit: warning: \(message)\n")
    }

    /// Prints a line as it is.
    func note(_ message: String) {
        emit(message + "\n")
    }

    /// The erase-line sequence: carriage return, then ANSI "erase to the end of the line".
    static let eraseLine = "\r\u{1B}[K"

    /// Writes `text` to standard error, clearing the status line first.
    private func emit(_ text: String) {
        statusShown.withLock { shown in
            if shown { writeError(Self.eraseLine) }
            shown = false
            writeError(text)
        }
    }

    /// Draws `line` as the status line: over the previous one, from the start of the line. Only for a
    /// terminal (``errorIsTerminal``).
    func showStatus(_ line: String) {
        statusShown.withLock { shown in
            writeError("\r" + line + "\u{1B}[K")
            shown = true
        }
    }

    /// True while a status line is on the terminal (a message clears it).
    var isStatusShown: Bool { statusShown.withLock { $0 } }

    /// Clears the status line, if one is shown, leaving the cursor at the start of an empty line.
    func clearStatus() {
        statusShown.withLock { shown in
            if shown { writeError(Self.eraseLine) }
            shown = false
        }
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
