import Glibc

/// An SVG map of tracks with their control points: a transverse Mercator centred on the data (PROJ), north
/// up, true aspect, a margin; each line simplified with GEOS to within a quarter of a pixel; a graticule with
/// degree labels, a geodesic scale bar, a north arrow, start and finish markers, control points as
/// numbered markers with names, clubrooms as labelled squares (labels kept from overlapping: those that
/// find no free place are left out and counted), a legend and a title.
public struct TrackMap {
    /// A line to draw: a track (its segments) with a name.
    public struct Line: Sendable {
        /// The line's name, for the legend.
        public var name: String
        /// Its segments, each a run of positions.
        public var segments: [[Coordinate]]
        public init(name: String, segments: [[Coordinate]]) {
            self.name = name
            self.segments = segments
        }

        /// A track's segments, under `name`.
        public init(track: Track, name: String) {
            self.init(name: name, segments: track.segments.map { $0.points.map(\.coordinate) })
        }
    }

    /// A numbered marker.
    public struct Marker: Sendable {
        /// The name written beside the marker.
        public var label: String
        /// Where it is.
        public var coordinate: Coordinate
        /// The number to show (a control point's own number); nil: its place in the list, from 1.
        public var number: Int?
        public init(label: String, coordinate: Coordinate, number: Int? = nil) {
            self.label = label
            self.coordinate = coordinate
            self.number = number
        }
    }

    /// The map's size in pixels.
    public var width: Double
    public var height: Double
    /// The projection; a transverse Mercator centred on the data unless Web Mercator is asked for.
    public var projectionKind = MapProjection.Kind.transverseMercator
    /// An elevation model to shade the ground with (``Relief``), under the lines; none by default.
    public var relief: ElevationModel?
    static let palette = ["#c0392b", "#2471a3", "#229954", "#8e44ad", "#d68910", "#17a589", "#a04000", "#2e4053"]

    public init(width: Double = 1200, height: Double = 800) {
        self.width = width
        self.height = height
    }

    /// A search around a position: the position and the geodesic circle of the radius.
    public struct Search: Sendable {
        /// The position searched from.
        public var center: Coordinate
        /// The search radius, metres, drawn as the true geodesic circle.
        public var radiusMeters: Double
        public init(center: Coordinate, radiusMeters: Double) {
            self.center = center
            self.radiusMeters = radiusMeters
        }

        /// The circle: 360 points at the radius from the centre (`geod_direct`), a true geodesic circle.
        var circle: [Coordinate] {
            (0...360).map {
                Geodesic.wgs84.destination(from: center, azimuthDegrees: Double($0), distanceMeters: radiusMeters)
            }
        }
    }

    /// The SVG text of the map.
    public func render(
        title: String, subtitle: String? = nil, lines: [Line], markers: [Marker], clubrooms: [Marker] = [],
        search: Search? = nil,
        idPrefix: String = "map"
    ) throws -> String {
        let all =
            lines.flatMap { $0.segments.flatMap { $0 } } + markers.map(\.coordinate) + clubrooms.map(\.coordinate)
            + (search?.circle ?? []) + (search.map { [$0.center] } ?? [])
        guard let first = all.first else {
            var empty = SVGWriter(width: width, height: height)
            empty.text("Nothing to draw", x: width / 2, y: height / 2, attributes: "text-anchor=\"middle\"")
            return empty.document(title: title)
        }
        var bounds = Bounds(first)
        for c in all { bounds.include(c) }
        let center =
            search?.center
            ?? Coordinate(latitude: (bounds.south + bounds.north) / 2, longitude: (bounds.west + bounds.east) / 2)
        let projection = try MapProjection(center: center, kind: projectionKind)
        let projectedLines = lines.map { $0.segments.map { $0.compactMap { projection.project($0) } } }
        let projectedCircle = (search?.circle ?? []).compactMap { projection.project($0) }
        let frame = Frame(
            width: width, height: height, projection: projection,
            fitting: projectedLines.flatMap { $0.flatMap { $0 } } + projectedCircle
                + (markers + clubrooms).compactMap { projection.project($0.coordinate) })
        var svg = SVGWriter(width: width, height: height)
        svg.rect(x: 0, y: 0, width: width, height: height, attributes: "fill=\"#fbfaf6\"")
        drawGraticule(
            bounds: bounds, projection: projection, screen: frame.screen, top: frame.top, bottom: frame.bottom,
            margin: frame.margin, idPrefix: idPrefix, into: &svg)
        try drawRelief(frame: frame, projection: projection, center: center, into: &svg)
        drawTitle(title, subtitle: subtitle, frame: frame, into: &svg)
        drawSearch(search, circle: projectedCircle, frame: frame, into: &svg)
        var labels = LabelPlacer(bounds: (2, frame.top - 10, width - 2, height - frame.bottom + 10))
        try drawLines(projectedLines, frame: frame, labels: &labels, into: &svg)
        drawMarkers(markers, frame: frame, labels: &labels, into: &svg)
        drawClubrooms(clubrooms, frame: frame, labels: &labels, into: &svg)
        if let search, let c = frame.screen(search.center) {
            svg.raw(
                "<path d=\"M\(SVGWriter.number(c.0 - 7)) \(SVGWriter.number(c.1))L\(SVGWriter.number(c.0 + 7)) "
                    + "\(SVGWriter.number(c.1))"
                    + "M\(SVGWriter.number(c.0)) \(SVGWriter.number(c.1 - 7))L\(SVGWriter.number(c.0)) "
                    + "\(SVGWriter.number(c.1 + 7))\" "
                    + "stroke=\"#111\" stroke-width=\"2.5\"/>")
        }
        MapDecorations.scaleBar(
            center: center, projection: projection, pixelsPerMeter: frame.scale, x: frame.margin, y: height - 22,
            targetPixels: width / 6, into: &svg)
        MapDecorations.northArrow(x: width - frame.margin + 10, y: height - 40, into: &svg)
        drawLegend(lines: lines, markers: !markers.isEmpty, clubrooms: !clubrooms.isEmpty, search: search, into: &svg)
        if labels.dropped > 0 {
            svg.text(
                "\(labels.dropped) label\(labels.dropped == 1 ? "" : "s") left out where they would overlap",
                x: width - frame.margin, y: height - 6, attributes: "font-size=\"10\" fill=\"#777\" text-anchor=\"end\""
            )
        }
        return svg.document(title: title)
    }

