import Testing

@testable import RouteKit

@Suite struct ControlPointListTests {
    /// Stretches of the real lists of the route (KT.gpx against kt.json): spelled differently, one entry the
    /// waypoints lack, one waypoint the list lacks.
    @Test func pairsTheWaypointsWithTheListInRouteOrder() {
        let waypoints = [
            "Ljubljanski grad", "Sveti Jakob nad Medvodami", "Mihelčičev dom na Govejku",
            "Idrija pri Bači, Zlata ribica",
            "Mladinski center v Ajdovščini", "Hrib Loški potok", "Koča na Kamen vrhu",
            "Plan. dom pri Gospodični na Gorjancih",
            "Planina v Podbočju", "Rudijev dom", "Puhov muzej, Sakušak", "Maistrov stolp ", "Koča na Pesku",
            "Koča na Pesniku",
            "Rudnik Mežica", "Dom Franca Goloba na Čemšeniški planini", "Razgledni stolp",
        ]
        let list = [
            "Ljubljanski grad", "Sv. Jakob nad Medvodami", "Mihelčičev dom na Govejku", "Idrija pri Bači",
            "MC Hiša mladih Ajdovščina", "KTC Loški Potok (Hotel Hrib)", "Planinski dom na Kamnem griču",
            "Plan. dom pri Gospodični na Gorjancih", "Trdinov vrh", "Planina v Podbočju",
            "Rudijev dom pod Donačko goro",
            "Sakušak, Puhov muzej", "Zavrh, Maistrov stolp ", "Koča na Pesku", "Koča na Pesniku", "Muzej Mežica",
            "Dom Franca Goloba na Čem. planini",
        ].enumerated().map { ControlPointEntry(number: $0.offset + 1, name: $0.element) }
        let pairing = ControlPointList.match(waypoints, to: list)
        #expect(pairing == [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 16, nil])
    }

    @Test func pairsEqualNamesOutOfOrderAndNeverUnlikeOnes() {
        let list = ["Koča na Blegošu", "Ljubljanski grad", "Dom na Peci"].map { ControlPointEntry(name: $0) }
        #expect(ControlPointList.match(["Ljubljanski grad", "Dom na Peci", "KOČA NA BLEGOŠU"], to: list) == [1, 2, 0])
        #expect(ControlPointList.match(["Piran", "Strunjan"], to: [ControlPointEntry(name: "Tinjan")]) == [nil, nil])
        #expect(ControlPointList.match([], to: list) == [])
        #expect(ControlPointList.match(["Piran"], to: []) == [nil])
    }

    @Test func readsNumbersAsStringsOrNumbersAndAddressesInLines() throws {
        let json =
            #"[{"zapSt":"7","naziv":" Koča na Poreznu ","naslov":"Javni zavod\nPorezen 1\n","zig":""},"#
            + #"{"zapSt":8,"naziv":"Cerkno"},{"naslov":"no name"},"#
            + #"{"zapSt":"x","naziv":"Sečoveljske soline","zig":"Pri vhodu"}]"#
        let value = try JSONValue.read(InputFile(name: "kt.json", bytes: Array(json.utf8)))
        let (entries, skipped) = ControlPointList.entries(try #require(value.elements))
        #expect(skipped == 1)
        #expect(
            entries == [
                ControlPointEntry(number: 7, name: "Koča na Poreznu", address: "Javni zavod, Porezen 1", stamp: nil),
                ControlPointEntry(number: 8, name: "Cerkno"),
                ControlPointEntry(number: nil, name: "Sečoveljske soline", stamp: "Pri vhodu"),
            ])
    }

    @Test(arguments: [
        ("Sv.", "Sveti", 1.0), ("Koča na Pesku", "Koca na pesku", 1.0), ("Muzej Mežica", "Rudnik Mežica", 0.5),
        ("Piran", "Tinjan", 0.0),
    ])
    func measuresHowAlikeTwoNamesAre(a: String, b: String, atLeast: Double) {
        let likeness = NameTokens(a).likeness(NameTokens(b))
        #expect(likeness >= atLeast * 0.8 && likeness <= 1)
        #expect(likeness == NameTokens(b).likeness(NameTokens(a)))
    }
}
