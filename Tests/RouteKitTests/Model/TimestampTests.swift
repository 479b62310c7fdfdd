import RouteKit
import Testing

@Suite struct TimestampTests {
    @Test(arguments: [
        "2012-10-24T23:29:40.000Z", "2007-11-25T17:58:00+01:00", "2026-07-04T09:00:01.5+02:00",
        "2001-06-24T15:09:09Z", "1999-12-31T23:59:60Z", "2020-02-29T12:00:00-0330", "2020-02-29T12:00:00+05",
        "2020-02-29T12:00:00", "1969-07-20T20:17:40.123456789Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
    ])
    func writesBackExactlyWhatItRead(text: String) throws {
        let time = try #require(Timestamp(text))
        #expect(time.description == text)
    }

    @Test(arguments: [
        "", "2021-13-45T25:61:00Z", "2021-02-29T00:00:00Z", "2021-04-31T00:00:00Z", "2021-01-01T24:00:00Z",
        "2021-01-01", "2021-01-01T00:00Z", "2021-01-01T00:00:00.Z", "2021-01-01T00:00:00+25:00",
        "2021-01-01T00:00:00ZZ", "yesterday", "2021-1-01T00:00:00Z", "2013/05-26 20:14:56+00", "2013-05/26 20:14:56",
        "2013/13/26 20:14:56+00",
    ])
    func refusesWhatIsNotADateAndTime(text: String) {
        #expect(Timestamp(text) == nil)
    }

    @Test func computesTheInstant() throws {
        // Published reference: 2001-09-09T01:46:40Z is 1,000,000,000 s after the epoch.
        #expect(Timestamp("2001-09-09T01:46:40Z")?.secondsSinceEpoch == 1_000_000_000)
        #expect(Timestamp("2001-09-09T03:46:40+02:00")?.secondsSinceEpoch == 1_000_000_000)
        #expect(Timestamp("1969-12-31T23:59:59Z")?.secondsSinceEpoch == -1)
        #expect(Timestamp("2000-03-01T00:00:00Z")?.secondsSinceEpoch == 951_868_800)
        let a = try #require(Timestamp("2026-07-04T07:00:00.250Z"))
        let b = try #require(Timestamp("2026-07-04T09:00:01.5+02:00"))
        #expect(a < b)
        #expect(a.seconds(to: b) == 1.25)
    }

    @Test func acceptsLowercaseSeparatorsAndSpacesAndWritesTheCanonicalForm() {
        #expect(Timestamp("2020-05-01 10:00:00z")?.description == "2020-05-01T10:00:00Z")
        #expect(Timestamp(" 2020-05-01t10:00:00,5Z\n")?.description == "2020-05-01T10:00:00.5Z")
    }

    @Test func readsTheFormGDALWritesAndWritesISO8601() throws {
        // ogr2ogr writes GeoJSON times as "2013/05/26 20:14:56+00" (+00 is UTC).
        let utc = try #require(Timestamp("2013/05/26 20:14:56+00"))
        #expect(utc.description == "2013-05-26T20:14:56Z")
        #expect(utc == Timestamp("2013-05-26T20:14:56Z"))
        #expect(Timestamp("2013/05/26 22:14:56.25+02")?.description == "2013-05-26T22:14:56.25+02:00")
        #expect(Timestamp("2013/05/26 22:14:56+02")?.secondsSinceEpoch == utc.secondsSinceEpoch)
        #expect(Timestamp("2013/05/26 20:14:56")?.description == "2013-05-26T20:14:56")
        #expect(Timestamp("2013/05/26 20:14:56+0530")?.description == "2013-05-26T20:14:56+05:30")
    }

    @Test func roundTripsEveryDayOfFourHundredYears() {
        // The calendar functions against each other over a whole Gregorian cycle.
        var days = Timestamp("1800-01-01T00:00:00Z")!.secondsSinceEpoch / 86_400
        for _ in 0..<146_097 {
            let t = Timestamp(secondsSinceEpoch: days * 86_400)
            #expect(Timestamp(t.description)?.secondsSinceEpoch == days * 86_400)
            days += 1
        }
    }
}