    /// The shaded relief of ``relief`` over the plot, a cell every two pixels, as an embedded PNG image.
    private func drawRelief(
        frame: Frame, projection: MapProjection, center: Coordinate, into svg: inout SVGWriter
    ) throws {
        guard let relief else { return }
        // The graticule's frame.
        let (x, y) = (frame.margin - 14, frame.top - 14)
        let (w, h) = (width - 2 * frame.margin + 28, height - frame.bottom - frame.top + 32)
        let cell = 2.0
        let (columns, rows) = (Int(w / cell), Int(h / cell))
        // Ground metres a cell: Web Mercator's metres are 1 / cos(latitude) ground metres.
        let groundPerProjected = projectionKind == .webMercator ? cos(center.latitude * .pi / 180) : 1
        let image = try Relief.png(
            from: relief, columns: columns, rows: rows, metresPerCell: cell / frame.scale * groundPerProjected
        ) { column, row in
            let p = frame.projected(x + (Double(column) + 0.5) * cell, y + (Double(row) + 0.5) * cell)
            return projection.unproject(x: p.x, y: p.y)
        }
        guard let image, let text = Relief.base64(image) else { return }
        svg.raw(
            "<image x=\"\(SVGWriter.number(x))\" y=\"\(SVGWriter.number(y))\" "
                + "width=\"\(SVGWriter.number(Double(columns) * cell))\" "
                + "height=\"\(SVGWriter.number(Double(rows) * cell))\" preserveAspectRatio=\"none\" "
                + "href=\"data:image/png;base64,\(text)\"/>")
    }

    private func drawTitle(_ title: String, subtitle: String?, frame: Frame, into svg: inout SVGWriter) {
        svg.text(title, x: frame.margin, y: 30, attributes: "font-size=\"18\" font-weight=\"bold\" fill=\"#222\"")
        if let subtitle { svg.text(subtitle, x: frame.margin, y: 48, attributes: "font-size=\"12\" fill=\"#555\"") }
    }

    /// The search's circle, dashed (drawn under everything but the graticule).
    private func drawSearch(
        _ search: Search?, circle: [(x: Double, y: Double)], frame: Frame, into svg: inout SVGWriter
    ) {
        guard search != nil, !circle.isEmpty else { return }
        svg.path(
            circle.map(frame.screen), closed: true,
            attributes: "fill=\"#dfeaf5\" fill-opacity=\"0.6\" stroke=\"#2f6db3\" stroke-width=\"1.5\" "
                + "stroke-dasharray=\"6 4\"")
    }

    /// Where the data lands on the map: the projected data fitted into the frame between the margins, the
    /// title band and the legend band, true to scale in both directions.
    private struct Frame {
        let margin = 50.0, top = 64.0, bottom = 70.0
        let scale: Double
        private let projection: MapProjection
        private let minX: Double, maxY: Double, offsetX: Double, offsetY: Double

