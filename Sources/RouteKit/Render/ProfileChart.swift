import Glibc

/// Draws an ``ElevationProfile`` as an SVG chart: distance (km, or m under 1 km) across, elevation (m) up, a grid
/// at nice numbers, the area under the curve coloured by gradient class with a legend, the highest and lowest
/// points labelled, control points marked, and a title with the name, length, ascent and descent.
///
/// The outline has at most one vertex per pixel of the plot's width (``ElevationProfile/downsampled(to:)``
/// keeps peaks and dips), so a 450,000-point route gives a chart of a few tens of kilobytes.
public struct ProfileChart {
    /// A gradient class: grades (up or down) from `minimumPercent` up to the next class.
    public struct GradientClass: Hashable, Sendable {
        /// The class holds grades from this (up or down, percent) to the next class's.
        public var minimumPercent: Double
        /// How the legend names it (`3–6 %`).
        public var label: String
        /// Its fill colour.
        public var color: String
    }

    /// The classes, by increasing grade.
    public static let classes = [
        GradientClass(minimumPercent: 0, label: "< 3 %", color: "#9ccf7f"),
        GradientClass(minimumPercent: 3, label: "3–6 %", color: "#f1d866"),
        GradientClass(minimumPercent: 6, label: "6–10 %", color: "#f3a14b"),
        GradientClass(minimumPercent: 10, label: "10–15 %", color: "#df5437"),
        GradientClass(minimumPercent: 15, label: "> 15 %", color: "#8f1d3f"),
    ]

    /// A control point to mark: its label and where it lies along the track.
    public struct Marker: Hashable, Sendable {
        /// The name written above the profile.
        public var label: String
        /// Where along the track, metres.
        public var distanceMeters: Double

        public init(label: String, distanceMeters: Double) {
            self.label = label
            self.distanceMeters = distanceMeters
        }
    }

    /// The chart's size in pixels.
    public var width: Double
    public var height: Double

    public init(width: Double = 1000, height: Double = 360) {
        self.width = width
        self.height = height
    }

    /// The length of the stretches the area is coloured by (the average grade of each): a steady climb is one
    /// colour, not a flicker of samples. Longer on long routes, so that a stretch is at least a pixel wide.
    public static let gradeStretchMeters = 200.0

    static func classIndex(_ grade: Double) -> Int {
        let g = abs(grade)
        return classes.lastIndex { g >= $0.minimumPercent } ?? 0
    }

    /// The SVG text of the chart.
    public func render(_ profile: ElevationProfile, markers: [Marker] = []) -> String {
        var svg = SVGWriter(width: width, height: height)
        let left = 64.0
        let top = markers.isEmpty ? 66.0 : 96.0
        let plotWidth = max(width - left - 24, 10)
        let plotHeight = max(height - top - 78, 10)
        let stats = profile.statistics
        let title = profile.name ?? "Elevation profile"
        var subtitle =
            stats.length2DMeters < 1000
            ? "\(DecimalText.grouped(stats.length2DMeters)) m"
            : "\(DecimalText.fixed(stats.length2DMeters / 1000, decimals: 2)) km"
        if let a = stats.ascent {
            subtitle +=
                "  ·  ↑ \(DecimalText.grouped(a.ascentMeters)) m  ·  ↓ \(DecimalText.grouped(a.descentMeters)) m"
        }
        svg.rect(x: 0, y: 0, width: width, height: height, attributes: "fill=\"#ffffff\"")
        svg.text(title, x: left, y: 24, attributes: "font-size=\"17\" font-weight=\"bold\" fill=\"#222\"")
        svg.text(subtitle, x: left, y: 43, attributes: "font-size=\"13\" fill=\"#444\"")
        let points = profile.downsampled(to: Int(plotWidth))
        let elevations = points.map(\.smoothedElevationMeters)
        guard let lowest = elevations.min(), let highest = elevations.max() else {
            svg.text(
                "No elevations in this track", x: left + plotWidth / 2, y: top + plotHeight / 2,
                attributes: "font-size=\"14\" fill=\"#666\" text-anchor=\"middle\"")
            return svg.document(title: title)
        }
        let length = max(profile.samples.last?.distanceMeters ?? 0, stats.length2DMeters, 1)
        let plot = Plot(
            left: left, top: top, width: plotWidth, height: plotHeight, length: length, lowest: lowest, highest: highest
        )
        drawGrid(plot, into: &svg)
        let stretch = max(Self.gradeStretchMeters, length / plotWidth)
        drawArea(points, profile, stretch: stretch, plot, into: &svg)
        drawClimbs(
            profile.climbs(), plot, highest: points.max { $0.smoothedElevationMeters < $1.smoothedElevationMeters },
            into: &svg)
        drawExtremes(points, plot, into: &svg)
        drawMarkers(markers, profile, plot, into: &svg)
        drawLegend(left: left, stretch: stretch, exaggeration: plot.exaggeration, into: &svg)
        return svg.document(title: "\(title): \(subtitle)")
    }

