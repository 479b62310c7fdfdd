import RouteKit

/// The options that choose clubrooms (`--unit`, `--age`, `--day`, `--sex`, `--water`), in the option tables
/// of `near`, `map` and `stages` alike, read into a ``ClubroomFilter``.
enum ClubroomFilterOptions {
    static let dayForms = "mon, tue, wed, thu, fri, sat, sun (or monday … sunday), or Czech po, út, st, čt, pá, so, ne"

    /// The filter's options for a command that keeps its filter at `key`.
    static func options<Target>(_ key: WritableKeyPath<Target, ClubroomFilter>) -> [Option<Target>] {
        filterOptions.map { $0.lifted(key) }
    }

    /// The options, reading into the filter itself.
    static var filterOptions: [Option<ClubroomFilter>] {
        [
            .value(
                "--unit", name: "NUMBER",
                help: """
                    Only clubrooms of this unit and its child units (registration number
                    621.03 covers 621.03.01, not 621.031).
                    """,
                parse: unit, into: \.unit),
            .value(
                "--age", name: "YEARS", help: "Only meetings for a child of this age (a meeting without ages matches).",
                parse: { text, _ in
                    guard let years = Int(text.trimmingSpaces()), (0...150).contains(years) else {
                        throw CLIError.usage(
                            "--age takes an age in whole years, 0 to 150, for example --age 9, not '\(text)'")
                    }
                    return years
                }, into: \.age),
            .value(
                "--day", name: "DAY",
                help: """
                    Only meetings on this day: mon … sun, monday … sunday, or Czech po, út,
                    st, čt, pá, so, ne (any case, with or without diacritics).
                    """,
                parse: { text, _ in
                    guard let day = Weekday(parsing: text) else {
                        throw CLIError.usage("--day takes a day of the week: \(dayForms); not '\(text)'")
                    }
                    return day
                }, into: \.weekday),
            .value(
                "--sex", name: "boys|girls",
                help: "Only meetings for boys (or girls), or mixed ones (male, female also do).",
                parse: { text, _ in
                    switch text.trimmingSpaces().lowercased() {
                    case "boys", "male": return Sex.boys
                    case "girls", "female": return Sex.girls
                    default: throw CLIError.usage("--sex takes boys or girls (or male, female), not '\(text)'")
                    }
                }, into: \.sex),
            .flag(
                "--water",
                help: """
                    Only water scouts.
                    A clubroom is listed when one of its meetings passes all of these; it
                    is shown with only the meetings that pass.
                    """,
                sets: \.waterOnly),
        ]
    }

    /// A registration number: digits in groups separated by single dots (`621`, `621.03`).
    static func unit(_ text: String, _ option: String) throws -> String {
        let value = text.trimmingSpaces()
        guard !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber || $0 == "." }), !value.hasSuffix("."),
            !value.hasPrefix("."), !value.contains("..")
        else {
            throw CLIError.usage("\(option) takes a registration number like 621 or 621.03, not '\(value)'")
        }
        return value
    }
}
