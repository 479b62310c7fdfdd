import Glibc

/// A published stage bundle, as the STKP backend serves it (see ``BundleSource``): `Etapa_N.gpx` (or
/// `Etapa N.gpx`: one stage's track, N the stage number), `KT.gpx` (control points as waypoints),
/// `etape.json` (`[{name, href, desc, category, file}]` in stage order; `file` names the stage's GPX) and
/// `kt.json` (`[{zapSt, naziv, naslov, zig}]`: number, name, address and where the stamp is), names in any
/// case. The JSON files may be missing; a stage that fails to read is reported and the rest still used.
public struct StageBundle: Sendable {
    /// One stage.
    public struct Stage: Sendable {
        /// The stage number: from the file name (`Etapa_7.gpx`), else from etape.json.
        public var number: Int
        /// The GPX file's name in the bundle.
        public var fileName: String
        /// The name from etape.json (`01: Ljubljana – Mihelčičev dom na Govejku`), else the track's.
        public var name: String
        /// The description as published; see ``descriptionPieces()``.
        public var description: String?
        /// The region the route's website files the stage under (`Ljubljana`, `Gorenjska`).
        public var category: String?
        /// The stage's page on the route's website.
        public var href: String?
        /// The stage's track (all tracks of the file, one after the other).
        public var track: Track
        /// Its elevation profile (with its numbers).
        public var profile: ElevationProfile
        /// Its numbers.
        public var statistics: TrackStatistics { profile.statistics }
        /// Control points assigned to the stage, in order along it.
        public var controlPoints: [ControlPoint] = []
        /// What the elevation model did to the track's elevations, when the bundle was read with one.
        public var elevations: ElevationModel.Tally?

        /// The description with the figures the website leaves empty ("Dolžina:  Vzpon:  Spust:") filled in
        /// from the track: length, ascent, descent, lowest and highest point, each marked as measured.
        public func descriptionPieces() -> [DescriptionPiece] {
            guard let description else { return [] }
            return DescriptionPiece.filling(description, with: statistics)
        }
    }

    /// A control point: a waypoint of KT.gpx with what kt.json says of it, and where it lies along its stage.
    public struct ControlPoint: Sendable {
        /// Its number along the route (kt.json's `zapSt`), when the list has it.
        public var number: Int?
        /// The name: kt.json's `naziv`, else the waypoint's.
        public var name: String
        /// The postal address (kt.json's `naslov`).
        public var address: String?
        /// Where the stamp is.
        public var stamp: String?
        /// Where the waypoint is.
        public var coordinate: Coordinate
        /// The waypoint's elevation in metres, when it has one.
        public var elevation: Double?
        /// Metres along its stage's track, measured as its profile measures (gaps between segments left out).
        public var alongMeters: Double = 0
        /// Metres from its stage's track (infinity when near no stage at all).
        public var offTrackMeters: Double = 0
    }

    /// Where the files came from, for messages.
    public var origin: String = ""
    /// The date of the route's data, from the archive's name (`ZIP_03-09-2019.zip`).
    public var date: BundleDate?
    /// The stages, by number (stage 10 after stage 9).
    public var stages: [Stage] = []
    /// Control points further than the assignment distance from every stage.
    public var unassigned: [ControlPoint] = []
    /// Entries of kt.json with no waypoint in KT.gpx: listed, without a position.
    public var withoutPosition: [ControlPointEntry] = []
    /// Problems met on the way (a stage that failed to read, a missing JSON file, …), once each.
    public var problems: [String] = []

    /// All control points with a position: those of the stages, in stage order, then the unassigned ones.
    public var controlPoints: [ControlPoint] { stages.flatMap(\.controlPoints) + unassigned }

    /// The stage number of a file name `Etapa N.gpx` (any case, `_` or `-` for the space); nil otherwise.
    public static func stageNumber(_ fileName: String) -> Int? {
        let lower = fileName.lowercased()
        guard lower.hasPrefix("etapa"), lower.hasSuffix(".gpx") else { return nil }
        let middle = lower.dropFirst(5).dropLast(4).trimmingCharacters { $0 == " " || $0 == "_" || $0 == "-" }
        guard !middle.isEmpty, middle.allSatisfy(\.isASCII), let n = Int(middle), n >= 0 else { return nil }
        return n
    }

