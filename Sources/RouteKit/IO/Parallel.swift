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

/// `count` items cut into consecutive runs for ``parallelMap(_:_:)``: a few runs per core (so that one slow run
/// does not keep the others waiting), none empty.
package func parallelRuns(_ count: Int) -> [Range<Int>] {
    let parts = min(count, processorCount * 4)
    return (0..<parts).map { k in count * k / parts..<count * (k + 1) / parts }
}

/// A lock for state that threads take turns on: a pthread mutex (which ThreadSanitizer sees).
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = .allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)  // cannot fail with default attributes
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// `body`'s result, with the lock held.
    package func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
