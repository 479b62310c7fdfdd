extension SensorReadings.Kind {
    /// The key of the kind's per-point series in `properties.coordinateProperties`, as togeojson writes them
    /// (`heart`, `cads`, `atemps`, …): one table for the GeoJSON writer and reader.
    var coordinatePropertiesKey: StaticString {
        switch self {
        case .heartRate: "heart"
        case .cadence: "cads"
        case .airTemperature: "atemps"
        case .waterTemperature: "wtemps"
        case .depth: "depths"
        case .speed: "speeds"
        case .course: "courses"
        case .power: "powers"
        }
    }
}