    /// Reads the bundle in `source`, measuring each stage with `method`; control points within
    /// `assignmentMeters` of a stage's track belong to the nearest such stage. With `elevations`, the tracks
    /// take their elevations from the model (as its mode says) before they are measured; the stretches of a stage
    /// whose points kept their recorded elevations are then measured with `methodForRecordedElevations` when given.
    /// Never throws: what cannot be read is left out and said in ``problems``.
    public static func read(
        _ source: BundleSource, method: AscentMethod = .standard, assignmentMeters: Double = 200,
        elevations: (model: ElevationModel, mode: ElevationModel.Mode)? = nil,
        methodForRecordedElevations: AscentMethod? = nil
    ) -> StageBundle {
        read(
            source, method: method, assignmentMeters: assignmentMeters, elevations: elevations,
            methodForRecordedElevations: methodForRecordedElevations, progress: nil)
    }

    /// Reads the bundle as ``read(_:method:assignmentMeters:elevations:methodForRecordedElevations:)`` does,
    /// counting the stages read (of the stage files found) into `progress`.
    package static func read(
        _ source: BundleSource, method: AscentMethod = .standard, assignmentMeters: Double = 200,
        elevations: (model: ElevationModel, mode: ElevationModel.Mode)? = nil,
        methodForRecordedElevations: AscentMethod? = nil, progress: ProgressCounter?
    ) -> StageBundle {
        var bundle = StageBundle()
        bundle.origin = source.origin
        bundle.date = source.date
        bundle.problems = source.notes
        let etape = bundle.readList(source, "etape.json", missing: "stages are named after their tracks")
        let files = bundle.stageFiles(source, etape: etape)
        // The stages are read and measured on all cores; each result is a stage or the reason it is left out.
        let built: [Result<Stage, StageProblem>]
        progress?.expect(Int64(files.count))
        do {
            built = try parallelMap(files.count) { index in
                defer { progress?.advance(by: 1) }
                return readStage(
                    files[index].number, files[index].name, entry: files[index].entry, from: source, method: method,
                    elevations: elevations, recordedMethod: methodForRecordedElevations)
            }
        } catch {  // readStage reports its failures as results; nothing else can throw
            bundle.problems.append("\(error)")
            built = []
        }
        for result in built {
            switch result {
            case .success(let stage):
                bundle.stages.append(stage)
                for said in stage.statistics.ascent?.notCountedSummaries ?? [] {
                    bundle.problems.append("\(stage.fileName): \(said)")
                }
            case .failure(let problem): bundle.problems.append(problem.message)
            }
        }
        bundle.placeControlPoints(source, assignmentMeters: assignmentMeters)
        return bundle
    }

    /// The stage files in number order, each with its etape.json entry: files named `Etapa N.gpx`, and files
    /// etape.json names in `file` under another name.
    private mutating func stageFiles(
        _ source: BundleSource, etape: [JSONValue]?
    ) -> [(number: Int, name: String, entry: JSONValue?)] {
        var files: [Int: String] = [:]
        for name in source.names {
            guard let number = Self.stageNumber(name) else { continue }
            if let other = files[number] {
                problems.append("\(name) left out: \(other) is stage \(number) too")
                continue
            }
            files[number] = name
        }
        let entries = etape ?? []
        var entryOf: [Int: JSONValue] = [:]
        var absent: [String] = []
        defer {
            if !absent.isEmpty {
                problems.append(
                    "etape.json names \(absent.count) file\(absent.count == 1 ? "" : "s") not in the bundle: "
                        + "\(Self.list(absent))"
                )
            }
        }
        for (position, entry) in entries.enumerated() {
            let listed = entry["file"]?.string?.trimmingSpaces()
            let named = listed.flatMap { source.file(named: $0) }
            if let listed, !listed.isEmpty, named == nil { absent.append(listed) }
            let number = named.flatMap(Self.stageNumber) ?? Self.leadingNumber(entry["name"]?.string) ?? position + 1
            if let named, Self.stageNumber(named) == nil {  // a stage under a name of its own
                if files[number] == nil {
                    files[number] = named
                } else if files[number] != named {
                    problems.append("etape.json: \(named) left out: stage \(number) is \(files[number] ?? "")")
                    continue
                }
            }
            if entryOf[number] == nil { entryOf[number] = entry }
        }
        // Without `file` fields and numbered names, the entries go with the stages in order.
        let located = entries.contains { $0["file"]?.string != nil || Self.leadingNumber($0["name"]?.string) != nil }
        return files.sorted { $0.key < $1.key }.enumerated().map { position, file in
            let entry = located ? entryOf[file.key] : (position < entries.count ? entries[position] : nil)
            return (file.key, file.value, entry)
        }
    }

    /// Names for a message: all of them up to ten, else the first ten and how many more.
    public static func list(_ names: [String]) -> String {
        names.count <= 10
            ? names.joined(separator: ", ") : names.prefix(10).joined(separator: ", ") + " and \(names.count - 10) more"
    }

