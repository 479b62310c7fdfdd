import Foundation
import RouteKit
import Testing

@Suite struct CatalogTests {
    func read(
        _ text: [UInt8], name: String = "catalog.txt", columns: CSVCatalogReader.Columns = .init()
    ) throws -> ClubroomCatalog {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        return try ClubroomCatalog.read(paths: [Fixture.write(text, name: name, in: folder)], columns: columns)
    }

    static let soap = """
        <?xml version="1.0" encoding="utf-8"?>
        <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
        <AdvertisingSummaryResponse xmlns="https://is.skaut.cz/"><AdvertisingSummaryResult>
        <AdvertisingSummaryOutput><ID_Unit>1</ID_Unit><Unit>1. oddíl Brno</Unit>\
        <RegistrationNumber>621.03.01</RegistrationNumber>
          <Realty_ID>77</Realty_ID><Realty_Street>Husova 5</Realty_Street>\
        <Realty_City>Brno</Realty_City><Realty_Postcode>602 00</Realty_Postcode>
          <Realty_GpsLatitude>49.1951</Realty_GpsLatitude><Realty_GpsLongitude>16.6068</Realty_GpsLongitude>
          <MeetingDate_WeekDay>pondělí</MeetingDate_WeekDay><MeetingDate_TimeFrom>16:00</MeetingDate_TimeFrom>\
        <MeetingDate_TimeTo>18:00</MeetingDate_TimeTo>
          <AdvertisingCategory_AgeFrom>7</AdvertisingCategory_AgeFrom>\
        <AdvertisingCategory_AgeTo>11</AdvertisingCategory_AgeTo></AdvertisingSummaryOutput>
        <AdvertisingSummaryOutput><ID_Unit>2</ID_Unit><Unit>2. oddíl Brno</Unit>\
        <RegistrationNumber>621.03.02</RegistrationNumber>
          <Realty_ID>77</Realty_ID><Realty_GpsLatitude>49.1951</Realty_GpsLatitude>\
        <Realty_GpsLongitude>16.6068</Realty_GpsLongitude>
          <MeetingDate_WeekDay>středa</MeetingDate_WeekDay></AdvertisingSummaryOutput>
        <AdvertisingSummaryOutput><Unit>3. oddíl</Unit><Realty_ID>78</Realty_ID><Realty_GpsLatitude />\
        <Realty_GpsLongitude /></AdvertisingSummaryOutput>
        </AdvertisingSummaryResult></AdvertisingSummaryResponse></soap:Body></soap:Envelope>
        """

    @Test func mergesSkautISRecordsOfOnePlace() throws {
        let catalog = try read(Self.soap.utf8Bytes)
        #expect(catalog.recordCount == 3)
        #expect(catalog.clubrooms.count == 1)
        let room = try #require(catalog.clubrooms.first)
        #expect(room.id == "77")
        #expect(room.units.map(\.name) == ["1. oddíl Brno", "2. oddíl Brno"])
        #expect(room.meetings.count == 2)
        #expect(
            room.meetings[0]
                == Meeting(
                    unit: room.units[0], weekday: .monday, weekdayName: "pondělí", timeFrom: MeetingTime("16:00"),
                    timeTo: MeetingTime("18:00"),
                    categories: [AdvertisingCategory(ageFrom: 7, ageTo: 11)]))
        #expect(room.address == "Husova 5, 602 00 Brno")
        #expect(catalog.skipped.map(\.reason) == ["no coordinates"])
        #expect(catalog.skipped.first?.line == 12)
    }

    @Test func reportsASOAPFault() throws {
        let fault = """
            <?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
            <soap:Fault><faultcode>soap:Server</faultcode>\
            <faultstring>Přihlášení vypršelo</faultstring></soap:Fault></soap:Body></soap:Envelope>
            """
        #expect { try read(fault.utf8Bytes) } throws: {
            ($0 as? CatalogError)?.underlying == .soapFault("Přihlášení vypršelo")
        }
    }

    @Test func readsACzechSpreadsheetExportInWindows1250() throws {
        // "Zeměpisná šířka;Zeměpisná délka;Název;Obec" with decimal commas, in Windows-1250.
        var bytes: [UInt8] = []
        let cp1250: [Character: UInt8] = [
            "ě": 0xEC, "š": 0x9A, "í": 0xED, "ř": 0xF8, "á": 0xE1, "é": 0xE9, "ů": 0xF9, "ž": 0x9E, "Ž": 0x8E,
        ]
        let text =
            "Zeměpisná šířka;Zeměpisná délka;Název;Obec\r\n49,1951;16,6068;Klubovna \"U Lípy\";Brno\r\n"
            + "50,0755;14,4378;Žižkov;Praha\r\n"
        for ch in text { bytes.append(cp1250[ch] ?? UInt8(ch.asciiValue!)) }
        let catalog = try read(bytes, name: "export.csv")
        #expect(catalog.clubrooms.map(\.name) == ["Klubovna \"U Lípy\"", "Žižkov"])
        #expect(catalog.clubrooms[0].coordinate == Coordinate(latitude: 49.1951, longitude: 16.6068))
        #expect(catalog.clubrooms[1].city == "Praha")
    }

    @Test func readsCommaCSVWithQuotesAndABOM() throws {
        let text =
            "\u{FEFF}id,name,lat,lon,unit,registration_number\n1,\"Klubovna, sever\",49.2,16.6,Vlci,621.03.01\n"
            + "2,Jih,49.1,16.5,Lišky,621.031.02\n"
        let catalog = try read(text.utf8Bytes)
        #expect(catalog.clubrooms.map(\.name) == ["Klubovna, sever", "Jih"])
        #expect(catalog.clubrooms[0].units.first?.belongs(to: "621.03") == true)
        #expect(catalog.clubrooms[1].units.first?.belongs(to: "621.03") == false)
    }

    @Test func namesTheMissingColumnAndSuspectsSwappedOnes() throws {
        #expect { try read("id,name,where\n1,a,b\n".utf8Bytes) } throws: {
            ($0 as? CatalogError)?.underlying == .missingColumn("latitude")
        }
        let swapped = try read("id,lat,lon\n1,16.6,49.2\n2,116.5,49.1\n".utf8Bytes)
        #expect(swapped.clubrooms.count == 1)
        #expect(swapped.swappedLooking == 1)
        let explicit = try read("id,A,B\n1,49.2,16.6\n".utf8Bytes, columns: .init(latitude: "A", longitude: "B"))
        #expect(explicit.clubrooms.first?.coordinate == Coordinate(latitude: 49.2, longitude: 16.6))
    }

    @Test func readsGeoJSONPointsAndTheUnitsNearWrites() throws {
        let text = """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"k1",\
            "geometry":{"type":"Point","coordinates":[16.6,49.2]},
             "properties":{"name":"Klubovna","city":"Brno","units":[{"name":"Vlci","registration_number":"621.03.01"}],
             "meetings":[{"unit":"Vlci","weekday":"pondělí","time_from":"16:00","age_from":7}]}}]}
            """
        let room = try #require(try read(text.utf8Bytes).clubrooms.first)
        #expect(room.id == "k1")
        #expect(room.city == "Brno")
        #expect(room.units == [ScoutUnit(name: "Vlci", registrationNumber: "621.03.01")])
        #expect(room.meetings.first?.weekday == .monday)
        #expect(room.meetings.first?.categories.first?.ageFrom == 7)
    }
}