    /// The plot area and its scales: distance across, elevation up, with round ticks and some room above
    /// and below the highest and lowest points.
    private struct Plot {
        let left: Double, top: Double, width: Double, height: Double, length: Double
        let yTicks: [Double]
        let yMin: Double, yMax: Double

        init(left: Double, top: Double, width: Double, height: Double, length: Double, lowest: Double, highest: Double)
        {
            (self.left, self.top, self.width, self.height, self.length) = (left, top, width, height, length)
            let pad = max((highest - lowest) * 0.08, 5)
            yTicks = SVGWriter.ticks(from: lowest - pad, to: highest + pad, count: 5)
            yMin = min(yTicks.first ?? lowest - pad, lowest - pad)
            yMax = max(yTicks.last ?? highest + pad, highest + pad)
        }

        var base: Double { top + height }
        /// How much the elevation axis is stretched against the distance axis.
        var exaggeration: Double { (height / (yMax - yMin)) / (width / length) }
        func x(_ d: Double) -> Double { left + d / length * width }
        func y(_ e: Double) -> Double { top + (yMax - e) / (yMax - yMin) * height }
    }

    /// The grid at round numbers, with the axes' labels.
    private func drawGrid(_ plot: Plot, into svg: inout SVGWriter) {
        for t in plot.yTicks where t >= plot.yMin && t <= plot.yMax {
            svg.line(
                plot.left, plot.y(t), plot.left + plot.width, plot.y(t),
                attributes: "stroke=\"#e3e3e3\" stroke-width=\"1\"")
            svg.text(
                "\(DecimalText.grouped(t))", x: plot.left - 8, y: plot.y(t) + 4,
                attributes: "font-size=\"11\" fill=\"#555\" text-anchor=\"end\"")
        }
        // Kilometres, or metres along a track shorter than one (whose kilometre ticks would all read 0).
        let unit = plot.length < 1000 ? 1.0 : 1000.0
        let xTicks = SVGWriter.ticks(from: 0, to: plot.length / unit, count: max(2, Int(plot.width / 90)))
        let step = xTicks.count > 1 ? xTicks[1] - xTicks[0] : 1
        let decimals = step >= 1 ? 0 : min(3, Int((-log10(step)).rounded(.up)))
        for t in xTicks {
            svg.line(
                plot.x(t * unit), plot.top, plot.x(t * unit), plot.base,
                attributes: "stroke=\"#eeeeee\" stroke-width=\"1\"")
            svg.text(
                SVGWriter.number(t, decimals: max(decimals, 1)), x: plot.x(t * unit), y: plot.base + 16,
                attributes: "font-size=\"11\" fill=\"#555\" text-anchor=\"middle\"")
        }
        svg.text(
            unit == 1 ? "m" : "km", x: plot.left + plot.width, y: plot.base + 31,
            attributes: "font-size=\"11\" fill=\"#555\" text-anchor=\"end\"")
        svg.text(
            "m", x: plot.left - 8, y: plot.top - 8, attributes: "font-size=\"11\" fill=\"#555\" text-anchor=\"end\"")
    }

