import Dispatch
import RouteKit
import Synchronization

/// A progress bar on standard error for work that takes more than a second, drawn only when standard error is
/// a terminal: `routekit: convert [##########..........]  50%  20.1 of 40.2 MB`.
///
/// The work counts into ``ProgressCounter``s (the library's, any thread, atomically); the bar's own thread
/// reads them and draws, so drawing happens in one place and costs the work nothing. Nothing is drawn in the
/// first second (short work shows no bar), then at most ten times a second, each time over the last with a
/// carriage return; ``finish()`` erases the line, so no bar is left behind.
final class ProgressBar: Sendable {
    /// What the bar shows: units done of a total (0 when unknown) and a few words on them.
    struct State: Equatable {
        var done: Int64
        var total: Int64
        var detail: String
    }

    /// Seconds before the first drawing.
    static let delay = 1.0
    /// Seconds between drawings.
    static let interval = 0.1
    /// Characters between the brackets.
    static let width = 24

    private let console: Console
    private let label: String
    private let state: @Sendable () -> State
    private let stop = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    private let finished = Mutex(false)

    /// Starts a bar for the work that `state` describes, or nil when standard error is no terminal.
    static func start(_ label: String, console: Console, state: @escaping @Sendable () -> State) -> ProgressBar? {
        guard console.errorIsTerminal else { return nil }
        let bar = ProgressBar(label: label, console: console, state: state)
        DispatchQueue.global().async { bar.draw() }
        return bar
    }

    /// A bar for bytes read, counted in `counter`.
    static func bytes(_ label: String, console: Console, counter: ProgressCounter) -> ProgressBar? {
        start(label, console: console) {
            let done = counter.done
            let total = counter.total
            return State(
                done: done, total: total,
                detail: total > 0 ? "\(megabytes(done)) of \(megabytes(total)) MB" : "\(megabytes(done)) MB")
        }
    }

    /// A bar for reading `files` (bytes read of their sizes; of no total when one is standard input or a
    /// pipe), or nil when standard error is no terminal.
    static func reading(_ files: [InputFile], label: String, console: Console) -> ProgressBar? {
        guard console.errorIsTerminal else { return nil }
        let counter = ProgressCounter()
        let sizes = files.compactMap(\.byteCount)
        if sizes.count == files.count { counter.expect(sizes.reduce(0, +)) }
        for file in files { file.progress = counter }
        return bytes(label, console: console, counter: counter)
    }

    private init(label: String, console: Console, state: @escaping @Sendable () -> State) {
        self.label = label
        self.console = console
        self.state = state
    }

    /// The bar's thread: waits a second, then draws what changed every tenth of a second until stopped.
    private func draw() {
        var shown: String?
        var wait = Self.delay
        while stop.wait(timeout: .now() + wait) == .timedOut {
            let line = Self.line(label, state())
            // Again when a message has cleared it, so that the bar comes back below the message.
            if line != shown || !console.isStatusShown {
                console.showStatus(line)
                shown = line
            }
            wait = Self.interval
        }
        if shown != nil { console.clearStatus() }
        stopped.signal()
    }

    /// Stops the bar and erases it; returns once its thread has. Later calls do nothing.
    func finish() {
        guard
            finished.withLock({ done in
                defer { done = true }
                return !done
            })
        else { return }
        stop.signal()
        stopped.wait()
    }

    /// The status line for `state`: the bar and the percentage when the total is known, else the count alone.
    static func line(_ label: String, _ state: State) -> String {
        guard state.total > 0 else { return "routekit: \(label)  \(state.detail)" }
        let fraction = min(1, max(0, Double(state.done) / Double(state.total)))
        let filled = Int((fraction * Double(width)).rounded(.down))
        let percent = String(Int((fraction * 100).rounded(.down)))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        return "routekit: \(label) [\(bar)] " + String(repeating: " ", count: 3 - percent.count)
            + "\(percent)%  \(state.detail)"
    }

    /// Bytes as megabytes with one decimal.
    static func megabytes(_ bytes: Int64) -> String {
        DecimalText.fixed(Double(bytes) / 1_000_000, decimals: 1)
    }
}
