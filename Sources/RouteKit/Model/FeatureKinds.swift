/// Which kinds of content (tracks, routes, waypoints) go into an output, in any format.
public struct FeatureKinds: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Recorded tracks (`trk`).
    public static let tracks = FeatureKinds(rawValue: 1)
    /// Planned routes (`rte`).
    public static let routes = FeatureKinds(rawValue: 2)
    /// Waypoints (`wpt`).
    public static let waypoints = FeatureKinds(rawValue: 4)
    /// Everything.
    public static let all: FeatureKinds = [.tracks, .routes, .waypoints]
}