    /// The area under the curve, coloured by the average grade of each stretch of `stretch` metres (runs of
    /// stretches of one class drawn as one polygon; elevation jumps not counted), the curve and the axes.
    private func drawArea(
        _ points: [ElevationProfile.Sample], _ profile: ElevationProfile, stretch: Double, _ plot: Plot,
        into svg: inout SVGWriter
    ) {
        func elevation(_ d: Double) -> Double { profile.elevation(atDistance: d) ?? 0 }
        let start = points.first?.distanceMeters ?? 0
        let end = points.last?.distanceMeters ?? 0
        // Runs of stretches of one class: from, to, and the class.
        var runs: [(from: Double, to: Double, grade: Int)] = []
        var a = start
        while a < end {
            let b = min(a + stretch, end)
            let rise = (profile.countedElevation(atDistance: b) ?? 0) - (profile.countedElevation(atDistance: a) ?? 0)
            let c = Self.classIndex(rise / max(b - a, 1e-9) * 100)
            if let last = runs.last, last.grade == c { runs[runs.count - 1].to = b } else { runs.append((a, b, c)) }
            a = b
        }
        var k = 0
        for run in runs {
            var outline = [(plot.x(run.from), plot.y(elevation(run.from)))]
            while k < points.count && points[k].distanceMeters <= run.from { k += 1 }
            while k < points.count && points[k].distanceMeters < run.to {
                outline.append((plot.x(points[k].distanceMeters), plot.y(points[k].smoothedElevationMeters)))
                k += 1
            }
            outline.append((plot.x(run.to), plot.y(elevation(run.to))))
            let polygon = outline + [(plot.x(run.to), plot.base), (plot.x(run.from), plot.base)]
            // A hairline of the same colour closes the anti-aliasing seams between neighbouring runs.
            let color = Self.classes[run.grade].color
            svg.path(polygon, closed: true, attributes: "fill=\"\(color)\" stroke=\"\(color)\" stroke-width=\"0.6\"")
        }
        svg.path(
            points.map { (plot.x($0.distanceMeters), plot.y($0.smoothedElevationMeters)) },
            attributes: "fill=\"none\" stroke=\"#333\" stroke-width=\"1.4\" stroke-linejoin=\"round\"")
        svg.line(
            plot.left, plot.base, plot.left + plot.width, plot.base, attributes: "stroke=\"#888\" stroke-width=\"1\"")
        svg.line(plot.left, plot.top, plot.left, plot.base, attributes: "stroke=\"#888\" stroke-width=\"1\"")
    }

