/// A small SVG builder: elements are appended as text with fixed number formatting (one decimal by
/// default), so that the same drawing gives the same bytes and golden-file tests are meaningful.
package struct SVGWriter {
    private var body = ""
    /// The drawing's size in pixels.
    package let width: Double
    package let height: Double

    package init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A number with at most `decimals` decimals and no trailing zeros (`12.5`, `3`, `-0.25`), never `-0`
    /// (``DecimalText/compact(_:decimals:)``).
    package static func number(_ value: Double, decimals: Int = 1) -> String {
        DecimalText.compact(value, decimals: decimals)
    }

    /// Text escaped for element content and attribute values (``XMLText``).
    package static func escape(_ text: String) -> String {
        XMLText.escaped(text)
    }

    /// Appends raw markup (already escaped).
    package mutating func raw(_ markup: String) {
        body += markup
        body += "\n"
    }

    /// A `path` with `d` built from points: M x y L x y ….
    package mutating func path(_ points: [(Double, Double)], closed: Bool = false, attributes: String) {
        guard let first = points.first else { return }
        var d = "M\(Self.number(first.0)) \(Self.number(first.1))"
        for p in points.dropFirst() { d += "L\(Self.number(p.0)) \(Self.number(p.1))" }
        if closed { d += "Z" }
        raw("<path d=\"\(d)\" \(attributes)/>")
    }

    /// A line from (x1, y1) to (x2, y2).
    package mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, attributes: String) {
        raw(
            "<line x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" x2=\"\(Self.number(x2))\" "
                + "y2=\"\(Self.number(y2))\" \(attributes)/>"
        )
    }

    /// Text at (x, y); `content` is escaped here.
    package mutating func text(_ content: String, x: Double, y: Double, attributes: String = "") {
        raw(
            "<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\"\(attributes.isEmpty ? "" : " " + attributes)>"
                + "\(Self.escape(content))</text>"
        )
    }

    /// A rectangle.
    package mutating func rect(x: Double, y: Double, width: Double, height: Double, attributes: String) {
        raw(
            "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(width))\" "
                + "height=\"\(Self.number(height))\" \(attributes)/>"
        )
    }

    /// A circle.
    package mutating func circle(x: Double, y: Double, radius: Double, attributes: String) {
        raw("<circle cx=\"\(Self.number(x))\" cy=\"\(Self.number(y))\" r=\"\(Self.number(radius))\" \(attributes)/>")
    }

    /// The whole document, with `title` as its accessible name.
    package func document(title: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" \
        width="\(Self.number(width, decimals: 0))" height="\(Self.number(height, decimals: 0))" \
        viewBox="0 0 \(Self.number(width, decimals: 0)) \(Self.number(height, decimals: 0))" \
        font-family="DejaVu Sans, Helvetica, Arial, Noto Color Emoji, Apple Color Emoji, Segoe UI Emoji, sans-serif" \
        role="img">
        <title>\(Self.escape(title))</title>
        \(body)</svg>

        """
    }

    /// "Nice" tick values covering `low`…`high` with about `count` steps of 1, 2 or 5 × 10^k.
    package static func ticks(from low: Double, to high: Double, count: Int) -> [Double] {
        guard high > low, count > 0 else { return [low] }
        let raw = (high - low) / Double(count)
        var magnitude = 1.0
        while magnitude * 10 <= raw { magnitude *= 10 }
        while magnitude > raw { magnitude /= 10 }
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? magnitude * 10
        var value = (low / step).rounded(.up) * step
        var result: [Double] = []
        while value <= high + step * 1e-9 {
            result.append(value)
            value += step
        }
        return result
    }
}
