/// A control point as the route's list (`kt.json`) describes it: its number, name, address and where the
/// stamp is. The list has no coordinates; those come from the waypoints of `KT.gpx`.
public struct ControlPointEntry: Hashable, Sendable {
    /// The number along the route (`zapSt`, written as a string or a number).
    public var number: Int?
    /// The name (`naziv`).
    public var name: String
    /// The postal address (`naslov`), when the list gives one.
    public var address: String?
    /// Where the stamp is (`zig`).
    public var stamp: String?

    /// An entry of the list; nil where the list says nothing.
    public init(number: Int? = nil, name: String, address: String? = nil, stamp: String? = nil) {
        self.number = number
        self.name = name
        self.address = address
        self.stamp = stamp
    }
}

/// Reading `kt.json` and pairing its entries with the waypoints of `KT.gpx`.
///
/// The two files are kept apart by the route's publisher and do not agree exactly: the real list has 111
/// entries for 109 waypoints, and names differ in spelling ("Sv. Jakob nad Medvodami" and "Sveti Jakob nad
/// Medvodami", "Dom Franca Goloba na Čem. planini" and "… na Čemšeniški planini"). Both are in route
/// order, so they are paired by an alignment that keeps that order (as `diff` does with lines), scoring
/// each pair by how alike the names are; names too unlike are never paired. What is left unpaired in the
/// alignment is then paired by equal names, in any order.
enum ControlPointList {
    /// The entries of a `kt.json` array; items without a name are counted in `skipped`.
    static func entries(_ items: [JSONValue]) -> (entries: [ControlPointEntry], skipped: Int) {
        var entries: [ControlPointEntry] = []
        var skipped = 0
        for item in items {
            guard let name = text(item["naziv"]) ?? text(item["name"]) else {
                skipped += 1
                continue
            }
            let number = text(item["zapSt"]).flatMap { Int($0) }
            // An address may come in lines ("Javni zavod Bogenšperk\nBogenšperk 5\n1275 Šmartno pri Litiji").
            let address = text(item["naslov"]).map {
                $0.split(whereSeparator: \.isNewline).map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }.joined(
                    separator: ", ")
            }
            entries.append(ControlPointEntry(number: number, name: name, address: address, stamp: text(item["zig"])))
        }
        return (entries, skipped)
    }

    /// A string or a whole number as trimmed text; nil when absent or empty.
    private static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let s)?:
            let t = s.trimmingSpaces()
            return t.isEmpty ? nil : t
        case .number(let n)? where n.rounded() == n && abs(n) < 1e15: return String(Int(n))
        default: return nil
        }
    }

    /// For each of `names` (the waypoints, in file order), the index of its entry in `entries`, or nil.
    static func match(_ names: [String], to entries: [ControlPointEntry]) -> [Int?] {
        let a = names.map(NameTokens.init)
        let b = entries.map { NameTokens($0.name) }
        var result = [Int?](repeating: nil, count: a.count)
        // Minimum likeness for a pair: "Muzej Mežica" and "Rudnik Mežica" (0.5) are one place, two names
        // sharing only "koča na" are not.
        let threshold = 0.3
        if a.count * b.count <= 4_000_000 {
            // score[i][j]: the best total of (likeness − threshold) over pairings of a[i...] and b[j...].
            let width = b.count + 1
            var score = [Double](repeating: 0, count: (a.count + 1) * width)
            var likeness = [Double](repeating: 0, count: a.count * b.count)
            for i in stride(from: a.count - 1, through: 0, by: -1) {
                for j in stride(from: b.count - 1, through: 0, by: -1) {
                    let l = a[i].likeness(b[j])
                    likeness[i * b.count + j] = l
                    var best = max(score[(i + 1) * width + j], score[i * width + j + 1])
                    if l >= threshold { best = max(best, score[(i + 1) * width + j + 1] + l - threshold) }
                    score[i * width + j] = best
                }
            }
            var (i, j) = (0, 0)
            while i < a.count && j < b.count {
                let l = likeness[i * b.count + j]
                if l >= threshold && score[i * width + j] == score[(i + 1) * width + j + 1] + l - threshold {
                    result[i] = j
                    i += 1
                    j += 1
                } else if score[i * width + j] == score[(i + 1) * width + j] {
                    i += 1
                } else {
                    j += 1
                }
            }
        }
        // Equal names left over, in any order: each name's unpaired entries, first first.
        let used = Set(result.compactMap { $0 })
        var unpaired: [[String]: [Int]] = [:]
        for j in b.indices.reversed() where !used.contains(j) && !b[j].words.isEmpty {
            unpaired[b[j].words, default: []].append(j)
        }
        for i in a.indices where result[i] == nil {
            result[i] = unpaired[a[i].words]?.popLast()
        }
        return result
    }
}

/// A place name as words for comparing: lower case, without diacritics, split at anything not a letter or digit.
struct NameTokens {
    let words: [String]

    init(_ name: String) {
        var words: [String] = []
        var word = ""
        for c in name.lowercased() {
            let folded = NameTokens.folding[c] ?? c
            if folded.isLetter || folded.isNumber {
                word.append(folded)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        self.words = words
    }

    /// How alike two names are, 0 to 1: each word scores its best match in the other name (1 when equal, 0.8
    /// when one abbreviates the other, as "sv" does "sveti", 0.6 when they share a stem of at least three letters
    /// and three fifths of the shorter, as "kamnem" and "kamen"), and the scores of both names are averaged
    /// over all their words.
    func likeness(_ other: NameTokens) -> Double {
        guard !words.isEmpty, !other.words.isEmpty else { return 0 }
        func best(_ w: String, in list: [String]) -> Double {
            list.reduce(0) { max($0, NameTokens.wordLikeness(w, $1)) }
        }
        let total =
            words.reduce(0) { $0 + best($1, in: other.words) } + other.words.reduce(0) { $0 + best($1, in: words) }
        return total / Double(words.count + other.words.count)
    }

    static func wordLikeness(_ a: String, _ b: String) -> Double {
        if a == b { return 1 }
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        if short.count >= 2 && long.hasPrefix(short) { return 0.8 }
        let common = zip(short, long).prefix { $0 == $1 }.count
        if common >= 3 && Double(common) >= 0.6 * Double(short.count) { return 0.6 }
        return 0
    }

    /// Letters with diacritics of the Latin alphabets of central Europe, to their base letter.
    private static let folding: [Character: Character] = {
        let groups = [
            "aáàâäãåāăą", "cçćĉċč", "dďđ", "eéèêëēĕėęě", "gĝğġģ", "hĥħ", "iíìîïĩīĭįı", "jĵ", "kķ", "lĺļľŀł",
            "nñńņňŉ", "oóòôöõøōŏő", "rŕŗř", "sśŝşšß", "tţťŧ", "uúùûüũūŭůűų", "wŵ", "yýÿŷ", "zźżž",
        ]
        var table: [Character: Character] = [:]
        for group in groups {
            guard let base = group.first else { continue }
            for c in group.dropFirst() { table[c] = base }
        }
        return table
    }()
}
