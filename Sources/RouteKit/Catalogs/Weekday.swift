/// A day of the week, numbered as ISO 8601 does (Monday 1 … Sunday 7).
public enum Weekday: Int, CaseIterable, Comparable, Sendable {
    case monday = 1
    case tuesday, wednesday, thursday, friday, saturday, sunday

    /// Reads a day as catalogs and people write it, in any case, with or without diacritics:
    /// the SkautIS code (`Po Ut St Ct Pa So Ne`, also `Út Čt Pá`), the Czech name (`pondělí` … `neděle`,
    /// `utery`), the English name or abbreviation (`Monday`, `mon`, `tue`, `tues`, `thu`, `thurs`, `mo` … `su`)
    /// or the ISO number (`1` … `7`).
    ///
    /// - Returns: nil for anything else.
    public init?(parsing text: String) {
        let key = Weekday.folded(text.trimmingSpaces())
        guard let day = Weekday.byName[key] else { return nil }
        self = day
    }

    /// The Czech name, as SkautIS writes it: `pondělí` … `neděle`.
    public var czechName: String {
        ["pondělí", "úterý", "středa", "čtvrtek", "pátek", "sobota", "neděle"][rawValue - 1]
    }

    /// The SkautIS code (`MeetingDate_ID_WeekDay`): `Po` … `Ne`.
    public var code: String { ["Po", "Ut", "St", "Ct", "Pa", "So", "Ne"][rawValue - 1] }

    /// The English name: `Monday` … `Sunday`.
    public var englishName: String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][rawValue - 1]
    }

    /// Monday first.
    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }

    private static let byName: [String: Weekday] = {
        var table: [String: Weekday] = [:]
        let names: [[String]] = [
            ["po", "pondeli", "mon", "monday", "mo"], ["ut", "utery", "tue", "tues", "tuesday", "tu"],
            ["st", "streda", "wed", "wednesday", "we"], ["ct", "ctvrtek", "thu", "thur", "thurs", "thursday", "th"],
            ["pa", "patek", "fri", "friday", "fr"], ["so", "sobota", "sat", "saturday", "sa"],
            ["ne", "nedele", "sun", "sunday", "su"],
        ]
        for (i, words) in names.enumerated() {
            let day = Weekday(rawValue: i + 1) ?? .monday
            table["\(i + 1)"] = day
            for w in words { table[w] = day }
        }
        return table
    }()

    /// Lower case without Czech diacritics (precomposed or combining), for comparing names.
    static func folded(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            if (0x300...0x36F).contains(scalar.value) { continue }  // combining marks
            switch scalar {
            case "á", "ä": out.append("a")
            case "č": out.append("c")
            case "ď": out.append("d")
            case "é", "ě": out.append("e")
            case "í": out.append("i")
            case "ň": out.append("n")
            case "ó", "ö": out.append("o")
            case "ř": out.append("r")
            case "š": out.append("s")
            case "ť": out.append("t")
            case "ú", "ů", "ü": out.append("u")
            case "ý": out.append("y")
            case "ž": out.append("z")
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
