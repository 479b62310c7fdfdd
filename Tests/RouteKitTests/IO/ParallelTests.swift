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
}
