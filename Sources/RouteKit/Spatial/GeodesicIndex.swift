import Dispatch
import Glibc

/// A spatial index over positions on the WGS84 ellipsoid that answers "all within R metres of P" and "the
/// k nearest to P" exactly: a position is in the answer if and only if its geodesic distance is at most R —
/// Karney's `geod_inverse`, or within 100 km short-line formulas (the chord and the ellipsoid's normal
/// curvature) that agree with it to 0.3 µm (so ``Coordinate/distance(to:)`` may differ from a match's distance
/// by that much); `geod_inverse` also near the poles.
///
/// The positions are points on the unit sphere (from their latitude and longitude) in a k-d tree, which
/// has no trouble with the poles or the antimeridian. A query first takes every position whose angle θ
/// from P on that sphere is at most R / M₀, where M₀ = a(1 − e²) is the smallest radius of curvature of the
/// ellipsoid: along any path, the ellipsoid's length element is at least M₀ times the unit sphere's, so a
/// geodesic of length ≤ R has θ ≤ R / M₀, and no answer is missed. Then the exact geodesic distance of each
/// candidate decides. Build: O(n log n); a query: O(log n + candidates) plus one geodesic per candidate.
public final class GeodesicIndex: @unchecked Sendable {
    /// A position found by a query.
    public struct Match: Hashable, Sendable {
        /// The position's index in the array the index was built from.
        public var index: Int
        /// Geodesic distance from the query point, metres.
        public var distanceMeters: Double
        /// Initial bearing from the query point, degrees clockwise from north, 0…360.
        public var bearingDegrees: Double

        public init(index: Int, distanceMeters: Double, bearingDegrees: Double) {
            self.index = index
            self.distanceMeters = distanceMeters
            self.bearingDegrees = bearingDegrees
        }
    }

    private let coordinates: [Coordinate]
    /// The unit vectors, in the order of the tree (`order[k]` is the index of `points[k]`).
    private var points: [(Double, Double, Double)]
    private var order: [Int32]
    private var axes: [UInt8]
    private let leafSize = 8
    /// a(1 − e²): the meridional radius of curvature at the equator, the smallest of the ellipsoid.
    static let smallestRadius = Geodesic.wgs84Radius * (1 - Geodesic.wgs84Flattening * (2 - Geodesic.wgs84Flattening))

    /// An index over `coordinates` (all valid: latitude −90…90, longitude −180…180).
    public init(_ coordinates: [Coordinate]) {
        self.coordinates = coordinates
        points = coordinates.map(GeodesicCenter.normal)
        order = (0..<Int32(coordinates.count)).map { $0 }
        axes = [UInt8](repeating: 0, count: coordinates.count)
        points.withUnsafeMutableBufferPointer { points in
            order.withUnsafeMutableBufferPointer { order in
                axes.withUnsafeMutableBufferPointer { axes in
                    Tree(points: points, order: order, axes: axes, leafSize: leafSize).build(0, coordinates.count)
                }
            }
        }
    }

    /// The number of positions.
    public var count: Int { coordinates.count }

    @inline(__always) private func component(_ p: (Double, Double, Double), _ axis: UInt8) -> Double {
        axis == 0 ? p.0 : axis == 1 ? p.1 : p.2
    }

    /// Every position within `radiusMeters` (≥ 0) of `center`, nearest first (ties by index).
    public func positions(within radiusMeters: Double, of center: Coordinate) -> [Match] {
        var result: [Match] = []
        let bound = Self.bound(radiusMeters)
        let geodesics = GeodesicCenter(center)
        search(0, coordinates.count, GeodesicCenter.normal(center), bound.chord, bound.chord2) { i, unit in
            Self.measure(
                geodesics.inverse(to: coordinates[i], normal: unit), index: i, within: radiusMeters, into: &result)
        }
        return Self.sorted(result)
    }

