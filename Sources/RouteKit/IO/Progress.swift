import Synchronization

/// How far a long piece of work has come: units done (bytes of input read, stages read) of a total, counted
/// by the library as it works and read by whoever shows it. The library never draws anything; the command
/// line draws a progress bar from these numbers.
///
/// Counting is two relaxed atomic additions, cheap from any thread: the reading thread of a conversion and
/// every core of `parallelMap` count into the same counter without a lock.
package final class ProgressCounter: Sendable {
    private let doneUnits = Atomic<Int64>(0)
    private let totalUnits = Atomic<Int64>(0)

    package init() {}

    /// Adds `units` to the work expected.
    package func expect(_ units: Int64) {
        totalUnits.add(units, ordering: .relaxed)
    }

    /// Counts `units` more as done.
    package func advance(by units: Int64) {
        doneUnits.add(units, ordering: .relaxed)
    }

    /// Units done so far.
    package var done: Int64 { doneUnits.load(ordering: .relaxed) }
    /// Units expected; 0 when unknown (standard input).
    package var total: Int64 { totalUnits.load(ordering: .relaxed) }
}
