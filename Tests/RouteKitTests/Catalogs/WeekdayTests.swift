import RouteKit
import Testing

@Suite struct WeekdayTests {
    @Test(arguments: [
        ("Po", Weekday.monday), ("Ut", .tuesday), ("Út", .tuesday), ("St", .wednesday), ("Ct", .thursday),
        ("Čt", .thursday),
        ("ČT", .thursday), ("Pa", .friday), ("Pá", .friday), ("So", .saturday), ("Ne", .sunday), ("ne", .sunday),
        ("pondělí", .monday), ("úterý", .tuesday), ("Středa", .wednesday), ("čtvrtek", .thursday),
        ("pátek", .friday),
        ("sobota", .saturday), ("neděle", .sunday), ("pondeli", .monday), ("UTERY", .tuesday), ("nedele", .sunday),
        ("u\u{301}tery\u{301}", .tuesday),  // decomposed diacritics
        ("Monday", .monday), ("mon", .monday), ("TUE", .tuesday), ("tues", .tuesday), ("wed", .wednesday),
        ("Thursday", .thursday), ("thu", .thursday), ("thurs", .thursday), ("fri", .friday), ("sat", .saturday),
        ("sun", .sunday), (" Sunday ", .sunday), ("1", .monday), ("4", .thursday), ("7", .sunday),
    ])
    func readsCodesNamesAndNumbers(text: String, day: Weekday) {
        #expect(Weekday(parsing: text) == day, "\(text)")
    }

    @Test(arguments: ["", "xx", "0", "8", "-1", "mond", "pon", "čtvrtekk", "Thursdays", "1.0"])
    func refusesOthers(text: String) {
        #expect(Weekday(parsing: text) == nil, "\(text)")
    }

    @Test func namesEachDay() {
        let czechNames = ["pondělí", "úterý", "středa", "čtvrtek", "pátek", "sobota", "neděle"]
        #expect(Weekday.allCases.map(\.czechName) == czechNames)
        #expect(Weekday.allCases.map(\.code) == ["Po", "Ut", "St", "Ct", "Pa", "So", "Ne"])
        #expect(Weekday.allCases.allSatisfy { Weekday(parsing: $0.czechName) == $0 && Weekday(parsing: $0.code) == $0 })
        #expect(
            Weekday.allCases.allSatisfy {
                Weekday(parsing: $0.englishName) == $0 && Weekday(parsing: "\($0.rawValue)") == $0
            })
        #expect(Weekday.monday < Weekday.sunday)
    }
}

@Suite struct SexTests {
    @Test(arguments: [
        ("male", Sex.boys), ("MALE", .boys), ("boys", .boys), ("chlapci", .boys), ("female", .girls),
        ("Female", .girls),
        ("girls", .girls), ("dívky", .girls), ("mixed", .mixed), ("both", .mixed), ("koedukovaný", .mixed),
        ("", .mixed),
        ("x", .mixed),
    ])
    func readsCodes(code: String, sex: Sex) {
        #expect(Sex(code: code) == sex, "\(code)")
    }

    @Test func aMixedCategoryTakesEveryone() {
        #expect(Sex.mixed.admits(.boys) && Sex.mixed.admits(.girls))
        #expect(Sex.boys.admits(.boys) && !Sex.boys.admits(.girls))
        #expect(Sex.girls.admits(.girls) && !Sex.girls.admits(.boys))
        #expect(Sex.allCases.map(\.code) == ["male", "female", "mixed"])
    }
}