        init(width: Double, height: Double, projection: MapProjection, fitting points: [(x: Double, y: Double)]) {
            self.projection = projection
            var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
            for p in points {
                minX = min(minX, p.x)
                maxX = max(maxX, p.x)
                minY = min(minY, p.y)
                maxY = max(maxY, p.y)
            }
            let spanX = max(maxX - minX, 100), spanY = max(maxY - minY, 100)
            scale = min((width - 2 * margin) / spanX, (height - top - bottom) / spanY)
            offsetX = margin + ((width - 2 * margin) - (maxX - minX) * scale) / 2
            offsetY = top + ((height - top - bottom) - (maxY - minY) * scale) / 2
            self.minX = minX
            self.maxY = maxY
        }

        func screen(_ p: (x: Double, y: Double)) -> (Double, Double) {
            (offsetX + (p.x - minX) * scale, offsetY + (maxY - p.y) * scale)
        }

        /// The projected position drawn at screen position `x`, `y`.
        func projected(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
            (minX + (x - offsetX) / scale, maxY - (y - offsetY) / scale)
        }

        /// Where `c` is drawn; nil when the projection cannot place it.
        func screen(_ c: Coordinate) -> (Double, Double)? {
            projection.project(c).map(screen)
        }
    }

    /// The lines, simplified to a quarter of a pixel, each with its start and finish (and its number when
    /// there are several).
    private func drawLines(
        _ lines: [[[(x: Double, y: Double)]]], frame: Frame, labels: inout LabelPlacer, into svg: inout SVGWriter
    ) throws {
        let simplifier = try LineSimplifier()
        for (k, segments) in lines.enumerated() {
            let color = Self.palette[k % Self.palette.count]
            for segment in segments where segment.count >= 2 {
                let simple = try simplifier.simplify(segment.map(frame.screen), tolerance: 0.25)
                svg.path(
                    simple,
                    attributes:
                        "fill=\"none\" stroke=\"#fff\" stroke-width=\"5\" stroke-linejoin=\"round\" "
                        + "stroke-linecap=\"round\""
                )
                svg.path(
                    simple,
                    attributes:
                        "fill=\"none\" stroke=\"\(color)\" stroke-width=\"2.5\" stroke-linejoin=\"round\" "
                        + "stroke-linecap=\"round\""
                )
            }
        }
        for (k, segments) in lines.enumerated() {
            guard let start = segments.first(where: { !$0.isEmpty })?.first,
                let end = segments.last(where: { !$0.isEmpty })?.last
            else { continue }
            let s = frame.screen(start), e = frame.screen(end)
            svg.circle(x: s.0, y: s.1, radius: 6, attributes: "fill=\"#2e7d32\" stroke=\"#fff\" stroke-width=\"2\"")
            svg.rect(
                x: e.0 - 5.5, y: e.1 - 5.5, width: 11, height: 11,
                attributes: "fill=\"#111\" stroke=\"#fff\" stroke-width=\"2\"")
            labels.reserve(x: s.0, y: s.1, radius: 7)
            labels.reserve(x: e.0, y: e.1, radius: 7)
            if lines.count > 1 {
                labels.place(
                    "\(k + 1)", x: s.0, y: s.1,
                    attributes: "font-weight=\"bold\" fill=\"\(Self.palette[k % Self.palette.count])\"", into: &svg)
            }
        }
    }

    /// Control points: numbered markers (their own numbers, else their places in the list), names beside them
    /// where there is room.
    private func drawMarkers(_ markers: [Marker], frame: Frame, labels: inout LabelPlacer, into svg: inout SVGWriter) {
        var placed: [(labelShift: Double, Marker, (Double, Double))] = []
        for (n, marker) in markers.enumerated() {
            guard let s = frame.screen(marker.coordinate) else { continue }
            let number = String(marker.number ?? n + 1)
            let wide = number.count > 2  // three digits need a larger circle and smaller type
            svg.circle(
                x: s.0, y: s.1, radius: wide ? 9.5 : 8,
                attributes: "fill=\"#1b5fa8\" stroke=\"#fff\" stroke-width=\"1.5\"")
            svg.text(
                number, x: s.0, y: s.1 + (wide ? 3 : 3.5),
                attributes:
                    "font-size=\"\(wide ? "8.5" : "10")\" font-weight=\"bold\" fill=\"#fff\" text-anchor=\"middle\"")
            labels.reserve(x: s.0, y: s.1, radius: wide ? 10.5 : 9)
            placed.append((wide ? 2 : 0, marker, s))
        }
        for (shift, marker, s) in placed {
            labels.place(marker.label, x: s.0 + 4 + shift, y: s.1, attributes: "fill=\"#1b3f6b\"", into: &svg)
        }
    }