    /// The angle on the unit sphere within which every answer lies (see the type's documentation), with a
    /// little room for rounding, and its chord for the tree. Beyond half the globe every position is a candidate.
    private static func bound(_ radiusMeters: Double) -> (angle: Double, chord: Double, chord2: Double) {
        let angle = radiusMeters / smallestRadius * (1 + 1e-9) + 1e-9
        let chord = angle >= .pi ? 2.0 : 2 * sin(angle / 2)
        return (angle, chord, chord * chord)
    }

    /// Adds position `index` to `result` when its geodesic from the centre (`inverse`, from
    /// ``GeodesicCenter``) is at most the radius long.
    @inline(__always)
    private static func measure(
        _ line: GeodesicCenter.Line, index: Int, within radiusMeters: Double, into result: inout [Match]
    ) {
        guard line.distanceMeters <= radiusMeters else { return }
        let azimuth = line.azimuthDegrees
        // + 0: a bearing of −0 is 0.
        result.append(
            Match(
                index: index, distanceMeters: line.distanceMeters,
                bearingDegrees: azimuth < 0 ? azimuth + 360 : azimuth + 0))
    }

    /// Nearest first, ties by index (a total order: any sort gives it), sorted in place.
    private static func sorted(_ matches: consuming [Match]) -> [Match] {
        matches.withUnsafeMutableBufferPointer { matches in
            matches.sort { a, b in
                a.distanceMeters < b.distanceMeters || (a.distanceMeters == b.distanceMeters && a.index < b.index)
            }
        }
        return matches
    }

    /// What ``positions(within:of:)`` answers, without building an index: for a few queries over many
    /// positions (O(n) a query, no O(n log n) build). The candidates are those of ``Reach``.
    package static func boundedScan(
        _ coordinates: [Coordinate], within radiusMeters: Double, of center: Coordinate
    ) -> [Match] {
        var result: [Match] = []
        let reach = Reach(radiusMeters, of: [center])
        let geodesics = GeodesicCenter(center)
        coordinates.withUnsafeBufferPointer { coordinates in
            for i in coordinates.indices where reach.contains(coordinates[i]) {
                measure(geodesics.inverse(to: coordinates[i]), index: i, within: radiusMeters, into: &result)
            }
        }
        return sorted(result)
    }

    /// What ``positions(within:of:)`` answers, over positions kept by cell of the ``Reach`` grid instead of
    /// in a tree (a table kept between runs, which needs no build): `members(first, last)` gives the range of
    /// members in the cells `first...last`, and `position(k)` member k's index and position. The candidates
    /// are those of ``Reach/Cap``.
    package static func cellSearch(
        within radiusMeters: Double, of center: Coordinate, members: (_ first: Int, _ last: Int) -> Range<Int>,
        position: (_ member: Int) -> (index: Int, coordinate: Coordinate)
    ) -> [Match] {
        var result: [Match] = []
        let cap = Reach.Cap(radiusMeters, of: center)
        let geodesics = GeodesicCenter(center)
        cap.forEachRun { first, last in
            for k in members(first, last) {
                let (i, c) = position(k)
                if let unit = cap.candidate(c) {
                    measure(geodesics.inverse(to: c, normal: unit), index: i, within: radiusMeters, into: &result)
                }
            }
        }
        return sorted(result)
    }

