/// Pieces shared by the maps: label placement without overlaps, a geodesic scale bar, a north arrow.
struct LabelPlacer {
    private var boxes: [(Double, Double, Double, Double)] = []
    let bounds: (Double, Double, Double, Double)
    /// Labels that found no free place.
    private(set) var dropped = 0

    init(bounds: (Double, Double, Double, Double)) {
        self.bounds = bounds
    }

    /// Keeps the area free (a marker).
    mutating func reserve(x: Double, y: Double, radius: Double) {
        boxes.append((x - radius, y - radius, x + radius, y + radius))
    }

    /// Places `label` beside (x, y): right, left, above or below, the first place that is free; draws it.
    mutating func place(
        _ label: String, x: Double, y: Double, fontSize: Double = 11, attributes: String, into svg: inout SVGWriter
    ) {
        let width = Double(label.count) * fontSize * 0.56
        let candidates: [(Double, Double, String)] = [
            (x + 7, y + 4, "start"), (x - 7, y + 4, "end"), (x, y - 8, "middle"), (x, y + 16, "middle"),
        ]
        for (tx, ty, anchor) in candidates {
            let left = anchor == "start" ? tx : anchor == "end" ? tx - width : tx - width / 2
            let box = (left, ty - fontSize + 1, left + width, ty + 3)
            guard box.0 >= bounds.0, box.2 <= bounds.2, box.1 >= bounds.1, box.3 <= bounds.3 else { continue }
            if boxes.contains(where: { !($0.2 < box.0 || box.2 < $0.0 || $0.3 < box.1 || box.3 < $0.1) }) { continue }
            boxes.append(box)
            svg.text(
                label, x: tx, y: ty,
                attributes: "font-size=\"\(SVGWriter.number(fontSize))\" text-anchor=\"\(anchor)\" \(attributes)")
            return
        }
        dropped += 1
    }
}

enum MapDecorations {
    /// A scale bar at (x, y) whose length is a round geodesic distance near `targetPixels`, measured east
    /// of `center` and drawn with the projection's own scale there.
    static func scaleBar(
        center: Coordinate, projection: MapProjection, pixelsPerMeter: Double, x: Double, y: Double,
        targetPixels: Double, into svg: inout SVGWriter
    ) {
        let target = targetPixels / pixelsPerMeter
        var magnitude = 1.0
        while magnitude * 10 <= target { magnitude *= 10 }
        let length = [5.0, 2, 1].map { $0 * magnitude }.first { $0 <= target } ?? magnitude
        guard let origin = projection.project(center),
            let east = projection.project(
                Geodesic.wgs84.destination(from: center, azimuthDegrees: 90, distanceMeters: length))
        else { return }
        let dx = east.x - origin.x, dy = east.y - origin.y
        let pixels = (dx * dx + dy * dy).squareRoot() * pixelsPerMeter
        svg.rect(x: x, y: y - 6, width: pixels, height: 6, attributes: "fill=\"#333\"")
        svg.rect(
            x: x + pixels / 2, y: y - 6, width: pixels / 2, height: 6,
            attributes: "fill=\"#fff\" stroke=\"#333\" stroke-width=\"1\"")
        let label =
            length >= 1000
            ? "\(SVGWriter.number(length / 1000, decimals: 1)) km" : "\(SVGWriter.number(length, decimals: 0)) m"
        svg.text(label, x: x + pixels + 8, y: y, attributes: "font-size=\"12\" fill=\"#333\"")
    }

    /// A north arrow with its tip at (x, y − 22).
    static func northArrow(x: Double, y: Double, into svg: inout SVGWriter) {
        svg.raw(
            "<path d=\"M\(SVGWriter.number(x)) \(SVGWriter.number(y - 22))L\(SVGWriter.number(x + 7)) "
                + "\(SVGWriter.number(y))L\(SVGWriter.number(x)) "
                + "\(SVGWriter.number(y - 5))L\(SVGWriter.number(x - 7)) \(SVGWriter.number(y))Z\" fill=\"#333\"/>"
        )
        svg.text(
            "N", x: x, y: y - 26,
            attributes: "font-size=\"12\" font-weight=\"bold\" fill=\"#333\" text-anchor=\"middle\"")
    }
}