    /// Clubrooms: small squares, labelled after the control points where room is left.
    private func drawClubrooms(
        _ clubrooms: [Marker], frame: Frame, labels: inout LabelPlacer, into svg: inout SVGWriter
    ) {
        var placed: [(Marker, (Double, Double))] = []
        for room in clubrooms {
            guard let s = frame.screen(room.coordinate) else { continue }
            svg.rect(
                x: s.0 - 4, y: s.1 - 4, width: 8, height: 8,
                attributes: "fill=\"#e67e22\" stroke=\"#fff\" stroke-width=\"1\"")
            labels.reserve(x: s.0, y: s.1, radius: 5)
            placed.append((room, s))
        }
        for (room, s) in placed {
            labels.place(room.label, x: s.0, y: s.1, fontSize: 10, attributes: "fill=\"#7a4a12\"", into: &svg)
        }
    }

    /// The legend along the bottom: start and finish, the search circle, control points, clubrooms, and the
    /// lines by number when there are several (as many as there is room for, and how many more).
    private func drawLegend(lines: [Line], markers: Bool, clubrooms: Bool, search: Search?, into svg: inout SVGWriter) {
        var lx = 50 + width / 6 + 110
        let ly = height - 28
        func entry(_ text: String, width advance: Double) {
            svg.text(text, x: lx + 9, y: ly + 4, attributes: "font-size=\"11\" fill=\"#444\"")
            lx += advance
        }
        if !lines.isEmpty {
            svg.circle(x: lx, y: ly, radius: 5, attributes: "fill=\"#2e7d32\"")
            entry("start", width: 50)
            svg.rect(x: lx - 5, y: ly - 5, width: 10, height: 10, attributes: "fill=\"#111\"")
            entry("finish", width: 54)
        }
        if let search {
            svg.text(
                "+ the position, dashed: \(SVGWriter.number(search.radiusMeters / 1000, decimals: 1)) km around it",
                x: lx, y: ly + 4,
                attributes: "font-size=\"11\" fill=\"#444\"")
            lx += 230
        }
        if markers {
            svg.circle(x: lx, y: ly, radius: 6, attributes: "fill=\"#1b5fa8\"")
            svg.text("control point", x: lx + 10, y: ly + 4, attributes: "font-size=\"11\" fill=\"#444\"")
            lx += 96
        }
        if clubrooms {
            svg.rect(x: lx - 4, y: ly - 4, width: 8, height: 8, attributes: "fill=\"#e67e22\"")
            entry("clubroom", width: 72)
        }
        guard lines.count > 1 else { return }
        // As many lines as there is room for (at most eight), and how many more there are.
        var shown = 0
        for (k, line) in lines.enumerated().prefix(8) {
            let name = line.name.count > 18 ? String(line.name.prefix(17)) + "…" : line.name
            let advance = 30 + Double(name.count + 3) * 6.2
            guard shown == 0 || lx + advance < width - 90 else { break }
            svg.line(
                lx, ly, lx + 16, ly, attributes: "stroke=\"\(Self.palette[k % Self.palette.count])\" stroke-width=\"3\""
            )
            svg.text("\(k + 1) \(name)", x: lx + 20, y: ly + 4, attributes: "font-size=\"11\" fill=\"#444\"")
            lx += advance
            shown += 1
        }
        if shown < lines.count {
            svg.text("+ \(lines.count - shown) more", x: lx, y: ly + 4, attributes: "font-size=\"11\" fill=\"#444\"")
        }
    }