    /// Control points: a dashed line up from the profile to the band above the plot, and the name there,
    /// level, in one of two rows: where a name would cover another it goes to the other row, is shortened
    /// with an ellipsis to the room left, or (with no room for three letters) left out; no name leaves the
    /// frame or reaches the title.
    private func drawMarkers(_ markers: [Marker], _ profile: ElevationProfile, _ plot: Plot, into svg: inout SVGWriter)
    {
        let characterWidth = 6.2  // about, at 11 px
        var rowEnds = [-Double.infinity, -Double.infinity]  // where each row's last name ends
        for marker in markers.sorted(by: { $0.distanceMeters < $1.distanceMeters }) {
            let px = plot.x(marker.distanceMeters)
            let py = plot.y(profile.elevation(atDistance: marker.distanceMeters) ?? plot.yMin)
            svg.line(
                px, py, px, plot.top - 4, attributes: "stroke=\"#1b5fa8\" stroke-width=\"1\" stroke-dasharray=\"3 3\"")
            svg.circle(x: px, y: py, radius: 3, attributes: "fill=\"#1b5fa8\"")
            // The name starts at its line, or ends there near the right edge.
            let full = Double(marker.label.count) * characterWidth
            let start = min(px + 3, width - 8 - full)
            // The lower row when it has room, else the upper, else the one whose last name ends first.
            let row = [0, 1].first { rowEnds[$0] + 8 <= start } ?? (rowEnds[0] <= rowEnds[1] ? 0 : 1)
            let from = max(start, rowEnds[row] + 8, 4)
            let room = Int((width - 8 - from) / characterWidth)
            let fitting = from > start ? min(room, Int((px + 3 + full - from) / characterWidth)) : room
            guard fitting >= 3 || fitting >= marker.label.count else { continue }
            let text = marker.label.count <= fitting ? marker.label : String(marker.label.prefix(fitting - 1)) + "…"
            svg.text(
                text, x: from, y: plot.top - 8 - Double(row) * 14,
                attributes: "font-size=\"11\" fill=\"#1b5fa8\"")
            rowEnds[row] = from + Double(text.count) * characterWidth
        }
    }

    /// Each climb: a bracket over its stretch just above its top, labelled "4.2 km · 7.1 % · Cat 2" where the
    /// label fits in the plot over the bracket without covering another label or the highest point (moved along,
    /// or one row higher, when it would; left out otherwise).
    private func drawClimbs(
        _ climbs: [Climb], _ plot: Plot, highest: ElevationProfile.Sample?, into svg: inout SVGWriter
    ) {
        var placed: [(x0: Double, x1: Double, y: Double)] = []
        // The highest point's label (drawn later, above the point) and its marker are taken already.
        if let highest {
            let px = plot.x(highest.distanceMeters)
            let py = plot.y(highest.smoothedElevationMeters)
            let half = Double(DecimalText.grouped(highest.smoothedElevationMeters).count + 4) * 3.6
            let center = px > plot.left + plot.width - 60 ? px - half : px < plot.left + 60 ? px + half : px
            placed.append((center - half, center + half, py - 9))
            // A label whose baseline lies within 11 px of this would cover the marker's circle.
            placed.append((px - 5, px + 5, py + 6))
        }
        for climb in climbs {
            let x0 = plot.x(climb.startMeters), x1 = plot.x(climb.endMeters)
            let y = max(plot.top + 16, plot.y(climb.topElevationMeters) - 10)
            svg.raw(
                "<path d=\"M\(SVGWriter.number(x0)) \(SVGWriter.number(y + 5))V\(SVGWriter.number(y))"
                    + "H\(SVGWriter.number(x1))V\(SVGWriter.number(y + 5))\" fill=\"none\" stroke=\"#444\" "
                    + "stroke-width=\"1.2\"/>")
            let category = climb.category.map { $0 == .hc ? " · HC" : " · Cat \($0.rawValue)" } ?? ""
            let label =
                "\(DecimalText.fixed(climb.lengthMeters / 1000, decimals: 1)) km · "
                + "\(DecimalText.fixed(climb.averageGradePercent, decimals: 1)) %\(category)"
            let half = Double(label.count) * 2.9  // about 5.8 px a character at 10 px
            let center = min(max((x0 + x1) / 2, plot.left + half), plot.left + plot.width - half)
            // Above the bracket, a row higher, or (near the plot's top) just under it; centred, or moved along
            // to clear what it would cover while still over the bracket. A white halo keeps it readable over the
            // curve.
            func covered(_ c: Double, _ ly: Double) -> [(x0: Double, x1: Double, y: Double)] {
                placed.filter { abs($0.y - ly) < 11 && $0.x0 < c + half && c - half < $0.x1 }
            }
            rows: for ly in [y - 4, y - 16, y + 15] where ly > plot.top + 8 && ly < plot.base - 4 {
                let aside = covered(center, ly).flatMap { [$0.x0 - half - 2, $0.x1 + half + 2] }
                for c in [center] + aside
                where c - half > plot.left - 0.5 && c + half < plot.left + plot.width + 0.5 && c - half < x1
                    && x0 < c + half
                    && covered(c, ly).isEmpty
                {
                    svg.text(
                        label, x: c, y: ly,
                        attributes: "font-size=\"10\" fill=\"#333\" text-anchor=\"middle\" stroke=\"#fff\" "
                            + "stroke-width=\"3\" paint-order=\"stroke\"")
                    placed.append((c - half, c + half, ly))
                    break rows
                }
            }
        }
    }

