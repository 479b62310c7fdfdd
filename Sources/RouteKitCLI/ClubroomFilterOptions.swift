import RouteKit

/// The options that choose clubrooms (`--unit`, `--age`, `--day`, `--sex`, `--water`), read the same way by
/// `near`, `map` and `stages` into a ``ClubroomFilter``.
enum ClubroomFilterOptions {
    /// Their lines in a command's `--help`, indented as the other options.
    static let help = """
          --unit NUMBER         Only clubrooms of this unit and its child units (registration number
                                621.03 covers 621.03.01, not 621.031).
          --age YEARS           Only meetings for a child of this age (a meeting without ages matches).
          --day DAY             Only meetings on this day: mon … sun, monday … sunday, or Czech po, út,
                                st, čt, pá, so, ne (any case, with or without diacritics).
          --sex boys|girls      Only meetings for boys (or girls), or mixed ones (male, female also do).
          --water               Only water scouts.
                                A clubroom is listed when one of its meetings passes all of these; it
                                is shown with only the meetings that pass.
        """

    static let dayForms = "mon, tue, wed, thu, fri, sat, sun (or monday … sunday), or Czech po, út, st, čt, pá, so, ne"

    /// Reads the option `name` into `filter` when it is one of these; false when it is another option.
    static func take(_ name: String, inline: String?, from arguments: inout Arguments, into filter: inout ClubroomFilter) throws -> Bool {
        switch name {
        case "--unit":
            let value = try arguments.value(for: name, inline: inline).trimmingSpaces()
            guard !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber || $0 == "." }), !value.hasSuffix("."),
                !value.hasPrefix("."), !value.contains("..")
            else {
                throw CLIError.usage("--unit takes a registration number like 621 or 621.03, not '\(value)'")
            }
            filter.unit = value
        case "--age":
            let value = try arguments.value(for: name, inline: inline)
            guard let years = Int(value.trimmingSpaces()), (0...150).contains(years) else {
                throw CLIError.usage("--age takes an age in whole years, 0 to 150, for example --age 9, not '\(value)'")
            }
            filter.age = years
        case "--day":
            let value = try arguments.value(for: name, inline: inline)
            guard let day = Weekday(parsing: value) else {
                throw CLIError.usage("--day takes a day of the week: \(dayForms); not '\(value)'")
            }
            filter.weekday = day
        case "--sex":
            let value = try arguments.value(for: name, inline: inline)
            switch value.trimmingSpaces().lowercased() {
            case "boys", "male": filter.sex = .boys
            case "girls", "female": filter.sex = .girls
            default: throw CLIError.usage("--sex takes boys or girls (or male, female), not '\(value)'")
            }
        case "--water":
            filter.waterOnly = true
        default:
            return false
        }
        return true
    }
}