    /// The graticule's step in degrees (about six lines across the data) and how far it reaches: the frame is
    /// wider or taller than the data when the data's shape differs from the map's, so it reaches as many steps
    /// beyond the data as one step's size on screen says the frame needs (at least one).
    private func graticuleExtent(
        bounds: Bounds, projection: MapProjection, screen: ((x: Double, y: Double)) -> (Double, Double)
    )
        -> (step: Double, west: Double, east: Double, south: Double, north: Double)
    {
        let span = max(bounds.east - bounds.west, bounds.north - bounds.south, 0.001)
        let steps = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 15, 30]
        let step = steps.first { span / $0 <= 6 } ?? 30
        let middle = Coordinate(latitude: (bounds.south + bounds.north) / 2, longitude: (bounds.west + bounds.east) / 2)
        func stepsToFill(_ other: Coordinate) -> Double {
            guard let a = projection.project(middle), let b = projection.project(other) else { return 1 }
            let (ax, ay) = screen(a), (bx, by) = screen(b)
            let pixels = max(abs(bx - ax), abs(by - ay))
            return pixels > 0 ? min(((width + height) / pixels).rounded(.up), 100) : 1
        }
        let padLon =
            step * max(1, stepsToFill(Coordinate(latitude: middle.latitude, longitude: middle.longitude + step)))
        let padLat =
            step
            * max(1, stepsToFill(Coordinate(latitude: min(middle.latitude + step, 89.9), longitude: middle.longitude)))
        return (
            step, bounds.west - padLon, bounds.east + padLon, max(bounds.south - padLat, -89.9),
            min(bounds.north + padLat, 89.9)
        )
    }

    /// The frame the graticule is clipped to: a little larger than the plot.
    private typealias Box = (x: Double, y: Double, w: Double, h: Double)

    /// A line's points from the last one before `box` to the first one after it: the rest is clipped anyway.
    private static func inside(_ box: Box, _ points: [(Double, Double)]) -> [(Double, Double)] {
        let inside = points.indices.filter {
            points[$0].0 >= box.x && points[$0].0 <= box.x + box.w && points[$0].1 >= box.y
                && points[$0].1 <= box.y + box.h
        }
        guard let first = inside.first, let last = inside.last else { return points }
        return Array(points[max(first - 1, 0)...min(last + 1, points.count - 1)])
    }

    /// Meridians and parallels at a round step in degrees, with labels at the map's edges.
    private func drawGraticule(
        bounds: Bounds, projection: MapProjection, screen: ((x: Double, y: Double)) -> (Double, Double),
        top: Double, bottom: Double, margin: Double, idPrefix: String, into svg: inout SVGWriter
    ) {
        let (step, west, east, south, north) = graticuleExtent(bounds: bounds, projection: projection, screen: screen)
        let decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3
        func label(_ v: Double, _ positive: String, _ negative: String) -> String {
            "\(SVGWriter.number(abs(v), decimals: decimals))°\(v < 0 ? negative : positive)"
        }
        let style = "fill=\"none\" stroke=\"#d9d4c7\" stroke-width=\"0.8\" clip-path=\"url(#\(idPrefix)-frame)\""
        let box: Box = (x: margin - 14, y: top - 14, w: width - 2 * margin + 28, h: height - bottom - top + 32)
        svg.raw(
            "<clipPath id=\"\(idPrefix)-frame\"><rect x=\"\(SVGWriter.number(box.x))\" "
                + "y=\"\(SVGWriter.number(box.y))\" width=\"\(SVGWriter.number(box.w))\" "
                + "height=\"\(SVGWriter.number(box.h))\"/></clipPath>"
        )
        var texts: [(String, Double, Double, String)] = []
        // Meridians, labelled along the bottom.
        for lon in stride(from: (west / step).rounded(.up) * step, through: east, by: step) {
            let points = (0...40).compactMap {
                projection.project(Coordinate(latitude: south + (north - south) * Double($0) / 40, longitude: lon))
            }.map(screen)
            guard points.filter({ $0.0 >= margin && $0.0 <= width - margin }).count >= 2 else { continue }
            svg.path(Self.inside(box, points), attributes: style)
            let labelY = height - bottom + 18
            if let p = points.min(by: { abs($0.1 - labelY) < abs($1.1 - labelY) }), p.0 > margin, p.0 < width - margin {
                texts.append((label(lon, "E", "W"), p.0, height - bottom + 30, " text-anchor=\"middle\""))
            }
        }
        // Parallels, labelled along the left edge.
        for lat in stride(from: (south / step).rounded(.up) * step, through: north, by: step) {
            let points = (0...40).compactMap {
                projection.project(Coordinate(latitude: lat, longitude: west + (east - west) * Double($0) / 40))
            }.map(screen)
            guard points.filter({ $0.1 >= top && $0.1 <= height - bottom }).count >= 2 else { continue }
            svg.path(Self.inside(box, points), attributes: style)
            if let p = points.min(by: { abs($0.0 - box.x) < abs($1.0 - box.x) }), p.1 > top, p.1 < height - bottom {
                texts.append((label(lat, "N", "S"), box.x + 3, p.1 - 3, ""))
            }
        }
        for (text, x, y, extra) in texts {
            svg.text(text, x: x, y: y, attributes: "font-size=\"10\" fill=\"#8a8372\"" + extra)
        }
        svg.rect(
            x: box.x, y: box.y, width: box.w, height: box.h,
            attributes: "fill=\"none\" stroke=\"#bdb6a4\" stroke-width=\"1\"")
    }
}
