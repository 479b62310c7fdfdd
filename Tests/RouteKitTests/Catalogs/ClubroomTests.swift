import RouteKit
import Testing

@Suite struct ClubroomTests {
    @Test(arguments: [
        ("621", true), ("621.03", true), ("621.03.01", true), ("62", false), ("621.0", false), ("621.03.01.7", false),
        ("621.031", false),
    ])
    func aUnitBelongsToItselfAndItsParentsAtADotBoundary(number: String, belongs: Bool) {
        // DESIGN.md: "a unit and its child units" is a prefix match at a dot boundary.
        #expect(ScoutUnit(name: "2. oddíl", registrationNumber: "621.03.01").belongs(to: number) == belongs)
        #expect(!ScoutUnit(name: "no number").belongs(to: "621"))
    }

    @Test(arguments: [
        ("male", Sex.boys), ("Chlapci", .boys), ("KLUCI", .boys), ("female", .girls), ("dívky", .girls),
        ("Holky", .girls),
        ("mixed", .mixed), ("koedukovaný", .mixed), ("", .mixed), (" female ", .girls),
    ])
    func readsSexCodesInAnyCase(code: String, sex: Sex) {
        #expect(Sex(code: code) == sex)
        #expect(Sex(code: sex.code) == sex)
    }

    @Test func anAgeFitsWithinTheCategorysBoundsInclusive() {
        let cubs = AdvertisingCategory(ageFrom: 7, ageTo: 10)
        #expect([6, 7, 10, 11].map(cubs.admits(age:)) == [false, true, true, false])
        #expect(AdvertisingCategory().admits(age: 0) && AdvertisingCategory().admits(age: 150))
    }

    @Test func meetingTimesAreShownAsARangeOrWhatIsKnown() throws {
        let from = MeetingTime("16:30"), to = MeetingTime("18:00")
        #expect(Meeting(timeFrom: from, timeTo: to).times == "16:30–18:00")
        #expect(Meeting(timeFrom: from).times == "16:30")
        #expect(Meeting(timeTo: to).times == "–18:00")
        #expect(Meeting().times == nil)
        #expect(Meeting(timeFrom: MeetingTime("po škole")).times == "po škole")
        #expect(Meeting(weekday: Weekday.tuesday).dayName == "úterý")
        #expect(Meeting(weekday: Weekday.tuesday, weekdayName: "Úterý").dayName == "Úterý")
        #expect(Meeting(unit: ScoutUnit(name: "Vodní", isWater: true)).isWater && !Meeting().isWater)
    }

    @Test func theAddressIsStreetPostcodeAndCityAsFarAsKnown() {
        var room = Clubroom(id: "1", name: "Klubovna", coordinate: Coordinate(latitude: 49.2, longitude: 16.6))
        #expect(room.address == "")
        room.city = "Brno"
        #expect(room.address == "Brno")
        room.postcode = "602 00"
        #expect(room.address == "602 00 Brno")
        room.street = "Lidická 50"
        #expect(room.address == "Lidická 50, 602 00 Brno")
        room.city = nil
        room.postcode = nil
        #expect(room.address == "Lidická 50")
        #expect(!room.isWater)
        room.units = [ScoutUnit(name: "a", isWater: false), ScoutUnit(name: "b", isWater: true)]
        #expect(room.isWater)
    }
}
