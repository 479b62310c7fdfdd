import RouteKit

/// The files `routekit stages` writes besides the SVGs.
enum StageOutput {
    /// Tracks and control points as one GeoJSON FeatureCollection (the structure of `convert`).
    static func writeGeoJSON(_ tracks: [(Track, String)], _ points: [StageBundle.ControlPoint], to path: String) throws
    {
        let stream = try OutputStream.create(path: path)
        let writer = GeoJSONWriter(output: stream)
        try writer.begin()
        for (track, name) in tracks {
            try writer.beginTrack()
            for segment in track.segments {
                try writer.beginSegment()
                for point in segment.points { try writer.trackPoint(point) }
                try writer.endSegment()
            }
            var details = track.details
            details.name = name
            try writer.endTrack(details)
        }
        for p in points {
            try writer.waypoint(
                Waypoint(
                    coordinate: p.coordinate, elevation: p.elevation,
                    details: Details(name: p.name, description: p.stamp, symbol: "control point")))
        }
        try writer.finish()
        try stream.commit()
    }

    static func number(_ v: Double?, _ decimals: Int = 3) -> String {
        v.map { DecimalText.compact($0, decimals: decimals) } ?? "null"
    }

    static func json(_ data: StageBundle, total: TrackStatistics, nearby: [[ClubroomIndex.AlongTrack]]) -> String {
        var b = ByteBuffer(capacity: 1 << 14)
        b.append("{\"date\":")
        jsonString(data.date?.iso, &b)
        b.append(",\n")
        b.append("\"stages\":[")
        for (i, stage) in data.stages.enumerated() {
            b.append(i > 0 ? ",\n" : "\n")
            stageJSON(stage, nearby: nearby.isEmpty ? [] : nearby[i], &b)
        }
        b.append("],\n\"total\":{")
        b.append(string: "\"stages\":\(data.stages.count),")
        summaryJSON(total, &b)
        b.append(
            string:
                ",\"control_points\":\(data.stages.reduce(0) { $0 + $1.controlPoints.count })},\n"
                + "\"hardest_climbs\":[")
        for (k, hard) in hardestClimbs(data).enumerated() {
            if k > 0 { b.append(0x2C) }
            b.append(string: "{\"stage\":\(hard.stage),\"climb\":")
            ClimbsFormatter.properties(hard.climb, into: &b)
            b.append("}")
        }
        b.append("],\n\"unassigned_control_points\":[")
        for (k, p) in data.unassigned.enumerated() {
            if k > 0 { b.append(0x2C) }
            pointJSON(p, along: false, &b)
        }
        b.append("],\n\"control_points_without_position\":[")
        for (k, e) in data.withoutPosition.enumerated() {
            if k > 0 { b.append(0x2C) }
            entryJSON(e.number, e.name, e.address, e.stamp, &b)
            b.append("}")
        }
        b.append("]}\n")
        return b.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The route's five hardest climbs, by score, with their stages.
    static func hardestClimbs(_ data: StageBundle) -> [(stage: Int, climb: Climb)] {
        let all = data.stages.flatMap { stage in stage.statistics.climbs.map { (stage: stage.number, climb: $0) } }
        return Array(all.sorted { $0.climb.score > $1.climb.score }.prefix(5))
    }

    /// A JSON string, or null.
    private static func jsonString(_ s: String?, _ b: inout ByteBuffer) {
        if let s { JSONText.appendString(s, to: &b) } else { b.append("null") }
    }

    /// One stage's object: what the bundle says of it, its statistics, control points and the clubrooms near it.
    private static func stageJSON(
        _ stage: StageBundle.Stage, nearby: [ClubroomIndex.AlongTrack],
        _ b: inout ByteBuffer
    ) {
        b.append(string: "{\"number\":\(stage.number),\"name\":")
        jsonString(stage.name, &b)
        b.append(",\"file\":")
        jsonString(stage.fileName, &b)
        b.append(",\"category\":")
        jsonString(stage.category, &b)
        b.append(",\"href\":")
        jsonString(stage.href, &b)
        b.append(",\"description\":")
        jsonString(stage.description, &b)
        b.append(0x2C)
        summaryJSON(stage.statistics, &b)
        b.append(",\"control_points\":[")
        for (k, p) in stage.controlPoints.enumerated() {
            if k > 0 { b.append(0x2C) }
            pointJSON(p, along: true, &b)
        }
        b.append("],\"climbs\":[")
        for (k, climb) in stage.statistics.climbs.enumerated() {
            if k > 0 { b.append(0x2C) }
            ClimbsFormatter.properties(climb, into: &b)
        }
        b.append("]")
        if let tally = stage.elevations {
            b.append(
                string: ",\"elevation_source\":\"dem\",\"points_from_dem\":\(tally.fromModel),"
                    + "\"points_not_covered\":\(tally.notCovered)")
        }
        if !nearby.isEmpty {
            b.append(",\"clubrooms\":[")
            for (k, found) in nearby.enumerated() {
                if k > 0 { b.append(0x2C) }
                b.append("{\"id\":")
                jsonString(found.clubroom.id, &b)
                b.append(",\"name\":")
                jsonString(found.clubroom.name, &b)
                b.append(
                    string: ",\"distance_m\":\(number(found.distanceMeters)),"
                        + "\"along_m\":\(number(found.alongMeters))}")
            }
            b.append("]")
        }
        b.append("}")
    }

    /// Length, ascent, descent and the extremes of elevation, as members of an object.
    private static func summaryJSON(_ s: TrackStatistics, _ b: inout ByteBuffer) {
        b.append(
            string: "\"length_2d_m\":\(number(s.length2DMeters)),\"ascent_m\":\(number(s.ascent?.ascentMeters)),"
                + "\"descent_m\":\(number(s.ascent?.descentMeters)),"
                + "\"min_elevation_m\":\(number(s.minElevationMeters)),"
                + "\"max_elevation_m\":\(number(s.maxElevationMeters))")
    }

    /// A control point's object opened: number, name, address, stamp (the caller closes it).
    private static func entryJSON(
        _ number: Int?, _ name: String, _ address: String?, _ stamp: String?,
        _ b: inout ByteBuffer
    ) {
        b.append(string: "{\"number\":\(number.map(String.init) ?? "null"),\"name\":")
        jsonString(name, &b)
        b.append(",\"address\":")
        jsonString(address, &b)
        b.append(",\"stamp\":")
        jsonString(stamp, &b)
    }

    /// A control point with its position and either where along its stage or how far from the nearest stage.
    private static func pointJSON(_ p: StageBundle.ControlPoint, along: Bool, _ b: inout ByteBuffer) {
        entryJSON(p.number, p.name, p.address, p.stamp, &b)
        if along {
            b.append(string: ",\"along_m\":\(number(p.alongMeters))")
        } else {
            b.append(string: ",\"nearest_stage_m\":\(number(p.offTrackMeters.isFinite ? p.offTrackMeters : nil))")
        }
        b.append(
            string: ",\"latitude\":\(number(p.coordinate.latitude, 7)),"
                + "\"longitude\":\(number(p.coordinate.longitude, 7))}")
    }

    static func csv(_ data: StageBundle, total: TrackStatistics) -> String {
        var text =
            "number,name,category,href,length_2d_m,ascent_m,descent_m,min_elevation_m,max_elevation_m,control_points\n"
        func row(
            _ number: String, _ name: String, _ category: String?, _ href: String?, _ s: TrackStatistics,
            _ points: String
        ) {
            let values = [
                number, StatsFormatter.quote(name), StatsFormatter.quote(category ?? ""),
                StatsFormatter.quote(href ?? ""),
                Self.number(s.length2DMeters), Self.number(s.ascent?.ascentMeters),
                Self.number(s.ascent?.descentMeters),
                Self.number(s.minElevationMeters), Self.number(s.maxElevationMeters), StatsFormatter.quote(points),
            ]
            text += values.map { $0 == "null" ? "" : $0 }.joined(separator: ",") + "\n"
        }
        for stage in data.stages {
            let points = stage.controlPoints.map { p in (p.number.map { "\($0). " } ?? "") + p.name }
            row(
                String(stage.number), stage.name, stage.category, stage.href, stage.statistics,
                points.joined(separator: "; "))
        }
        row("", "total", nil, nil, total, "")
        return text
    }

    static func escape(_ s: String) -> String { XMLText.escaped(s) }

    /// An SVG document as an element to put inline in HTML: without its XML declaration.
    static func inline(_ svg: String) -> String {
        guard svg.hasPrefix("<?xml"), let end = svg.firstIndex(of: "\n") else { return svg }
        return String(svg[svg.index(after: end)...])
    }

    /// A drawing that a tap opens full-screen inside the page, without script: the drawing is the link to its
    /// own view (`#ID-view`), which CSS's `:target` lays over the page at a readable size, to pan and pinch-zoom;
    /// the view's bar closes it (back to `#ID`, where the drawing sits) or opens the SVG file beside the page.
    /// `large` drawings (the whole route, with all its labels) open at one and a half times their size.
    static func zoomable(_ svg: String, id: String, what: String, large: Bool = false) -> String {
        "<div class=\"anchor\" id=\"\(id)\"></div><div class=\"view\(large ? " large" : "")\" id=\"\(id)-view\">"
            + "<p class=\"bar\"><a href=\"#\(id)\">× Close</a> <a href=\"\(id).svg\">The \(what) as a file</a></p>"
            + "<a class=\"zoom\" href=\"#\(id)-view\" title=\"Open the \(what) full-screen\">"
            + inline(svg) + "</a></div>\n"
    }

    /// The line that says the elevations came from a DEM, when they did.
    private static func demLine(_ data: StageBundle) -> String {
        var tally = ElevationModel.Tally()
        var any = false
        for stage in data.stages {
            guard let t = stage.elevations else { continue }
            tally.add(t)
            any = true
        }
        guard any else { return "" }
        let kept = tally.notCovered == 0 ? "" : "; \(DecimalText.grouped(tally.notCovered)) off it keep the track's own"
        return "<p class=\"note\">Elevations, ascent and profiles from a digital elevation model "
            + "(\(DecimalText.grouped(tally.fromModel)) points\(kept)).</p>\n"
    }

    /// The line that says which release of the route's data this is.
    private static func dateLine(_ data: StageBundle) -> String {
        guard let date = data.date else { return "" }
        return
            "<p class=\"date\">Route data of <time datetime=\"\(date.iso)\">\(date.text)</time> <span "
            + "class=\"iso\">(\(date.iso))</span></p>\n"
    }

    /// A control point in a list: number, name, where along the stage, address and stamp.
    private static func controlPoint(
        _ number: Int?, _ name: String, _ address: String?, _ stamp: String?, along: Double?
    ) -> String {
        var h = "<b>" + (number.map { "\($0). " } ?? "") + escape(name) + "</b>"
        if let along { h += " at km \(DecimalText.fixed(along / 1000, decimals: 1))" }
        if let address { h += " · \(escape(address))" }
        if let stamp { h += "<br>Stamp: \(escape(stamp))" }
        return h
    }

    static func html(
        _ data: StageBundle, total: TrackStatistics, routeMap: String, profiles: [String], maps: [String],
        nearby: [[ClubroomIndex.AlongTrack]], radius: Double
    ) -> String {
        var h = htmlHead(data, total: total, routeMap: routeMap)
        h += contents(data)
        h += hardestClimbsHTML(data)
        h += unplacedPoints(data)
        for (i, stage) in data.stages.enumerated() {
            let near = nearby.isEmpty ? [] : nearby[i]
            h += stageSection(stage, profile: profiles[i], map: maps[i], nearby: near, radius: radius)
        }
        h += "</main>\n</body>\n</html>\n"
        return h
    }

    private static func km(_ m: Double) -> String { DecimalText.fixed(m / 1000, decimals: 1) + " km" }
    private static func metres(_ m: Double?) -> String { m.map { DecimalText.grouped($0) + " m" } ?? "–" }

    private static let styleSheet = """
        <style>
        body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", "Noto Color Emoji", \
        "Apple Color Emoji", "Segoe UI Emoji", sans-serif; margin: 0; \
        color: #222; background: #fbfaf6; line-height: 1.45; }
        main { max-width: 1000px; margin: 0 auto; padding: 1rem; }
        h1 { font-size: 1.6rem; margin: .5rem 0; } \
        h2 { font-size: 1.25rem; margin-top: 2.5rem; border-top: 2px solid #d9d4c7; padding-top: 1rem; }
        svg { width: 100%; height: auto; display: block; background: #fff; border: 1px solid #e5e0d3; \
        border-radius: 6px; margin: .75rem 0; }
        table { border-collapse: collapse; width: 100%; font-size: .95rem; } \
        td, th { padding: .3rem .5rem; border-bottom: 1px solid #e5e0d3; text-align: left; }
        td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; } td.n { white-space: nowrap; }
        .totals { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: .5rem; }
        .totals div { background: #fff; border: 1px solid #e5e0d3; border-radius: 6px; padding: .5rem .75rem; }
        .totals b { display: block; font-size: 1.3rem; }
        nav ol { columns: 2 16rem; padding-left: 1.5rem; } nav ol.numbered { list-style: none; padding-left: 0; } \
        .cat { color: #7a6f55; font-size: .9rem; } a { color: #1b5fa8; }
        ul.kt li { margin: .2rem 0; } \
        .measured { background: #eef4e6; border-bottom: 1px dotted #5a7d2a; padding: 0 .15rem; }
        .date { font-size: 1.05rem; margin: .25rem 0; } .iso { white-space: nowrap; color: #666; } \
        .note { color: #666; font-size: .9rem; } .scroll { overflow-x: auto; }
        @media (max-width: 480px) { main { padding: .75rem .6rem; } table { font-size: .78rem; } \
        td, th { padding: .25rem .15rem; } td.len, th.len { display: none; } }
        @media (max-width: 400px) { main { padding: .75rem .5rem; } table { font-size: .74rem; } \
        td, th { padding: .25rem .12rem; } }
        a.zoom { display: block; color: inherit; } .view .bar { display: none; }
        .view:target { position: fixed; inset: 0; z-index: 9; overflow: auto; background: #fff; margin: 0; }
        .view:target .bar { display: block; position: sticky; top: 0; left: 0; margin: 0; padding: .6rem 1rem; \
        background: #fbfaf6; border-bottom: 1px solid #d9d4c7; font-size: 1.05rem; } \
        .view .bar a { margin-right: 1.5rem; }
        .view:target a.zoom { pointer-events: none; } .view:target svg { width: max(100%, 1000px); max-width: none; \
        margin: 0; border: none; border-radius: 0; } .view.large:target svg { width: max(100%, 1800px); }
        @page { size: A4 landscape; margin: 10mm; }
        @media print { body { background: #fff; font-size: 8.5pt; line-height: 1.3; } \
        main { max-width: none; padding: 0; } nav, .note, .link { display: none; } \
        section { break-before: page; break-inside: avoid; display: flex; flex-wrap: wrap; gap: 0 2%; } \
        section > * { width: 100%; } section > .view { order: 2; width: 48.5%; } \
        .view:target { position: static; overflow: visible; } .view .bar, .anchor { display: none; } \
        .view svg { width: auto; max-width: 100%; max-height: 150mm; margin: .4rem auto; } \
        section .view svg { max-height: 80mm; margin: .2rem auto; } \
        section > .climbs, section > .kt-part { order: 3; width: 48.5%; } section > p:last-child { display: none; } \
        table { font-size: 8pt; } \
        h2 { margin: 0; padding: 0; border-top: none; font-size: 12pt; } h3 { margin: .3rem 0 .1rem; font-size: 9pt; } \
        section p { margin: .2rem 0; } td, th { padding: .1rem .3rem; } ul.kt li { margin: 0; } }
        </style>
        """

    /// The page up to the list of stages: head, title, date, totals and the map of the whole route.
    private static func htmlHead(_ data: StageBundle, total: TrackStatistics, routeMap: String) -> String {
        // Names that start with their number ("01: Ljubljana – …") are not numbered again.
        let numberedNames = data.stages.allSatisfy { Int($0.name.prefix { $0.isASCII && $0.isNumber }) == $0.number }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Route in \(data.stages.count) stages</title>
            \(styleSheet)
            </head>
            <body>
            <main>
            <h1>The route in \(data.stages.count) stage\(data.stages.count == 1 ? "" : "s")</h1>
            \(dateLine(data))\(demLine(data))<p class="note">Works without a connection: everything is on this page. \
            Tap a map or a profile to see it full-screen, where it can be zoomed. \
            Synthetic or published data as given in the bundle.</p>
            <div class="totals">
            <div><b>\(km(total.length2DMeters))</b>length</div>
            <div><b>\(metres(total.ascent?.ascentMeters))</b>ascent</div>
            <div><b>\(metres(total.ascent?.descentMeters))</b>descent</div>
            <div><b>\(data.stages.reduce(0) { $0 + $1.controlPoints.count })</b>control points</div>
            </div>
            \(zoomable(routeMap, id: "route-map", what: "map", large: true))
            <nav><h2 id="contents">Stages</h2><ol\(numberedNames ? " class=\"numbered\"" : "")>

            """
    }

    /// A climb in a table row: where, how long, how much, how steep, its category.
    private static func climbCells(_ c: Climb) -> String {
        "<td class=\"n\">\(DecimalText.fixed(c.startMeters / 1000, decimals: 1))–"
            + "\(DecimalText.fixed(c.endMeters / 1000, decimals: 1))</td>"
            + "<td class=\"n len\">\(DecimalText.fixed(c.lengthMeters / 1000, decimals: 1)) km</td>"
            + "<td class=\"n\">\(metres(c.gainMeters))</td>"
            + "<td class=\"n\">\(DecimalText.fixed(c.averageGradePercent, decimals: 1)) %</td>"
            + "<td class=\"n\">\(DecimalText.fixed(c.maxGradePercent, decimals: 1)) %</td>"
            + "<td>\(c.category.map { $0 == .hc ? "HC" : "Cat \($0.rawValue)" } ?? "–")</td>"
    }

    private static let climbHeader =
        "<th class=\"n\">km</th><th class=\"n len\">Length</th><th class=\"n\">Gain</th><th class=\"n\">Average</th>"
        + "<th class=\"n\">Steepest 100 m</th><th>Category</th>"

    /// The route's hardest climbs, each with its stage; nothing when there is no climb.
    private static func hardestClimbsHTML(_ data: StageBundle) -> String {
        let hardest = hardestClimbs(data)
        guard !hardest.isEmpty else { return "" }
        var h = "<h2 id=\"climbs\">The hardest climbs</h2>\n<div class=\"scroll\"><table><tr><th>Stage</th>"
        h += climbHeader + "</tr>\n"
        for (stage, climb) in hardest {
            h += "<tr><td><a href=\"#stage-\(stage)\">\(stage)</a></td>" + climbCells(climb) + "</tr>\n"
        }
        return h + "</table></div>\n"
    }

    /// A stage's climbs; nothing when it has none.
    private static func climbsHTML(_ climbs: [Climb]) -> String {
        guard !climbs.isEmpty else { return "" }
        var h = "<div class=\"climbs\"><h3>Climbs</h3><div class=\"scroll\"><table><tr>" + climbHeader + "</tr>\n"
        for climb in climbs { h += "<tr>" + climbCells(climb) + "</tr>\n" }
        return h + "</table></div></div>\n"
    }

    /// The list of stages, each linked, with its length and ascent.
    private static func contents(_ data: StageBundle) -> String {
        var h = ""
        for stage in data.stages {
            h +=
                "<li><a href=\"#stage-\(stage.number)\">\(escape(stage.name))</a> — "
                + "\(km(stage.statistics.length2DMeters)), "
                + "↑ \(metres(stage.statistics.ascent?.ascentMeters))</li>\n"
        }
        return h + "</ol></nav>\n"
    }

    /// The control points near no stage, and those without a position.
    private static func unplacedPoints(_ data: StageBundle) -> String {
        var h = ""
        if !data.unassigned.isEmpty {
            h +=
                "<p class=\"note\">Control points near no stage: "
                + "\(data.unassigned.map { escape($0.name) }.joined(separator: ", ")).</p>\n"
        }
        guard !data.withoutPosition.isEmpty else { return h }
        h += "<h3>Control points without a position</h3>\n"
        h += "<p class=\"note\">The list of control points has these, but the waypoint file does not: "
        h += "they are on no map and in no stage.</p>\n<ul class=\"kt\">\n"
        for e in data.withoutPosition {
            h += "<li>" + controlPoint(e.number, e.name, e.address, e.stamp, along: nil) + "</li>\n"
        }
        return h + "</ul>\n"
    }

    /// One stage's section: name, category, link, description, statistics, profile, map, control points, clubrooms.
    private static func stageSection(
        _ stage: StageBundle.Stage, profile: String, map: String,
        nearby: [ClubroomIndex.AlongTrack], radius: Double
    ) -> String {
        let s = stage.statistics
        var h = "<section id=\"stage-\(stage.number)\">\n<h2>\(escape(stage.name))</h2>\n"
        if let category = stage.category { h += "<p class=\"cat\">\(escape(category))</p>\n" }
        if let href = stage.href, href.hasPrefix("https://") || href.hasPrefix("http://") {
            h +=
                "<p class=\"link\"><a href=\"\(escape(href))\">The stage on the route's website</a>"
                + " (needs a connection)</p>\n"
        }
        h += descriptionHTML(stage)
        h +=
            "<div class=\"scroll\"><table><tr><th>Length</th><th class=\"n\">Ascent</th><th class=\"n\">Descent</th>"
            + "<th class=\"n\">Lowest</th><th class=\"n\">Highest</th></tr>"
        h +=
            "<tr><td>\(km(s.length2DMeters))</td><td class=\"n\">\(metres(s.ascent?.ascentMeters))</td>"
            + "<td class=\"n\">\(metres(s.ascent?.descentMeters))</td>"
        h +=
            "<td class=\"n\">\(metres(s.minElevationMeters))</td><td class=\"n\">\(metres(s.maxElevationMeters))</td>"
            + "</tr></table></div>\n"
        for said in s.ascent?.notCountedSummaries ?? [] {
            h += "<p class=\"note\">" + escape(said.prefix(1).uppercased() + said.dropFirst()) + ".</p>\n"
        }
        h +=
            zoomable(profile, id: "stage-\(stage.number)-profile", what: "profile") + climbsHTML(s.climbs)
            + zoomable(map, id: "stage-\(stage.number)-map", what: "map")
        if !stage.controlPoints.isEmpty {
            h += "<div class=\"kt-part\"><h3>Control points</h3><ul class=\"kt\">\n"
            for p in stage.controlPoints {
                h += "<li>" + controlPoint(p.number, p.name, p.address, p.stamp, along: p.alongMeters) + "</li>\n"
            }
            h += "</ul></div>\n"
        }
        h += clubroomsHTML(nearby, radius: radius)
        h +=
            "<p><a href=\"stage-\(stage.number).geojson\">GeoJSON</a> · "
            + "<a href=\"stage-\(stage.number).gpx\">GPX</a> · "
            + "<a href=\"#contents\">stages</a></p>\n</section>\n"
        return h
    }

    /// The stage's description, the values measured from the track marked.
    private static func descriptionHTML(_ stage: StageBundle.Stage) -> String {
        let pieces = stage.descriptionPieces()
        guard !pieces.isEmpty else { return "" }
        return "<p lang=\"sl\">"
            + pieces.map {
                $0.isMeasured
                    ? "<span class=\"measured\" title=\"measured from the track\">\(escape($0.text))</span>"
                    : escape($0.text)
            }.joined() + "</p>\n"
    }

    /// The clubrooms near a stage, in order along it; nothing when there are none.
    private static func clubroomsHTML(_ nearby: [ClubroomIndex.AlongTrack], radius: Double) -> String {
        guard !nearby.isEmpty else { return "" }
        var h = "<h3>Clubrooms within \(km(radius)) of the track</h3><ul>\n"
        for found in nearby {
            h +=
                "<li>km \(DecimalText.fixed(found.alongMeters / 1000, decimals: 1)): "
                + "<b>\(escape(found.clubroom.name))</b>, "
                + "\(escape(found.clubroom.address)) (\(km(found.distanceMeters)) off the track)</li>\n"
        }
        return h + "</ul>\n"
    }
}
