import Foundation
import RouteKit
import Testing

@Suite struct ParallelTests {
    struct Failure: Error, Equatable { var index: Int }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var value = 0
        func increment() { lock.withLock { value += 1 } }
    }

    @Test func returnsEveryResultInIndexOrder() throws {
        let results = try parallelMap(1000) { i -> Int in
            if i % 97 == 0 { usleep(200) }  // some calls finish late
            return i * i
        }
        #expect(results == (0..<1000).map { $0 * $0 })
        #expect(try parallelMap(0) { $0 }.isEmpty)
    }

    @Test func rethrowsTheFirstErrorByIndexAfterEveryCallHasRun() {
        let calls = Counter()
        #expect(throws: Failure(index: 3)) {
            _ = try parallelMap(500) { i -> Int in
                calls.increment()
                if i == 499 { throw Failure(index: 499) }  // fails first (index 3 sleeps), yet is not the one rethrown
                if i == 3 {
                    usleep(20_000)
                    throw Failure(index: 3)
                }
                return i
            }
        }
        #expect(calls.value == 500)
    }

    /// Work that may finish out of order is consumed in order, never more than the window ahead.
    @Test func inOrderConsumesEveryResultInOrderWithinTheWindow() throws {
        final class Ahead: @unchecked Sendable {
            let lock = NSLock()
            var consumed = 0
            var worst = 0
            func started(_ k: Int) { lock.withLock { worst = max(worst, k - consumed) } }
            func consume() { lock.withLock { consumed += 1 } }
        }
        let ahead = Ahead()
        var seen: [Int] = []
        try parallelInOrder(300, window: 4) { k -> Int in
            ahead.started(k)
            if k % 7 == 0 { usleep(300) }  // some finish late
            return k * 3
        } consume: { value in
            seen.append(value)
            ahead.consume()
        }
        #expect(seen == (0..<300).map { $0 * 3 })
        #expect(ahead.worst < 4, "a result was started \(ahead.worst) ahead of the consumer")
        try parallelInOrder(0, window: 4) {
            $0
        } consume: { _ in
            Issue.record("nothing to consume")
        }
    }

    /// When the consumer fails, no new work starts, the work under way finishes, and the error comes back.
    @Test func inOrderStopsAtTheConsumersError() {
        let calls = Counter()
        var consumed = 0
        #expect(throws: Failure(index: 20)) {
            try parallelInOrder(10_000, window: 6) { k -> Int in
                calls.increment()
                usleep(50)
                return k
            } consume: { k in
                if k == 20 { throw Failure(index: 20) }
                consumed += 1
            }
        }
        #expect(consumed == 20)
        #expect(calls.value <= 21 + 6, "\(calls.value) calls for a failure at the 21st")
    }
}