    /// The candidates of a query of a radius around any of some centres, told apart without an index: every
    /// position within the radius of a centre is one (nothing is missed), and most others are not.
    ///
    /// A position whose angle from a centre on the unit sphere is within the index's bound has a latitude
    /// within that angle of the centre's, and a longitude within the cap's span: a grid of cells of about a
    /// fifth of a degree marks those that such a band and span touch, which tells most positions apart by one
    /// bit. For the others, the centres are kept in order of latitude, with the range of those near each slice
    /// of latitude, so the few in that band are found at once, and those whose span holds the position's
    /// longitude check it on the chord as the tree does, before the geodesic decides.
    package struct Reach: Sendable {
        private let centers: [Cap]
        /// How far in latitude from a centre a candidate can be, degrees (each cap's band).
        private let band: Double
        /// Per slice of latitude (``slices`` of them from −90° to 90°): the centres whose band may reach into
        /// it, as the range of `centers` from `firstCenter[k]` to `firstCenter[slices + k]`.
        private let firstCenter: [Int32]
        private static let slices = 4096
        /// A bit per cell of a grid of ``gridRows`` × ``gridColumns`` cells over latitude and longitude: set when
        /// a centre's band of latitude and span of longitude touch the cell (so most positions are told apart
        /// by one bit).
        private let cells: [UInt64]
        private static let gridRows = 1024
        fileprivate static let gridColumns = 2048

        /// The candidates around one centre: within its band of latitude, its span of longitude and the
        /// chord of the index's bound (see ``GeodesicIndex``).
        package struct Cap: Sendable {
            var latitude: Double
            var longitude: Double
            /// How far in latitude from the centre a candidate can be, degrees.
            var band: Double
            /// How far in longitude from the centre a candidate can be (180: any longitude).
            var longitudeBand: Double
            var x: Double
            var y: Double
            var z: Double
            var chord2: Double

            /// The candidates within `radiusMeters` (≥ 0) of `center`.
            package init(_ radiusMeters: Double, of center: Coordinate) {
                let bound = GeodesicIndex.bound(max(0, radiusMeters))
                let angle = Self.angle(bound)
                let q = GeodesicCenter.normal(center)
                // On the sphere a cap of angle θ around latitude φ spans asin(sin θ / cos φ) of longitude
                // either side, unless it holds a pole.
                let polar = abs(center.latitude) * .pi / 180
                latitude = center.latitude
                longitude = center.longitude
                band = angle * 180 / .pi
                longitudeBand =
                    polar + angle >= .pi / 2 * 0.999
                    ? 180 : min(180, asin(min(1, sin(angle) / cos(polar))) * 180 / .pi * (1 + 1e-9) + 1e-9)
                (x, y, z) = q
                chord2 = bound.chord2
            }

            /// The runs of cells of the grid (``Reach/cell(of:)``) that the band and the span touch: a row's
            /// cells `first...last` (two runs where the span crosses the antimeridian), row by row upwards.
            package func forEachRun(_ body: (_ first: Int, _ last: Int) -> Void) {
                let columns = Reach.gridColumns
                var west = Int(((longitude - longitudeBand + 180) / 360 * Double(columns)).rounded(.down))
                var east = Int(((longitude + longitudeBand + 180) / 360 * Double(columns)).rounded(.down))
                if west >= columns {
                    // A centre on the antimeridian (180°, which is −180°'s column) without a span.
                    west -= columns
                    east -= columns
                }
                for r in Reach.row(latitude - band)...Reach.row(latitude + band) {
                    let start = r * columns
                    if longitudeBand >= 180 || east - west + 1 >= columns {
                        body(start, start + columns - 1)
                    } else if west < 0 {
                        body(start, start + east)
                        body(start + west + columns, start + columns - 1)
                    } else if east >= columns {
                        body(start + west, start + columns - 1)
                        body(start, start + east - columns)
                    } else {
                        body(start + west, start + east)
                    }
                }
            }

            /// The angle of the cap on the unit sphere for the index's `bound`, with a little room for rounding.
            fileprivate static func angle(_ bound: (angle: Double, chord: Double, chord2: Double)) -> Double {
                min(.pi, bound.angle * (1 + 1e-9) + 1e-9)
            }

            /// True when `c` lies within the band of latitude and the span of longitude.
            @inline(__always)
            fileprivate func spans(_ c: Coordinate) -> Bool {
                let turn = abs(c.longitude - longitude)
                return abs(latitude - c.latitude) <= band && min(turn, 360 - turn) <= longitudeBand
            }

            /// True when the unit vector `p` lies within the chord of the centre's.
            @inline(__always)
            fileprivate func reaches(_ p: (Double, Double, Double)) -> Bool {
                let dx = p.0 - x
                let dy = p.1 - y
                let dz = p.2 - z
                return dx * dx + dy * dy + dz * dz <= chord2
            }

            /// The unit vector of `c` when it is a candidate; nil when it is not.
            @inline(__always)
            package func candidate(_ c: Coordinate) -> (Double, Double, Double)? {
                guard spans(c) else { return nil }
                let p = GeodesicCenter.normal(c)
                return reaches(p) ? p : nil
            }
        }

        /// The candidates within `radiusMeters` (≥ 0) of any of `centers`.
        package init(_ radiusMeters: Double, of centers: [Coordinate]) {
            band = Cap.angle(GeodesicIndex.bound(max(0, radiusMeters))) * 180 / .pi
            self.centers = centers.map { Cap(radiusMeters, of: $0) }.sorted { $0.latitude < $1.latitude }
            // One sweep up the slices: the first centre at or above each slice's lowest latitude less the band,
            // and the first above its highest plus the band.
            let latitudes = self.centers.map(\.latitude)
            let width = 180 / Double(Self.slices)
            var firsts = [Int32](repeating: 0, count: 2 * Self.slices)
            var low = 0
            var high = 0
            for k in 0..<Self.slices {
                while low < latitudes.count && latitudes[low] < -90 + Double(k) * width - band { low += 1 }
                while high < latitudes.count && latitudes[high] <= -90 + Double(k + 1) * width + band { high += 1 }
                firsts[k] = Int32(low)
                firsts[Self.slices + k] = Int32(high)
            }
            firstCenter = firsts
            var cells = [UInt64](repeating: 0, count: Self.gridRows * Self.gridColumns / 64)
            for q in self.centers {
                q.forEachRun { first, last in
                    if last - first + 1 == Self.gridColumns {
                        for w in (first >> 6)...(last >> 6) { cells[w] = ~0 }
                        return
                    }
                    for cell in first...last { cells[cell >> 6] |= 1 << UInt64(cell & 63) }
                }
            }
            self.cells = cells
        }

        /// The number of cells of the grid (see ``cell(of:)``).
        package static let cellCount = gridRows * gridColumns

        /// The cell of the grid a position lies in: its row (of latitude) times the columns plus its column (of
        /// longitude), 0..<``cellCount``.
        @inline(__always)
        package static func cell(of c: Coordinate) -> Int { row(c.latitude) * gridColumns + column(c.longitude) }

        /// True when candidates may lie in `cell` (see ``cell(of:)``).
        package func covers(_ cell: Int) -> Bool { cells[cell >> 6] & 1 << UInt64(cell & 63) != 0 }

        /// The cells of the grid where candidates may lie, in increasing order: a position in any other cell is
        /// not one.
        package var touchedCells: [Int] {
            var result: [Int] = []
            for (w, word) in cells.enumerated() where word != 0 {
                var bits = word
                while bits != 0 {
                    result.append(w << 6 | bits.trailingZeroBitCount)
                    bits &= bits - 1
                }
            }
            return result
        }

        /// The grid row of a latitude (the last for 90°).
        @inline(__always)
        fileprivate static func row(_ latitude: Double) -> Int {
            let place = (latitude + 90) / 180 * Double(gridRows)
            // Clamped before it becomes an Int: a damaged kept table may hold any double.
            return place >= 0 ? Int(min(Double(gridRows - 1), place)) : 0
        }

        /// The grid column of a longitude (180° is −180°'s).
        @inline(__always)
        private static func column(_ longitude: Double) -> Int {
            let place = (longitude + 180) / 360 * Double(gridColumns)
            return place >= 0 ? Int(min(Double(gridColumns), place)) % gridColumns : 0
        }

        /// The share of the globe's area within the bound of `centers` centres (at most 1; overlaps counted
        /// twice), known before a reach is built: a cap of chord c covers c²/4 of the sphere.
        package static func areaShare(_ radiusMeters: Double, centers: Int) -> Double {
            min(1, Double(centers) * GeodesicIndex.bound(max(0, radiusMeters)).chord2 / 4)
        }

        /// True when `c` is a candidate (always when it is within the radius of a centre).
        @inline(__always)
        package func contains(_ c: Coordinate) -> Bool {
            let cell = Self.cell(of: c)
            guard cells[cell >> 6] & 1 << UInt64(cell & 63) != 0 else { return false }
            let place = (c.latitude + 90) / 180 * Double(Self.slices)
            let slice = place >= 0 ? Int(min(Double(Self.slices - 1), place)) : 0
            let lo = Int(firstCenter[slice])
            let hi = Int(firstCenter[Self.slices + slice])
            guard lo < hi else { return false }
            return centers.withUnsafeBufferPointer { centers in
                // The unit vector is computed once, for the first centre whose band and span hold `c`.
                var p: (Double, Double, Double)?
                for q in centers[lo..<hi] where q.spans(c) {
                    let unit = p ?? GeodesicCenter.normal(c)
                    p = unit
                    if q.reaches(unit) { return true }
                }
                return false
            }
        }
    }