    /// The number a stage's name starts with: 7 for "07: Bohinjska Bistrica – Vrata".
    static func leadingNumber(_ name: String?) -> Int? {
        guard let name else { return nil }
        let digits = name.trimmingSpaces().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6 else { return nil }
        return Int(digits)
    }

    private static func readStage(
        _ number: Int, _ name: String, entry: JSONValue?, from source: BundleSource,
        method: AscentMethod, elevations: (model: ElevationModel, mode: ElevationModel.Mode)?,
        recordedMethod: AscentMethod?
    ) -> Result<Stage, StageProblem> {
        let document: GPXDocument
        do {
            document = try GPXReader().document(bytes: try source.bytes(name), name: source.displayName(name))
        } catch let error as IOError {
            return .failure(StageProblem(message: "\(error); stage \(number) left out"))
        } catch {
            return .failure(
                StageProblem(
                    message: "\(IOError.located("\(error)", in: source.displayName(name))); stage \(number) left out"))
        }
        var track = document.tracksElseRoutes()
        guard track.segments.contains(where: { !$0.points.isEmpty }) else {
            return .failure(
                StageProblem(message: "\(source.displayName(name)): no track points; stage \(number) left out"))
        }
        var tally: ElevationModel.Tally?
        var recorded: [Int] = []
        if let elevations {
            var counted = ElevationModel.Tally()
            do {
                recorded = try elevations.model.apply(to: &track, mode: elevations.mode, tally: &counted)
            } catch {
                return .failure(StageProblem(message: "--dem \(error); stage \(number) left out"))
            }
            tally = counted
        }
        func text(_ key: String) -> String? {
            entry?[key]?.string.map { $0.trimmingSpaces() }.flatMap { $0.isEmpty ? nil : $0 }
        }
        return .success(
            Stage(
                number: number, fileName: name, name: text("name") ?? track.name ?? "Etapa \(number)",
                description: text("desc"), category: text("category"), href: text("href"),
                track: track,
                profile: ElevationProfile(
                    track: track, method: method, recorded: recorded, recordedMethod: recordedMethod),
                elevations: tally))
    }

    /// A JSON list of the bundle (etape.json, kt.json), or nil with the problem noted.
    private mutating func readList(_ source: BundleSource, _ name: String, missing consequence: String) -> [JSONValue]?
    {
        guard let file = source.file(named: name) else {
            problems.append("\(name) is missing: \(consequence)")
            return nil
        }
        do {
            guard let list = try JSONValue.read(try source.input(file)).elements else {
                problems.append("\(source.displayName(file)): not a JSON list: \(consequence)")
                return nil
            }
            return list
        } catch {
            problems.append("\(IOError.located("\(error)", in: source.displayName(file))): \(consequence)")
            return nil
        }
    }

    /// Reads KT.gpx and kt.json, pairs them, and gives each control point to the stage whose track passes
    /// nearest, within `assignmentMeters`.
    private mutating func placeControlPoints(_ source: BundleSource, assignmentMeters: Double) {
        var waypoints: [Waypoint] = []
        if let file = source.file(named: "KT.gpx") {
            do {
                waypoints = try GPXReader().document(bytes: try source.bytes(file), name: source.displayName(file))
                    .waypoints
            } catch {
                problems.append(
                    "\(IOError.located("\(error)", in: source.displayName(file))); no control points from it")
            }
        } else {
            problems.append("KT.gpx is missing: no control points on the maps")
        }
        let list = readList(source, "kt.json", missing: "no stamp locations").map(ControlPointList.entries)
        let entries = list?.entries ?? []
        if let skipped = list?.skipped, skipped > 0 {
            problems.append("kt.json: \(skipped) entries without a name left out")
        }
        let pairing = ControlPointList.match(waypoints.map { $0.name ?? "" }, to: entries)
        var points: [ControlPoint] = []
        var unlisted: [String] = []
        for (i, w) in waypoints.enumerated() {
            let entry = pairing[i].map { entries[$0] }
            let name = entry?.name ?? w.name ?? "KT \(i + 1)"
            if entry == nil && list != nil { unlisted.append(name) }
            points.append(
                ControlPoint(
                    number: entry?.number, name: name, address: entry?.address,
                    stamp: entry?.stamp, coordinate: w.coordinate,
                    elevation: w.elevation))
        }
        let paired = Set(pairing.compactMap { $0 })
        withoutPosition = entries.indices.filter { !paired.contains($0) }.map { entries[$0] }
        if !withoutPosition.isEmpty {
            let names = withoutPosition.map { e in e.number.map { "\($0) \(e.name)" } ?? e.name }
            problems.append(
                "kt.json lists \(names.count) control point\(names.count == 1 ? "" : "s") with no waypoint in KT.gpx, "
                    + "listed without a position: \(Self.list(names))")
        }
        if !unlisted.isEmpty {
            problems.append(
                "KT.gpx has \(unlisted.count) waypoint\(unlisted.count == 1 ? "" : "s") that kt.json does not list: "
                    + Self.list(unlisted))
        }
        assign(points, withinMeters: assignmentMeters)
    }

