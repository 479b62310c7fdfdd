/// A map of a search around a position: the position, the geodesic circle of the radius, the clubrooms
/// found (labelled by name, labels kept from overlapping), a scale bar and a north arrow.
///
/// Drawn in a transverse Mercator centred on the position (``MapProjection``), north up, true aspect. The
/// circle is a true geodesic circle: 360 points at the radius from the position (`geod_direct`), not a
/// circle drawn in the projection.
public struct NearMap {
    /// A place to mark.
    public struct Place: Hashable, Sendable {
        public var label: String
        public var coordinate: Coordinate
        public init(label: String, coordinate: Coordinate) {
            self.label = label
            self.coordinate = coordinate
        }
    }

    public var width: Double
    public var height: Double

    public init(width: Double = 900, height: Double = 900) {
        self.width = width
        self.height = height
    }

    /// The SVG text of the map.
    ///
    /// - Throws: ``ProjectionError`` when the projection cannot be set up.
    public func render(center: Coordinate, radiusMeters: Double, places: [Place], title: String) throws -> String {
        let projection = try MapProjection(center: center)
        let circle = (0...360).map { Geodesic.wgs84.destination(from: center, azimuthDegrees: Double($0), distanceMeters: radiusMeters) }
        let projectedCircle = circle.compactMap { projection.project($0) }
        let projectedPlaces = places.map { projection.project($0.coordinate) }
        var minX = 0.0, maxX = 0.0, minY = 0.0, maxY = 0.0
        for p in projectedCircle + projectedPlaces.compactMap({ $0 }) {
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let margin = 40.0, top = 56.0, bottom = 60.0
        let spanX = max(maxX - minX, 1), spanY = max(maxY - minY, 1)
        let scale = min((width - 2 * margin) / spanX, (height - top - bottom) / spanY)
        let offsetX = margin + ((width - 2 * margin) - spanX * scale) / 2
        let offsetY = top + ((height - top - bottom) - spanY * scale) / 2
        func screen(_ p: (x: Double, y: Double)) -> (Double, Double) {
            (offsetX + (p.x - minX) * scale, offsetY + (maxY - p.y) * scale)
        }

        var svg = SVGWriter(width: width, height: height)
        svg.rect(x: 0, y: 0, width: width, height: height, attributes: "fill=\"#f7f5ef\"")
        svg.text(title, x: margin, y: 30, attributes: "font-size=\"17\" font-weight=\"bold\" fill=\"#222\"")
        svg.text("\(places.count) clubroom\(places.count == 1 ? "" : "s") within \(SVGWriter.number(radiusMeters / 1000, decimals: 1)) km",
                 x: margin, y: 48, attributes: "font-size=\"12\" fill=\"#555\"")
        svg.path(projectedCircle.map(screen), closed: true,
                 attributes: "fill=\"#dfeaf5\" fill-opacity=\"0.6\" stroke=\"#2f6db3\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"")

        // Clubroom markers, then labels placed greedily where they collide with nothing placed before.
        var labels = LabelPlacer(bounds: (2, top, width - 2, height - bottom + 20))
        let centre = screen((0, 0))
        labels.reserve(x: centre.0, y: centre.1, radius: 8)
        var screenPlaces: [(Place, (Double, Double))] = []
        for (place, p) in zip(places, projectedPlaces) {
            guard let p else { continue }
            let s = screen(p)
            svg.circle(x: s.0, y: s.1, radius: 4, attributes: "fill=\"#c0392b\" stroke=\"#fff\" stroke-width=\"1\"")
            labels.reserve(x: s.0, y: s.1, radius: 4)
            screenPlaces.append((place, s))
        }
        for (place, s) in screenPlaces {
            labels.place(place.label, x: s.0, y: s.1, attributes: "fill=\"#333\"", into: &svg)
        }

        // The position.
        svg.raw("<path d=\"M\(SVGWriter.number(centre.0 - 7)) \(SVGWriter.number(centre.1))L\(SVGWriter.number(centre.0 + 7)) \(SVGWriter.number(centre.1))M\(SVGWriter.number(centre.0)) \(SVGWriter.number(centre.1 - 7))L\(SVGWriter.number(centre.0)) \(SVGWriter.number(centre.1 + 7))\" stroke=\"#111\" stroke-width=\"2.5\"/>")

        MapDecorations.scaleBar(center: center, projection: projection, pixelsPerMeter: scale, x: margin, y: height - 26,
                                targetPixels: width / 5, into: &svg)
        MapDecorations.northArrow(x: width - margin, y: height - 44, into: &svg)
        if labels.dropped > 0 {
            svg.text("\(labels.dropped) label\(labels.dropped == 1 ? "" : "s") left out where they would overlap", x: width - margin - 30, y: height - 8,
                     attributes: "font-size=\"10\" fill=\"#777\" text-anchor=\"end\"")
        }
        return svg.document(title: title)
    }
}