    private func search(
        _ lo: Int, _ hi: Int, _ q: (Double, Double, Double), _ chord: Double, _ chord2: Double,
        _ visit: (Int, (Double, Double, Double)) -> Void
    ) {
        guard lo < hi else { return }
        if hi - lo <= leafSize {
            for k in lo..<hi { check(k, q, chord2, visit) }
            return
        }
        let mid = (lo + hi) / 2
        let axis = axes[mid]
        let split = component(points[mid], axis)
        let value = component(q, axis)
        check(mid, q, chord2, visit)
        if value - chord <= split { search(lo, mid, q, chord, chord2, visit) }
        if value + chord >= split { search(mid + 1, hi, q, chord, chord2, visit) }
    }

    @inline(__always)
    private func check(
        _ k: Int, _ q: (Double, Double, Double), _ chord2: Double, _ visit: (Int, (Double, Double, Double)) -> Void
    ) {
        let p = points[k]
        let dx = p.0 - q.0
        let dy = p.1 - q.1
        let dz = p.2 - q.2
        if dx * dx + dy * dy + dz * dz <= chord2 { visit(Int(order[k]), p) }
    }

    /// The `k` positions nearest to `center` by geodesic distance, nearest first (ties by index).
    public func nearest(_ k: Int, to center: Coordinate) -> [Match] {
        guard k > 0, !coordinates.isEmpty else { return [] }
        // The k nearest on the sphere give an upper bound for the k-th geodesic distance; every position
        // within that bound is then measured exactly.
        let q = GeodesicCenter.normal(center)
        var best: [(Double, Int)] = []  // (chord², index), the k smallest so far, sorted
        func consider(_ node: Int) {
            let p = points[node]
            let i = Int(order[node])
            let d = (p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)
            if best.count < k || d < best[best.count - 1].0 {
                let at = best.firstIndex { $0.0 > d } ?? best.count
                best.insert((d, i), at: at)
                if best.count > k { best.removeLast() }
            }
        }
        func walk(_ lo: Int, _ hi: Int) {
            guard lo < hi else { return }
            if hi - lo <= leafSize {
                for j in lo..<hi { consider(j) }
                return
            }
            let mid = (lo + hi) / 2
            let axis = axes[mid]
            let diff = component(q, axis) - component(points[mid], axis)
            consider(mid)
            let (near, far) = diff <= 0 ? ((lo, mid), (mid + 1, hi)) : ((mid + 1, hi), (lo, mid))
            walk(near.0, near.1)
            if best.count < k || diff * diff <= best[best.count - 1].0 { walk(far.0, far.1) }
        }
        walk(0, coordinates.count)
        let geodesics = GeodesicCenter(center)
        let bound = best.map { geodesics.inverse(to: coordinates[$0.1]).distanceMeters }.max() ?? 0
        return Array(positions(within: bound, of: center).prefix(k))
    }

