import RouteKit
import Testing

@Suite struct SensorReadingsTests {
    @Test func eachKindReadsAndWritesItsOwnField() {
        for (index, kind) in SensorReadings.Kind.allCases.enumerated() {
            var readings = SensorReadings()
            #expect(readings.isEmpty)
            readings[kind] = Double(index + 1)
            #expect(!readings.isEmpty)
            #expect(
                SensorReadings.Kind.allCases.map { readings[$0] }
                    == SensorReadings.Kind.allCases.map { $0 == kind ? Double(index + 1) : nil })
        }
        let garmin = SensorReadings(heartRate: 120, cadence: 85, power: 250)
        #expect(garmin[.heartRate] == 120 && garmin[.cadence] == 85 && garmin[.power] == 250 && garmin[.speed] == nil)
    }
}