    /// The highest and lowest points, labelled where there is room.
    private func drawExtremes(_ points: [ElevationProfile.Sample], _ plot: Plot, into svg: inout SVGWriter) {
        guard let high = points.max(by: { $0.smoothedElevationMeters < $1.smoothedElevationMeters }),
            let low = points.min(by: { $0.smoothedElevationMeters < $1.smoothedElevationMeters })
        else { return }
        // A white halo keeps a label readable where it lies over the curve.
        let halo = "stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\""
        // A level line has one height: said once, above it.
        let level = high.smoothedElevationMeters == low.smoothedElevationMeters
        for (p, above) in level ? [(high, true)] : [(high, true), (low, false)] {
            let px = plot.x(p.distanceMeters)
            let py = plot.y(p.smoothedElevationMeters)
            svg.circle(x: px, y: py, radius: 3.5, attributes: "fill=\"#fff\" stroke=\"#222\" stroke-width=\"1.5\"")
            let label =
                (level ? "" : above ? "▲ " : "▼ ") + "\(DecimalText.grouped(p.smoothedElevationMeters)) m"
            if above {
                let anchor = px > plot.left + plot.width - 60 ? "end" : px < plot.left + 60 ? "start" : "middle"
                svg.text(
                    label, x: px, y: py - 9,
                    attributes: "font-size=\"12\" font-weight=\"bold\" fill=\"#222\" text-anchor=\"\(anchor)\" \(halo)")
            } else {
                // Beside the low point, inside the plot, on the side with room.
                let toLeft = px > plot.left + plot.width - 80
                svg.text(
                    label, x: toLeft ? px - 8 : px + 8, y: min(py - 6, plot.base - 6),
                    attributes:
                        "font-size=\"12\" font-weight=\"bold\" fill=\"#222\" "
                        + "text-anchor=\"\(toLeft ? "end" : "start")\" \(halo)"
                )
            }
        }
    }

    /// An exaggeration as the legend writes it: whole from 1 on (grouped), two significant digits below (a short,
    /// steep track's elevations may be drawn compressed: 0.37).
    static func exaggerationText(_ x: Double) -> String {
        guard x < 1, x > 0 else { return DecimalText.grouped(x) }
        return DecimalText.compact(x, decimals: min(6, 1 - Int(log10(x).rounded(.down))))
    }

    /// The gradient classes' colours along the bottom, the stretch they are measured over and the vertical
    /// exaggeration.
    private func drawLegend(left: Double, stretch: Double, exaggeration: Double, into svg: inout SVGWriter) {
        var lx = left
        let ly = height - 22
        svg.text(
            "Gradient over \(DecimalText.grouped(stretch)) m:", x: lx, y: ly + 10,
            attributes: "font-size=\"11\" fill=\"#444\"")
        lx += 138
        for c in Self.classes {
            svg.rect(x: lx, y: ly, width: 14, height: 12, attributes: "fill=\"\(c.color)\"")
            svg.text(c.label, x: lx + 18, y: ly + 10, attributes: "font-size=\"11\" fill=\"#444\"")
            lx += 76
        }
        svg.text(
            "vertical × \(Self.exaggerationText(exaggeration))", x: width - 24, y: ly + 10,
            attributes: "font-size=\"11\" fill=\"#444\" text-anchor=\"end\"")
    }
}
