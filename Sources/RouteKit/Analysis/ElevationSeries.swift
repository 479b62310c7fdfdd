/// Elevations along a line against the distance travelled: the input of the ascent and profile
/// computations. Only points that have an elevation are in it; the distance still counts the points
/// without one.
public struct ElevationSeries: Hashable, Sendable {
    /// Distance from the start of the line in metres, non-decreasing.
    public var distances: [Double] = []
    /// Elevation in metres at each distance.
    public var elevations: [Double] = []

    public init(distances: [Double] = [], elevations: [Double] = []) {
        precondition(distances.count == elevations.count, "one elevation per distance")
        self.distances = distances
        self.elevations = elevations
    }

    /// The number of samples.
    public var count: Int { distances.count }

    /// Adds a sample at `distance` metres.
    public mutating func append(distance: Double, elevation: Double) {
        distances.append(distance)
        elevations.append(elevation)
    }
}
