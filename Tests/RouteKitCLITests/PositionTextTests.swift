import RouteKit
import Testing

@testable import RouteKitCLI

@Suite struct PositionTextTests {
    // 49°11'42" = 49 + 11/60 + 42/3600 = 49.195°; 16°36'24" = 16.606666…°;
    // 11.7' = 0.195°; 36.4' = 0.606666…°.
    @Test(
        arguments: [
            ("49.1951,16.6068", 49.1951, 16.6068), ("49.1951, 16.6068", 49.1951, 16.6068),
            (" 49.1951 16.6068 ", 49.1951, 16.6068),
            ("49.1951;16.6068", 49.1951, 16.6068), ("-33.8688\t151.2093", -33.8688, 151.2093),
            ("49°11'42\"N 16°36'24\"E", 49.195, 16.606_666_666_666_67),
            ("49°11′42″N, 16°36′24″E", 49.195, 16.606_666_666_666_67),
            ("N 49° 11.7' E 16° 36.4'", 49.195, 16.606_666_666_666_67),
            ("n49 11.7 e16 36.4", 49.195, 16.606_666_666_666_67),
            ("33°52'S 151°12'E", -33.866_666_666_666_67, 151.2),
            ("51°28'40\"N 0°0'5\"W", 51.477_777_777_777_78, -0.001_388_888_888_888_889),
            ("16°36'24\"E 49°11'42\"N", 49.195, 16.606_666_666_666_67),
        ] as [(String, Double, Double)])
    func readsDecimalAndSexagesimalPositions(text: String, latitude: Double, longitude: Double) throws {
        let c = try #require(PositionText.parse(text))
        #expect(abs(c.latitude - latitude) < 1e-12 && abs(c.longitude - longitude) < 1e-12, "\(c)")
    }

    @Test(arguments: [
        "", "49.1951", "49.1951,16.6068,3", "91,0", "0,181", "49°60'N 16°E", "49°11'61\"N 16°E", "49°N 50°N",
        "49°11'42\" 16°36'24\"", "-49°N 16°E", "49°11'42\"N 16°36'24\"E x", "Brno",
    ])
    func refusesWhatIsNoPosition(text: String) {
        #expect(PositionText.parse(text) == nil)
    }

    @Test func saysWhatIsWrong() {
        #expect(
            PositionText.problem("120,14") == "latitude 120 is outside -90…90 (latitude comes first), in '120,14'")
        #expect(PositionText.problem("14,200") == "longitude 200 is outside -180…180, in '14,200'")
        #expect(
            PositionText.problem("Brno")
                == "a position like 49.1951,16.6068 or 49°11'42\"N 16°36'24\"E is needed, not 'Brno'")
        let long = String(repeating: "x", count: 70)
        #expect(PositionText.problem(long).hasSuffix("not '" + String(repeating: "x", count: 60) + "…'"))
    }
}
