import RouteKit
import Testing

@Suite struct CoordinateTests {
    @Test(arguments: [
        (90.0, 180.0, true), (-90.0, -180.0, true), (0.0, 0.0, true), (90.000001, 0.0, false), (0.0, -180.5, false),
        (Double.nan, 0.0, false), (0.0, Double.infinity, false),
    ])
    func validMeansFiniteAndInRange(latitude: Double, longitude: Double, valid: Bool) {
        #expect(Coordinate(latitude: latitude, longitude: longitude).isValid == valid)
    }
}