    /// Gives each point to the stage whose track passes nearest, within `withinMeters`; the rest are unassigned.
    private mutating func assign(_ points: [ControlPoint], withinMeters: Double) {
        let corridors = stages.map { $0.profile.corridor() }
        for placement in Placement.place(points.map(\.coordinate), on: corridors, searchMeters: withinMeters) {
            var point = points[placement.index]
            point.offTrackMeters = placement.offTrackMeters
            if placement.offTrackMeters <= withinMeters {
                point.alongMeters = placement.alongMeters
                stages[placement.line].controlPoints.append(point)
            } else {
                unassigned.append(point)
            }
        }
        for i in stages.indices { stages[i].controlPoints.sort { $0.alongMeters < $1.alongMeters } }
    }
}

/// A piece of a stage's description: text as published, or a figure measured from the track where the
/// published text leaves it empty.
public struct DescriptionPiece: Hashable, Sendable {
    /// The text of the piece.
    public var text: String
    /// True for a figure RouteKit measured.
    public var isMeasured: Bool

    /// The figures STKP's descriptions carry, each filled from a statistic when empty.
    private enum Figure: CaseIterable {
        case length, ascent, descent, lowest, highest

        var label: String {
            switch self {
            case .length: "Dolžina:"
            case .ascent: "Vzpon:"
            case .descent: "Spust:"
            case .lowest: "Najnižja točka:"
            case .highest: "Najvišja točka:"
            }
        }

        func value(_ s: TrackStatistics) -> String? {
            switch self {
            case .length: kilometres(s.length2DMeters)
            case .ascent: s.ascent.map { metres($0.ascentMeters) }
            case .descent: s.ascent.map { metres($0.descentMeters) }
            case .lowest: s.minElevationMeters.map(metres)
            case .highest: s.maxElevationMeters.map(metres)
            }
        }
    }

    /// Splits `description` at each figure label followed by no figure (the next thing is another label or
    /// the end) and puts the measured figure there, written as the website writes its own ("38,2 km", "1500 m").
    static func filling(_ description: String, with statistics: TrackStatistics) -> [DescriptionPiece] {
        var pieces: [DescriptionPiece] = []
        var rest = Substring(description)
        var published = ""
        while !rest.isEmpty {
            if let figure = Figure.allCases.first(where: { rest.hasPrefix($0.label) }) {
                let after = rest.dropFirst(figure.label.count)
                if isEmptyFigure(after), let value = figure.value(statistics) {
                    published += figure.label + " "
                    pieces.append(DescriptionPiece(text: published, isMeasured: false))
                    pieces.append(DescriptionPiece(text: value, isMeasured: true))
                    published = " "
                    rest = after.drop { $0 == " " }
                    continue
                }
            }
            published.append(rest.removeFirst())
        }
        if !published.isEmpty && published != " " {
            pieces.append(DescriptionPiece(text: published, isMeasured: false))
        }
        return pieces
    }

    /// True when the text after a label is nothing, or another label (at most three words without a digit,
    /// and a colon).
    private static func isEmptyFigure(_ after: Substring) -> Bool {
        let next = after.drop { $0 == " " || $0 == "\u{A0}" }
        guard !next.isEmpty else { return true }
        guard let colon = next.firstIndex(of: ":") else { return false }
        let label = next[..<colon]
        return label.count <= 40 && !label.contains(where: \.isNumber) && label.split(separator: " ").count <= 3
    }

    private static func kilometres(_ m: Double) -> String {
        let tenths = Int((m / 100).rounded())
        return "\(tenths / 10),\(tenths % 10) km"
    }

    private static func metres(_ m: Double) -> String { "\(Int(m.rounded())) m" }
}

/// Why a stage was left out.
struct StageProblem: Error {
    var message: String
}

extension Substring {
    func trimmingCharacters(_ isTrimmed: (Character) -> Bool) -> Substring {
        var s = self
        while let f = s.first, isTrimmed(f) { s.removeFirst() }
        while let l = s.last, isTrimmed(l) { s.removeLast() }
        return s
    }
}
