import RouteKit
import Testing

@Suite struct TimeOfDayTests {
    @Test(arguments: [
        ("PT16H30M", "16:30"), ("PT18H", "18:00"), ("PT9H5M", "09:05"), ("PT16H30M0S", "16:30"),
        ("PT16H30M59.5S", "16:30"),
        ("PT990M", "16:30"), ("P0DT7H", "07:00"), ("pt16h30m", "16:30"), (" PT24H ", "24:00"), ("PT0S", "00:00"),
        ("16:30", "16:30"), ("9:05", "09:05"), ("16:30:00", "16:30"), ("16:30:00.000", "16:30"),
        ("16:30:00+01:00", "16:30"),
        ("16:30Z", "16:30"), ("0001-01-01T16:30:00", "16:30"), ("0001-01-01T09:05:00", "09:05"),
        ("2024-09-03T18:00:00Z", "18:00"),
        ("24:00", "24:00"),
    ])
    func readsTheFormsCatalogsWrite(text: String, shown: String) {
        #expect(TimeOfDay(parsing: text)?.description == shown, "\(text)")
    }

    @Test(arguments: [
        "", " ", "PT", "P", "T16H", "PT16", "PT16H30", "-PT5H", "PT-5H", "PT25H", "PT24H1M", "P1DT2H", "PT1441M",
        "PT99999999999999999999H", "PT1e9H", "PT16H30M0", "PT16H30MX", "16", "16:3", "16:300", "25:00", "24:30",
        "16:60",
        "-16:30", "16:30:61", "16:30:00garbage", "99999999999999999999:00", "0001-01-01", "0001-01-01T",
        "0001-01-01T25:00",
        "x0001-01-01T16:30", "16.30", "16h30", "16:30-18:00", "16:30+01:00", "\u{0}", "PT\u{0}H",
        "úterý", "NaN", "∞",
    ])
    func refusesAnythingElseWithoutCrashing(text: String) {
        #expect(TimeOfDay(parsing: text) == nil, "\(text)")
        #expect(MeetingTime(text) == .unreadable(text))
        #expect(MeetingTime(text).description == text)
    }

    @Test func aRandomTextNeverCrashesTheParser() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("PTHMSD0123456789:.-+Z ,T\u{0}é")
        for _ in 0..<20_000 {
            let text = String(
                (0..<Int.random(in: 0...14, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            if let time = TimeOfDay(parsing: text) {
                #expect((0...1440).contains(time.minutesSinceMidnight), "\(text)")
            }
        }
    }

    @Test func ordersAndBoundsTimes() throws {
        let a = try #require(TimeOfDay(hours: 9, minutes: 5))
        let b = try #require(TimeOfDay(parsing: "PT16H30M"))
        #expect(a < b)
        #expect(b.minutesSinceMidnight == 990)
        #expect(TimeOfDay(hours: 24, minutes: 1) == nil)
        #expect(TimeOfDay(minutesSinceMidnight: -1) == nil)
        #expect(TimeOfDay(minutesSinceMidnight: 1441) == nil)
        #expect(MeetingTime("PT18H").timeOfDay == TimeOfDay(hours: 18, minutes: 0))
    }
}
