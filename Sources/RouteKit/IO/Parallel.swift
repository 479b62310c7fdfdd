import Dispatch
import Glibc

/// The number of cores online (at least 1).
package let processorCount = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))  // -1 on error

/// The results of ``parallelMap(_:_:)``, written by index from several threads under a lock.
private final class ParallelResults<T>: @unchecked Sendable {
    var values: [Result<T, Error>?]
    let lock = DispatchSemaphore(value: 1)
    init(_ count: Int) { values = Array(repeating: nil, count: count) }
}

/// Runs `body` for every index in `0..<count` on all cores and returns the results in order. Each call
/// must be independent of the others (own files, own PROJ and GEOS contexts). The first error, by index,
/// is rethrown after all calls have finished.
package func parallelMap<T>(_ count: Int, _ body: (Int) throws -> T) throws -> [T] {
    let results = ParallelResults<T>(count)
    withoutActuallyEscaping(body) { body in
        let run = { (i: Int) in
            let value = Result { try body(i) }
            results.lock.wait()
            results.values[i] = value
            results.lock.signal()
        }
        nonisolated(unsafe) let unsafeRun = run
        DispatchQueue.concurrentPerform(iterations: count) { unsafeRun($0) }
    }
    // concurrentPerform has run every index: every slot is filled.
    return try results.values.map { result in
        guard let result else { preconditionFailure("parallelMap: an index was not run") }
        return try result.get()
    }
}

/// The results of ``parallelInOrder(_:window:_:consume:)``: filled by the workers, taken in order.
private final class OrderedResults<T>: @unchecked Sendable {
    private var values: [T?]
    private var next = 0
    private var stopped = false
    private let lock = DispatchSemaphore(value: 1)
    /// Signalled on every result put.
    private let changed = DispatchSemaphore(value: 0)

    init(_ count: Int) { values = Array(repeating: nil, count: count) }

    /// The next index to work on; nil when all are taken or the work stopped.
    func take() -> Int? {
        lock.wait()
        defer { lock.signal() }
        guard !stopped, next < values.count else { return nil }
        next += 1
        return next - 1
    }

    func put(_ value: T, at k: Int) {
        lock.wait()
        values[k] = value
        lock.signal()
        changed.signal()
    }

    /// The result of index `k`, once it is there (and then no longer held here).
    func wait(for k: Int) -> T {
        while true {
            lock.wait()
            if let value = values[k] {
                values[k] = nil
                lock.signal()
                return value
            }
            lock.signal()
            changed.wait()
        }
    }

    func stop() {
        lock.wait()
        stopped = true
        lock.signal()
    }
}

/// Runs `work` for every index in `0..<count` on all cores and hands the results to `consume`, on the calling
/// thread and in order of index, each as soon as it and those before it are done: the first result is used
/// while later ones are still being made, and at most `window` results are made ahead of `consume` (which
/// bounds the memory they hold). When `consume` throws, no further index is started, those under way
/// finish, and the error is rethrown.
package func parallelInOrder<T>(
    _ count: Int, window: Int, _ work: @escaping (Int) -> T, consume: (T) throws -> Void
) throws {
    guard count > 0 else { return }
    let results = OrderedResults<T>(count)
    let slots = DispatchSemaphore(value: max(1, window))
    let group = DispatchGroup()
    nonisolated(unsafe) let work = work
    let workers = min(processorCount, count)
    for _ in 0..<workers {
        DispatchQueue.global().async(group: group) {
            while true {
                slots.wait()
                guard let k = results.take() else {
                    slots.signal()
                    return
                }
                results.put(work(k), at: k)
            }
        }
    }
    var failure: Error?
    for k in 0..<count {
        do {
            try consume(results.wait(for: k))
        } catch {
            failure = error
            break
        }
        slots.signal()
    }
    if failure != nil {
        results.stop()
        for _ in 0..<workers { slots.signal() }  // wakes the workers waiting for a slot, to see the stop
    }
    group.wait()
    if let failure { throw failure }
}