    /// What ``positions(within:of:)`` answers, by measuring every position: the reference the index is
    /// checked against.
    package static func scan(_ coordinates: [Coordinate], within radiusMeters: Double, of center: Coordinate) -> [Match]
    {
        var result: [Match] = []
        let geodesics = GeodesicCenter(center)
        for (i, c) in coordinates.enumerated() {
            measure(geodesics.inverse(to: c), index: i, within: radiusMeters, into: &result)
        }
        return sorted(result)
    }

    /// The 16-point compass name of a bearing in degrees (N, NNE, NE, …).
    package static func compassPoint(_ bearingDegrees: Double) -> String {
        compassPoints[compassPointIndex(bearingDegrees)].description
    }

    /// ``compassPoint(_:)``'s name, appended without a string in between.
    package static func appendCompassPoint(_ bearingDegrees: Double, to buffer: inout ByteBuffer) {
        buffer.append(compassPoints[compassPointIndex(bearingDegrees)])
    }

    /// The 16 points of the compass, from north clockwise.
    private static let compassPoints: [StaticString] = [
        "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
    ]

    /// The nearest of the 16 compass points to a bearing (0 north, clockwise).
    private static func compassPointIndex(_ bearingDegrees: Double) -> Int {
        // A search's bearings are 0…360 already: no remainders for them, only the rounding of b + 360 that
        // the remainders would make (exact: (b + 360) − 360 is representable).
        let b =
            bearingDegrees >= 0 && bearingDegrees < 360
            ? (bearingDegrees + 360) - 360
            : (bearingDegrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        // Halves up (b ≥ 0): the whole part, and one more from a fraction of a half or more (exact below 2^52).
        let x = b / 22.5
        let whole = Int(x)
        return (x - Double(whole) >= 0.5 ? whole + 1 : whole) % 16
    }
}

/// The implicit k-d tree being built: `order` holds the positions' indices and `points` their unit vectors,
/// moved together (so that the build and the searches read the vectors in sequence); after the build the
/// median of every range on its axis of largest spread sits at the range's middle (its axis in `axes`).
///
/// The two halves of a range are disjoint parts of the buffers, so the top levels are built on all cores.
private struct Tree: @unchecked Sendable {
    let points: UnsafeMutableBufferPointer<(Double, Double, Double)>
    let order: UnsafeMutableBufferPointer<Int32>
    let axes: UnsafeMutableBufferPointer<UInt8>
    let leafSize: Int

