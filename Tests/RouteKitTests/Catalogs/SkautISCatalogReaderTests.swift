import Foundation
import RouteKit
import Testing

/// The SkautIS AdvertisingSummary response in the shape the service sends: 29 fields, xsi:nil, times as XML
/// durations, weekday and sex codes, one record per unit × meeting × category.
@Suite struct SkautISCatalogReaderTests {
    static func catalog(_ name: String) throws -> ClubroomCatalog {
        try ClubroomCatalog.read(paths: [Fixture.path(name)])
    }

    @Test func groupsRecordsByRealtyThenMeetingThenCategory() throws {
        let catalog = try Self.catalog("skautis-advertising-summary.xml")
        #expect(catalog.recordCount == 6)
        #expect(catalog.clubrooms.map(\.id) == ["401", "402"])
        let room = catalog.clubrooms[0]
        // Four records: two meetings × two categories; each meeting once, with both of its categories.
        #expect(room.meetings.map(\.id) == ["8101", "8102"])
        #expect(room.meetings.map { $0.categories.map(\.id) } == [["9101", "9102"], ["9103", "9104"]])
        #expect(room.units.count == 1)
        let tuesday = room.meetings[0]
        #expect(tuesday.weekday == .tuesday && tuesday.weekdayName == "úterý" && tuesday.dayName == "úterý")
        #expect(tuesday.timeFrom == .time(TimeOfDay(hours: 16, minutes: 30)!))
        #expect(tuesday.times == "16:30–18:00")
        #expect(tuesday.periodicity == "každý týden")
        #expect(
            tuesday.categories[0]
                == AdvertisingCategory(
                    id: "9101", ageFrom: 7, ageTo: 11, sex: .boys, sexName: "chlapci", note: "vlčata"))
        #expect(tuesday.categories[1].sex == .girls)
        #expect(room.meetings[1].times == "17:00–18:30")
        #expect(room.meetings[1].categories[1].sex == .mixed && room.meetings[1].categories[1].note == nil)
        #expect(room.type == "klubovna" && room.note == "Vchod z parku, zvonek Junák" && room.occupationNote == nil)
        #expect(room.address == "Lidická 50, 602 00 Brno")
        let unit = try #require(room.units.first)
        #expect(
            unit
                == ScoutUnit(
                    id: "24871", name: "1. oddíl Kamzíci", registrationNumber: "621.05.01", isWater: false,
                    advertisingNote: "Nábor nových členů každé září, přijďte se podívat na schůzku."))
        #expect(!room.isWater)
    }

    @Test func readsWaterScoutsDateTimeTimesAndNilFields() throws {
        let room = try Self.catalog("skautis-advertising-summary.xml").clubrooms[1]
        #expect(room.isWater)
        #expect(room.units.first?.isWater == true && room.units.first?.advertisingNote == nil)
        #expect(room.description == nil && room.note == nil && room.occupationNote == "Loděnice u jezu")
        let meeting = try #require(room.meetings.first)
        #expect(meeting.isWater && meeting.weekday == .saturday)
        #expect(meeting.times == "09:05–12:00")
    }

    @Test func countsRecordsWithoutCoordinates() throws {
        let catalog = try Self.catalog("skautis-advertising-summary.xml")
        #expect(catalog.skipped.count == 1)
        #expect(catalog.skipped.first?.reason == "no coordinates")
        #expect(catalog.skipped.first?.line == 161)
    }

    @Test func readsAOneRecordResponseWithPrefixedNamesEmptyAndNilElements() throws {
        let catalog = try Self.catalog("skautis-one-record.xml")
        #expect(catalog.recordCount == 1)
        let room = try #require(catalog.clubrooms.first)
        #expect(room.id == "402" && room.coordinate == Coordinate(latitude: 49.1803, longitude: 16.6227))
        #expect(room.units.first?.advertisingNote == nil)  // an empty element
        #expect(room.description == nil)  // i:nil="true"
        let meeting = try #require(room.meetings.first)
        #expect(meeting.weekday == .saturday)
        #expect(meeting.times == "09:05–12:00")
        #expect(
            meeting.categories == [
                AdvertisingCategory(id: "9105", ageFrom: 10, ageTo: 15, sex: .girls, sexName: "dívky")
            ])
    }

    @Test func anXsiNilElementIsMissingEvenWithText() throws {
        let xml = """
            <r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><AdvertisingSummaryOutput><Realty_ID>1</Realty_ID>
            <Unit>Vlci</Unit><Realty_GpsLatitude>49.2</Realty_GpsLatitude>\
            <Realty_GpsLongitude>16.6</Realty_GpsLongitude>
            <Realty_Street xsi:nil="true">stale</Realty_Street><Realty_City xsi:nil="false">Brno</Realty_City>
            <MeetingDate_TimeFrom>16:30 o'clock</MeetingDate_TimeFrom>\
            <MeetingDate_ID_WeekDay>xx</MeetingDate_ID_WeekDay>
            <MeetingDate_WeekDay>Úterý</MeetingDate_WeekDay><IsWater>1</IsWater></AdvertisingSummaryOutput></r>
            """
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let room = try #require(
            try ClubroomCatalog.read(paths: [Fixture.write(Array(xml.utf8), name: "one.xml", in: folder)]).clubrooms
                .first)
        #expect(room.street == nil && room.city == "Brno")
        let meeting = try #require(room.meetings.first)
        #expect(meeting.timeFrom == .unreadable("16:30 o'clock"))
        #expect(meeting.weekday == .tuesday)  // the code is unreadable; the name is read
        #expect(meeting.dayName == "Úterý")
        #expect(room.units.first?.isWater == true)
    }

    @Test func recordsWithoutMeetingIDsMakeOneMeetingPerContent() throws {
        let csv = """
            Realty_ID;Unit;lat;lon;MeetingDate_WeekDay;MeetingDate_TimeFrom;\
            AdvertisingCategory_AgeFrom;AdvertisingCategory_AgeTo;AdvertisingCategory_ID_Sex
            1;Vlci;49,2;16,6;pondělí;16:00;7;11;male
            1;Vlci;49,2;16,6;pondělí;16:00;7;11;female
            1;Vlci;49,2;16,6;pondělí;16:00;7;11;male
            1;Vlci;49,2;16,6;středa;16:00;12;15;male
            """
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let room = try #require(
            try ClubroomCatalog.read(paths: [Fixture.write(Array(csv.utf8), name: "a.csv", in: folder)]).clubrooms.first
        )
        #expect(room.meetings.map(\.weekday) == [.monday, .wednesday])
        #expect(room.meetings[0].categories.map(\.sex) == [.boys, .girls])
    }

    @Test func theSampleCatalogListsNoMeetingTwice() throws {
        let root = Fixture.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for name in ["clubrooms.xml", "clubrooms.csv"] {
            let catalog = try ClubroomCatalog.read(paths: [root.appendingPathComponent("data/clubrooms/\(name)").path])
            let ids = catalog.clubrooms.flatMap { $0.meetings.compactMap(\.id) }
            #expect(Set(ids).count == ids.count, "\(name)")
            #expect(ids.count > catalog.clubrooms.count)
            #expect(
                catalog.clubrooms.allSatisfy {
                    $0.meetings.allSatisfy { $0.timeFrom?.timeOfDay != nil && $0.weekday != nil }
                })
        }
    }
}
