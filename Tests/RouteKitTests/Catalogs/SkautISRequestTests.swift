import Foundation
import FoundationXML
import RouteKit
import Testing

@Suite struct SkautISRequestTests {
    @Test func asksForThePositionAndRadius() {
        let xml = SkautISRequest(position: Coordinate(latitude: 49.1951, longitude: 16.6068), radiusMeters: 20_000.4)
            .xml()
        #expect(xml.contains("<AdvertisingSummary xmlns=\"https://is.skaut.cz/\">\n      <advertisingSummaryInput>"))
        #expect(xml.contains("<ID_Application>YOUR-APPLICATION-ID</ID_Application>"))
        #expect(xml.contains("<ID_Login>YOUR-LOGIN-ID</ID_Login>"))
        #expect(xml.contains("<ID_Unit xsi:nil=\"true\" />"))
        #expect(xml.contains("<Distance>20001</Distance>"))
        #expect(
            xml.contains("<GpsLatitude>49.1951</GpsLatitude>") && xml.contains("<GpsLongitude>16.6068</GpsLongitude>"))
        // The elements in the service's order.
        let order = [
            "ID_Login", "ID_Application", "ID_Unit", "IncludeChildUnits", "ID_Realty", "Distance", "GpsLatitude",
            "GpsLongitude",
        ]
        let positions = order.compactMap { xml.range(of: "<\($0)")?.lowerBound }
        #expect(positions.count == order.count && positions == positions.sorted())
        // Well-formed XML (no "--" inside the comment, every element closed).
        #expect(XMLParser(data: Data(xml.utf8)).parse())
    }

    @Test func aUnitGetsAPlaceholderAndIsNamed() {
        let xml = SkautISRequest(position: nil, radiusMeters: 60_000, unitNumber: "621.03").xml()
        #expect(xml.contains("<ID_Unit>UNIT-ID</ID_Unit>"))
        #expect(xml.contains("unit 621.03"))
        #expect(xml.contains("<Distance xsi:nil=\"true\" />") && xml.contains("<GpsLatitude xsi:nil=\"true\" />"))
        #expect(XMLParser(data: Data(xml.utf8)).parse())
        #expect(SkautISRequest.endpoint == "https://is.skaut.cz/JunakWebservice/OrganizationUnit.asmx")
        #expect(SkautISRequest.soapAction == "https://is.skaut.cz/AdvertisingSummary")
    }
}