    @inline(__always) private func component(_ p: (Double, Double, Double), _ axis: UInt8) -> Double {
        axis == 0 ? p.0 : axis == 1 ? p.1 : p.2
    }

    /// Builds the tree over order[lo..<hi]: the median on the axis of largest spread at mid; ranges of more
    /// than 100,000 positions build their halves in parallel.
    func build(_ lo: Int, _ hi: Int) {
        guard hi - lo > leafSize else { return }
        var low = (Double.infinity, Double.infinity, Double.infinity)
        var high = (-Double.infinity, -Double.infinity, -Double.infinity)
        for k in lo..<hi {
            let p = points[k]
            low = (min(low.0, p.0), min(low.1, p.1), min(low.2, p.2))
            high = (max(high.0, p.0), max(high.1, p.1), max(high.2, p.2))
        }
        let spread = (high.0 - low.0, high.1 - low.1, high.2 - low.2)
        let axis: UInt8 = spread.0 >= spread.1 && spread.0 >= spread.2 ? 0 : spread.1 >= spread.2 ? 1 : 2
        let mid = (lo + hi) / 2
        select(lo, hi, mid, axis)
        axes[mid] = axis
        if hi - lo > 100_000 && processorCount > 1 {
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                if half == 0 { build(lo, mid) } else { build(mid + 1, hi) }
            }
        } else {
            build(lo, mid)
            build(mid + 1, hi)
        }
    }

    /// Quickselect on order[lo..<hi] so that order[k] holds the k-th smallest along `axis`.
    private func select(_ lo: Int, _ hi: Int, _ k: Int, _ axis: UInt8) {
        var lo = lo
        var hi = hi - 1
        while lo < hi {
            let pivot = component(points[(lo + hi) / 2], axis)
            var i = lo
            var j = hi
            while i <= j {
                while component(points[i], axis) < pivot { i += 1 }
                while component(points[j], axis) > pivot { j -= 1 }
                if i <= j {
                    order.swapAt(i, j)
                    points.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { return }
        }
    }
}
