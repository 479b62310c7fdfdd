/// Clubrooms searchable by geodesic distance: those within a radius of a position, the nearest ones, and
/// those along a track.
///
/// Built once (a ``GeodesicIndex`` over the clubrooms' coordinates, O(n log n)) and asked many times. The
/// answers are exact on the WGS84 ellipsoid: a clubroom is within R if and only if its geodesic distance
/// (Karney's, or short-line formulas within a micrometre of it: see ``GeodesicIndex``) is at most R.
///
/// ```swift
/// let catalog = try ClubroomCatalog.read(paths: ["clubrooms.xml"])
/// let index = ClubroomIndex(catalog.clubrooms)
/// for found in index.clubrooms(within: 60_000, of: Coordinate(latitude: 49.1951, longitude: 16.6068)) {
///     print(found.clubroom.name, found.distanceMeters, found.bearingDegrees)
/// }
/// ```
public struct ClubroomIndex: Sendable {
    /// A clubroom found from a position.
    public struct Found: Hashable, Sendable {
        /// The clubroom.
        public var clubroom: Clubroom
        /// Geodesic distance from the position, metres.
        public var distanceMeters: Double
        /// Initial bearing from the position, degrees clockwise from true north, 0…360.
        public var bearingDegrees: Double
    }

    /// A clubroom found along a track.
    public struct AlongTrack: Hashable, Sendable {
        /// The clubroom.
        public var clubroom: Clubroom
        /// Distance from the track, metres.
        public var distanceMeters: Double
        /// Distance along the track to where it passes closest, metres (segment gaps not counted).
        public var alongMeters: Double
    }

    /// The clubrooms, in the order given.
    public let clubrooms: [Clubroom]
    /// Their positions, taken once: every search along a track needs them.
    private let coordinates: [Coordinate]
    private let index: GeodesicIndex

    /// An index over `clubrooms`.
    public init(_ clubrooms: [Clubroom]) {
        self.clubrooms = clubrooms
        coordinates = clubrooms.map(\.coordinate)
        index = GeodesicIndex(coordinates)
    }

    /// The clubrooms within `radiusMeters` (≥ 0) of `position`, nearest first (ties in catalog order).
    public func clubrooms(within radiusMeters: Double, of position: Coordinate) -> [Found] {
        index.positions(within: radiusMeters, of: position).map(found)
    }

    /// The `count` clubrooms nearest to `position`, nearest first.
    public func nearest(_ count: Int, to position: Coordinate) -> [Found] {
        index.nearest(count, to: position).map(found)
    }

    /// The clubrooms within `radiusMeters` of the track in `corridor`, in order along it.
    public func clubrooms(within radiusMeters: Double, along corridor: TrackCorridor) -> [AlongTrack] {
        corridor.positions(within: radiusMeters, among: index, coordinates: coordinates).map {
            AlongTrack(clubroom: clubrooms[$0.index], distanceMeters: $0.distanceMeters, alongMeters: $0.alongMeters)
        }
    }

    /// The clubrooms within `radiusMeters` of `track`, in order along it.
    public func clubrooms(within radiusMeters: Double, along track: Track) -> [AlongTrack] {
        clubrooms(within: radiusMeters, along: TrackCorridor(track: track))
    }

    /// Every clubroom measured from `position`, nearest first: the index's answer without the index, for
    /// checking it (O(n) geodesics).
    public func measuredExhaustively(within radiusMeters: Double, of position: Coordinate) -> [Found] {
        Self.measuringEach(of: clubrooms, within: radiusMeters, of: position)
    }

    /// The clubrooms of `clubrooms` within `radiusMeters` of `position`, nearest first, found by measuring
    /// each one (O(n) geodesics, no index built): for one query, or for checking the index.
    public static func measuringEach(
        of clubrooms: [Clubroom], within radiusMeters: Double, of position: Coordinate
    ) -> [Found] {
        GeodesicIndex.scan(clubrooms.map(\.coordinate), within: radiusMeters, of: position).map {
            found($0, in: clubrooms)
        }
    }

    private func found(_ match: GeodesicIndex.Match) -> Found {
        Self.found(match, in: clubrooms)
    }

    private static func found(_ match: GeodesicIndex.Match, in clubrooms: [Clubroom]) -> Found {
        Found(
            clubroom: clubrooms[match.index], distanceMeters: match.distanceMeters, bearingDegrees: match.bearingDegrees
        )
    }
}
