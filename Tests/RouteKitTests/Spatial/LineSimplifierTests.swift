import RouteKit
import Testing

@Suite struct LineSimplifierTests {
    /// The distance from `p` to the segment a–b, in the plane.
    static func distance(_ p: (Double, Double), toSegment a: (Double, Double), _ b: (Double, Double)) -> Double {
        let dx = b.0 - a.0, dy = b.1 - a.1
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? max(0, min(1, ((p.0 - a.0) * dx + (p.1 - a.1) * dy) / length2)) : 0
        let x = a.0 + t * dx - p.0, y = a.1 + t * dy - p.1
        return (x * x + y * y).squareRoot()
    }

    static func distance(_ p: (Double, Double), toLine line: [(Double, Double)]) -> Double {
        zip(line, line.dropFirst()).map { distance(p, toSegment: $0, $1) }.min() ?? .infinity
    }

    @Test func aWobbleWithinTheToleranceBecomesAStraightLine() throws {
        let wobble = (0...100).map { (Double($0), $0 % 2 == 0 ? 0.1 : -0.1) }
        let simple = try LineSimplifier().simplify(wobble, tolerance: 0.25)
        #expect(simple.count == 2)
        #expect(simple.first! == wobble.first! && simple.last! == wobble.last!)
    }

    @Test func aCornerBeyondTheToleranceIsKept() throws {
        let corner = (0...50).map { (Double($0), 0.0) } + (1...50).map { (50.0, Double($0)) }
        let simple = try LineSimplifier().simplify(corner, tolerance: 0.25)
        #expect(simple.map(\.0) == [0, 50, 50] && simple.map(\.1) == [0, 0, 50])
    }

    @Test func everyPointOfARandomWalkStaysWithinTheToleranceOfTheResult() throws {
        // Douglas–Peucker's promise, checked point by point: the result is a subset of the points, in order,
        // with both ends, and no original point is farther from it than the tolerance.
        var generator = SystemRandomNumberGenerator()
        var walk: [(Double, Double)] = [(0, 0)]
        for _ in 0..<2000 {
            let last = walk[walk.count - 1]
            walk.append(
                (
                    last.0 + Double.random(in: 0...1, using: &generator),
                    last.1 + Double.random(in: -1...1, using: &generator)
                ))
        }
        let simplifier = try LineSimplifier()
        for tolerance in [0.25, 2, 10] {
            let simple = try simplifier.simplify(walk, tolerance: tolerance)
            #expect(simple.count < walk.count && simple.count >= 2)
            #expect(simple.first! == walk.first! && simple.last! == walk.last!)
            var next = 0
            for p in simple {
                guard let found = walk[next...].firstIndex(where: { $0 == p }) else {
                    Issue.record("\(p) is not a point of the walk, in order")
                    break
                }
                next = found + 1
            }
            let worst = walk.map { Self.distance($0, toLine: simple) }.max() ?? 0
            #expect(worst <= tolerance * (1 + 1e-12), "tolerance \(tolerance): \(worst)")
        }
    }

    @Test func shortLinesAndNoToleranceAreLeftAsTheyAre() throws {
        let simplifier = try LineSimplifier()
        let two = [(0.0, 0.0), (1.0, 1.0)]
        #expect(try simplifier.simplify(two, tolerance: 5).map(\.0) == [0, 1])
        let three = [(0.0, 0.0), (1.0, 0.001), (2.0, 0.0)]
        #expect(try simplifier.simplify(three, tolerance: 0).count == 3)
        #expect(try simplifier.simplify([], tolerance: 1).isEmpty)
    }
}
