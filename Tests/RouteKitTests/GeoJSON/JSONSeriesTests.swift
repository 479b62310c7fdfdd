import Foundation
import Testing

@testable import RouteKit

@Suite struct JSONSeriesTests {
    /// A long series goes to a temporary file, reads back the same from several cursors at once, and is
    /// written out a block at a time.
    @Test func aLongSeriesSpillsToDiskAndStreamsOut() throws {
        let series = JSONSeries(memoryLimit: 1000)
        let times = JSONSeries(memoryLimit: 1000)
        for i in 0..<20_000 {
            try series.append(position: [Double(i) / 3, -Double(i), i % 7 == 0 ? 1e300 : 0.1])
            try times.append(string: i % 5 == 0 ? nil : "t\(i)")
        }
        #expect(series.count == 20_000 && times.count == 20_000)
        let a = series.cursor()
        let b = series.cursor()
        var t = JSONValue.series(times).elementCursor
        var n = 0
        while let x = try a.next() {
            let y = try b.next()
            #expect(x.value == .numbers([Double(n) / 3, -Double(n), n % 7 == 0 ? 1e300 : 0.1]))
            #expect(y?.value == x.value)
            let time = try t?.next()
            #expect(time == (n % 5 == 0 ? .null : .string("t\(n)")))
            n += 1
        }
        let afterLast = try b.next()
        let afterLastTime = try t?.next()
        #expect(n == 20_000 && afterLast == nil && afterLastTime == nil)
        var buffer = ByteBuffer()
        var flushes = 0
        var whole: [UInt8] = []
        try JSONValue.series(series).append(to: &buffer) {
            flushes += 1
            #expect($0.count < 1 << 17)
            whole += $0.bytes
            $0.removeAll()
        }
        whole += buffer.bytes
        var direct = ByteBuffer()
        try JSONValue.array(try series.values()).append(to: &direct)
        #expect(flushes > 5 && whole == direct.bytes)
    }

    /// A string longer than a cursor's block (64 KiB) grows the block; copies of a cursor are one reading.
    @Test func longStringsAndCopiedCursors() throws {
        let series = JSONSeries(memoryLimit: 10_000)
        let long = String(repeating: "ž", count: 50_000)  // 100,000 bytes
        try series.append(string: "a")
        try series.append(string: long)
        try series.append(number: 3)
        let cursor = series.cursor()
        let copy = cursor
        #expect(try cursor.next()?.value == .string("a"))
        #expect(try copy.next()?.value == .string(long))
        #expect(try cursor.next()?.value == .number(3))
        #expect(try copy.next() == nil)
        #expect(try series.removing([0, 2]).values() == [.string(long)])
    }

    /// A gx:Track's copy without the times of the coordinates left out.
    @Test func removingLeavesTheOtherElementsInOrder() throws {
        let series = JSONSeries(memoryLimit: 100)
        for i in 0..<1000 { try series.append(position: [Double(i), 1]) }
        let kept = try series.removing(Set(stride(from: 0, to: 1000, by: 3)))
        #expect(kept.count == 666)
        #expect(try kept.values().first == .numbers([1, 1]) && kept.values().last == .numbers([998, 1]))
    }
}
