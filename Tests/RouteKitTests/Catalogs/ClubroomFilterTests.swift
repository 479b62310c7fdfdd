import RouteKit
import Testing

@Suite struct ClubroomFilterTests {
    static let vlci = ScoutUnit(name: "Vlci", registrationNumber: "621.03.01", isWater: false)
    static let racek = ScoutUnit(name: "Racek", registrationNumber: "621.04.02", isWater: true)

    /// A clubroom of two units: Vlci on Monday (boys 7–11, girls 12–15) and Wednesday (no categories),
    /// Racek on Saturday (mixed 10–15).
    static var room: Clubroom {
        var room = Clubroom(id: "1", name: "Lužánky", coordinate: Coordinate(latitude: 49.2, longitude: 16.6))
        room.units = [vlci, racek]
        room.meetings = [
            Meeting(
                id: "m1", unit: vlci, weekday: .monday,
                categories: [
                    AdvertisingCategory(ageFrom: 7, ageTo: 11, sex: .boys),
                    AdvertisingCategory(ageFrom: 12, ageTo: 15, sex: .girls),
                ]),
            Meeting(id: "m2", unit: vlci, weekday: .wednesday),
            Meeting(
                id: "m3", unit: racek, weekday: .saturday,
                categories: [AdvertisingCategory(ageFrom: 10, ageTo: 15, sex: .mixed)]),
        ]
        return room
    }

    func kept(_ filter: ClubroomFilter) -> [String]? {
        filter.apply(to: Self.room)?.meetings.compactMap(\.id)
    }

    @Test func anEmptyFilterKeepsEverything() {
        #expect(ClubroomFilter().isEmpty)
        #expect(ClubroomFilter().apply(to: Self.room) == Self.room)
    }

    @Test func age() {
        #expect(kept(ClubroomFilter(age: 8)) == ["m1", "m2"])  // m2 has no ages: it matches
        #expect(kept(ClubroomFilter(age: 13)) == ["m1", "m2", "m3"])
        #expect(kept(ClubroomFilter(age: 16)) == ["m2"])
        // Only the categories that hold the age are kept.
        #expect(ClubroomFilter(age: 8).apply(to: Self.room)?.meetings[0].categories.map(\.ageFrom) == [7])
        #expect(AdvertisingCategory(ageFrom: 10).admits(age: 99) && !AdvertisingCategory(ageTo: 10).admits(age: 11))
    }

    @Test func day() {
        #expect(kept(ClubroomFilter(weekday: .monday)) == ["m1"])
        #expect(kept(ClubroomFilter(weekday: .saturday)) == ["m3"])
        #expect(ClubroomFilter(weekday: .sunday).apply(to: Self.room) == nil)
        var unknownDay = Self.room
        unknownDay.meetings = [Meeting(id: "x", unit: Self.vlci)]
        #expect(ClubroomFilter(weekday: .monday).apply(to: unknownDay) == nil)
    }

    @Test func sex() {
        #expect(kept(ClubroomFilter(sex: .boys)) == ["m1", "m2", "m3"])
        #expect(ClubroomFilter(sex: .girls).apply(to: Self.room)?.meetings[0].categories.map(\.sex) == [.girls])
        var boysOnly = Self.room
        boysOnly.meetings = [Self.room.meetings[0]]
        boysOnly.meetings[0].categories.removeLast()
        #expect(ClubroomFilter(sex: .girls).apply(to: boysOnly) == nil)
        #expect(ClubroomFilter(sex: .boys).apply(to: boysOnly) != nil)
    }

    @Test func water() {
        let kept = ClubroomFilter(waterOnly: true).apply(to: Self.room)
        #expect(kept?.meetings.compactMap(\.id) == ["m3"])
        #expect(kept?.units == [Self.racek])
        var dry = Self.room
        dry.units = [Self.vlci]
        dry.meetings.removeLast()
        #expect(ClubroomFilter(waterOnly: true).apply(to: dry) == nil)
    }

    @Test func unit() {
        let kept = ClubroomFilter(unit: "621.03").apply(to: Self.room)
        #expect(kept?.units == [Self.vlci])
        #expect(kept?.meetings.compactMap(\.id) == ["m1", "m2"])
        #expect(ClubroomFilter(unit: "621.031").apply(to: Self.room) == nil)
        // A clubroom without meetings still passes a unit-only filter.
        var bare = Self.room
        bare.meetings = []
        #expect(ClubroomFilter(unit: "621.04").apply(to: bare)?.units == [Self.racek])
        #expect(ClubroomFilter(unit: "621.04", age: 12).apply(to: bare) == nil)
    }

    @Test func allCriteriaMustHoldInOneCategoryOfOneMeeting() {
        // Girls of 8: Monday has boys 7–11 and girls 12–15, neither fits both; Wednesday has no categories.
        #expect(kept(ClubroomFilter(age: 8, sex: .girls)) == ["m2"])
        #expect(kept(ClubroomFilter(age: 8, weekday: .monday, sex: .girls)) == nil)
        #expect(kept(ClubroomFilter(age: 12, weekday: .monday, sex: .girls)) == ["m1"])
        #expect(
            kept(ClubroomFilter(unit: "621.04", age: 12, weekday: .saturday, sex: .girls, waterOnly: true)) == ["m3"])
        #expect(kept(ClubroomFilter(unit: "621.03", waterOnly: true)) == nil)
        let both = ClubroomFilter(age: 13, weekday: .saturday).apply(to: Self.room)
        #expect(both?.units == [Self.racek])
        #expect(ClubroomFilter(age: 13).apply(to: [Self.room, Self.room]).count == 2)
    }

    @Test func aClubroomNamedAfterAUnitThatDidNotPassTakesTheNameOfOneThatDid() {
        var room = Self.room
        room.name = "Vlci"  // as catalogs name a clubroom: after its first unit
        #expect(ClubroomFilter(weekday: .saturday).apply(to: room)?.name == "Racek")
        #expect(ClubroomFilter(weekday: .monday).apply(to: room)?.name == "Vlci")
        #expect(ClubroomFilter(waterOnly: true).apply(to: room)?.name == "Racek")
        // A clubroom with a name of its own keeps it.
        #expect(ClubroomFilter(weekday: .saturday).apply(to: Self.room)?.name == "Lužánky")
    }
}
