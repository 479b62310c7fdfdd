import RouteKit
import Testing

@Suite struct DecimalTextTests {
    func text(_ value: Double, precision: Int? = nil) -> String {
        var buffer = ByteBuffer()
        DecimalText.append(value, precision: precision, to: &buffer)
        return buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: [
        ("46.0512", 46.0512), ("-7", -7.0), ("1.5e3", 1500.0), ("+.5", 0.5), ("  12.25 ", 12.25),
        ("0.000001", 0.000001), ("-77.02016168273985", -77.02016168273985), ("1E-7", 1e-7),
        ("123456789012345678901234567890", 1.2345678901234568e29), ("0.1", 0.1),
        ("5e-324", Double.leastNonzeroMagnitude),
    ])
    func readsDecimals(text: String, value: Double) {
        #expect(DecimalText.parse(text) == value)
    }

    @Test(arguments: [
        "", " ", "NaN", "nan", "Inf", "-inf", "infinity", "1e999", "0x1p3", "12m", "1.2.3", "-", ".", "e5", "1e", "--1",
        "undefined",
    ])
    func refusesNonNumbers(text: String) {
        #expect(DecimalText.parse(text) == nil)
    }

    @Test func parsingIsCorrectlyRoundedLikeStrtod() {
        // Random decimal strings of 1 to 17 significant digits against the standard library's parser.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50_000 {
            let digits = Int.random(in: 1...17, using: &generator)
            var text = Bool.random(using: &generator) ? "-" : ""
            let point = Int.random(in: 0...digits, using: &generator)
            for k in 0..<digits {
                if k == point && k > 0 { text += "." }
                text += String(Int.random(in: 0...9, using: &generator))
            }
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -30...30, using: &generator))" }
            #expect(DecimalText.parse(text) == Double(text), "\(text)")
        }
    }

    @Test(arguments: [
        (46.0512, "46.0512"), (7.0, "7"), (-0.0012, "-0.0012"), (1611.5, "1611.5"), (0.1, "0.1"),
        (-77.02016168273985, "-77.02016168273985"), (1e-7, "0.0000001"), (1.5e-20, "1.5e-20"),
        (123456789012.5, "123456789012.5"),
        (0.0, "0"), (-0.0, "-0"), (1e21, "1e+21"),
    ])
    func writesTheShortestForm(value: Double, expected: String) {
        #expect(text(value) == expected)
    }

    @Test(arguments: [5e-05, -5e-07, 1.25e-06, 9.999e-05])
    func writesSmallNumbersInDecimalDownTo1e7(value: Double) {
        let written = text(value)
        #expect(Double(written) == value && !written.contains("e"), "\(written)")
        #expect(written.count <= value.description.count + 4)
    }

    @Test func everyWrittenNumberReadsBackToTheSameDouble() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100_000 {
            let value: Double
            switch Int.random(in: 0...3, using: &generator) {
            case 0: value = Double.random(in: -180...180, using: &generator)
            case 1: value = (Double.random(in: -90...90, using: &generator) * 1e7).rounded() / 1e7
            case 2: value = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            default: value = (Double.random(in: -500...9000, using: &generator) * 10).rounded() / 10
            }
            guard value.isFinite else { continue }
            let written = text(value)
            #expect(Double(written) == value, "\(value) written as \(written)")
            // Down to 1e-7 the form is decimal where Swift writes an exponent (5e-05 is 0.00005): up to four
            // characters more there, at most one elsewhere.
            let slack = value.description.contains("e-") && abs(value) >= 1e-7 ? 4 : 1
            #expect(written.count <= value.description.count + slack, "\(written) is longer than \(value.description)")
        }
    }

    @Test func roundsToAPrecision() {
        #expect(text(46.05123456789, precision: 6) == "46.051235")
        #expect(text(-77.02016168273985, precision: 5) == "-77.02016")
        #expect(text(810.449, precision: 1) == "810.4")
        #expect(text(14.0000001, precision: 6) == "14")
        #expect(text(-0.0004, precision: 3) == "-0")
    }

    /// Rounded to a precision, a number is written as the shortest form of the rounded double: the digits of
    /// the rounding without trailing zeros, never a form of the unrounded value.
    /// Halves, and the doubles next to them, round as `rounded()` rounds them: halves away from zero, the
    /// largest double under a half down, to 2^52 and past it.
    @Test func halvesRoundAwayFromZeroAsTheStandardLibraryRounds() {
        var values: [Double] = [0x1p52 - 0.5, 0x1p52 + 1, -(0x1p52 - 0.5), 0x1p53 + 2]
        for k in -60...60 {
            let half = Double(k) + 0.5
            values += [half, half.nextDown, half.nextUp]
        }
        for value in values {
            #expect(DecimalText.parse(text(value, precision: 0)) == value.rounded(), "\(value)")
            #expect(DecimalText.parse(text(value / 1000, precision: 3)) == (value / 1000 * 1000).rounded() / 1000)
        }
    }

    @Test func aRoundedNumberIsTheShortestFormOfTheRounding() {
        var random = SeededRandom(state: 17)
        for _ in 0..<20_000 {
            let precision = Int.random(in: 0...9, using: &random)
            let value =
                Double.random(in: -1e5...1e5, using: &random) / [1, 7, 1e3][Int.random(in: 0..<3, using: &random)]
            let scale = [1.0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9][precision]
            let rounded = (value * scale).rounded() / scale
            let written = text(value, precision: precision)
            #expect(DecimalText.parse(written) == rounded, "\(value) at \(precision): \(written)")
            guard abs(rounded) >= 1e-4, !rounded.description.contains("e") else { continue }
            let shortest =
                rounded.description.hasSuffix(".0") ? String(rounded.description.dropLast(2)) : rounded.description
            #expect(written == shortest, "\(value) at \(precision): \(written), not \(shortest)")
        }
    }
}
