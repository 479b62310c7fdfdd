import Glibc

/// A published stage bundle, as the STKP data comes: a folder with `Etapa N.gpx` (one stage's track; N is
/// the stage number), `KT.gpx` (control points as waypoints), `Etape.json` (`[{name, href, desc,
/// category}]` in stage order) and `KT.json` (`[{naziv, zig}]`: a control point's name and where its stamp
/// is). The JSON files may be missing; a stage that fails to read is reported and the rest still used.
public struct StageBundle: Sendable {
    /// One stage.
    public struct Stage: Sendable {
        /// The number in the file name.
        public var number: Int
        /// The GPX file.
        public var path: String
        public var name: String
        public var description: String?
        public var category: String?
        public var href: String?
        /// The stage's track (all tracks of the file, one after the other).
        public var track: Track
        /// Its elevation profile (with its numbers).
        public var profile: ElevationProfile
        /// Its numbers.
        public var statistics: TrackStatistics { profile.statistics }
        /// Control points assigned to the stage, in order along it.
        public var controlPoints: [ControlPoint] = []
    }

    /// A control point with where its stamp is and where it lies along its stage.
    public struct ControlPoint: Sendable {
        public var name: String
        public var stamp: String?
        public var coordinate: Coordinate
        public var elevation: Double?
        public var alongMeters: Double = 0
        public var offTrackMeters: Double = 0
    }

    /// The stages, by number (stage 10 after stage 9).
    public var stages: [Stage] = []
    /// Control points further than the assignment distance from every stage.
    public var unassigned: [ControlPoint] = []
    /// Problems met on the way (a stage that failed to read, a missing JSON file, …), once each.
    public var problems: [String] = []

    /// The stage number of a file name `Etapa N.gpx` (any case, `_` or `-` for the space); nil otherwise.
    public static func stageNumber(_ fileName: String) -> Int? {
        let lower = fileName.lowercased()
        guard lower.hasPrefix("etapa"), lower.hasSuffix(".gpx") else { return nil }
        let middle = lower.dropFirst(5).dropLast(4).trimmingCharacters { $0 == " " || $0 == "_" || $0 == "-" }
        return Int(middle)
    }

    /// Reads the bundle in `folder`; control points within `assignmentMeters` of a stage's track belong to
    /// the nearest such stage.
    public static func read(folder: String, names: [String], method: AscentMethod = .standard, assignmentMeters: Double = 200,
                            readJSON: (String) -> JSONValue?) -> StageBundle {
        var bundle = StageBundle()
        let numbered = names.compactMap { name in stageNumber(name).map { ($0, name) } }.sorted { $0.0 < $1.0 }
        let etape = readJSON("Etape.json")?.elements
        if etape == nil { bundle.problems.append("Etape.json is missing or unreadable: stages are named after their tracks") }
        // The stages are read and measured on all cores; each result is a stage or the reason it is left out.
        let built: [Result<Stage, StageProblem>] = (try? parallelMap(numbered.count) { index in
            let (number, name) = numbered[index]
            let path = folder + "/" + name
            let document: GPXDocument
            do {
                document = try GPXReader().document(at: path)
            } catch {
                return .failure(StageProblem(message: "\(IOError.located("\(error)", in: name)); stage \(number) left out"))
            }
            var track = Track(details: document.tracks.first?.details ?? Details())
            for t in document.tracks { track.segments += t.segments }
            if track.segments.allSatisfy({ $0.points.isEmpty }) {
                track.segments = document.routes.map { TrackSegment(points: $0.points.map { TrackPoint(coordinate: $0.coordinate, elevation: $0.elevation, time: $0.time) }) }
            }
            guard track.segments.contains(where: { !$0.points.isEmpty }) else {
                return .failure(StageProblem(message: "\(name): no track points; stage \(number) left out"))
            }
            // Etape.json is in stage order: the entry whose href names this file, else the entry at this place.
            let entry = etape?.first { $0["href"]?.string.map { $0.hasSuffix(name) } ?? false }
                ?? (etape.flatMap { index < $0.count ? $0[index] : nil })
            let profile = ElevationProfile(track: track, method: method)
            return .success(Stage(
                number: number, path: path, name: entry?["name"]?.string ?? track.name ?? "Etapa \(number)",
                description: entry?["desc"]?.string, category: entry?["category"]?.string, href: entry?["href"]?.string,
                track: track, profile: profile))
        }) ?? []
        for result in built {
            switch result {
            case .success(let stage): bundle.stages.append(stage)
            case .failure(let problem): bundle.problems.append(problem.message)
            }
        }
        // Control points.
        let kt: GPXDocument?
        do {
            kt = names.contains("KT.gpx") ? try GPXReader().document(at: folder + "/KT.gpx") : nil
            if kt == nil { bundle.problems.append("KT.gpx is missing: no control points") }
        } catch {
            kt = nil
            bundle.problems.append("KT.gpx: \(error); no control points")
        }
        var stamps: [String: String] = [:]
        if let list = readJSON("KT.json")?.elements {
            for item in list { if let n = item["naziv"]?.string, let z = item["zig"]?.string { stamps[n] = z } }
        } else if kt != nil {
            bundle.problems.append("KT.json is missing or unreadable: no stamp locations")
        }
        let corridors = bundle.stages.map { TrackCorridor(points: $0.profile.positions.map(\.coordinate)) }
        // Only stages whose bounding box, grown by the distance, holds a point can be near it (a degree of
        // latitude is at least 110.5 km, and of longitude at least that times cos φ).
        let dLat = assignmentMeters / 110_500
        let grownBoxes = bundle.stages.map { stage -> Bounds? in
            guard var box = stage.statistics.bounds else { return nil }
            let dLon = dLat / max(cos(max(abs(box.south), abs(box.north)) * .pi / 180), 0.01)
            box.south -= dLat
            box.north += dLat
            box.west -= dLon
            box.east += dLon
            return box
        }
        for (i, w) in (kt?.waypoints ?? []).enumerated() {
            let name = w.name ?? "KT \(i + 1)"
            var point = ControlPoint(name: name, stamp: stamps[name], coordinate: w.coordinate, elevation: w.elevation)
            let places = corridors.enumerated().compactMap { k, corridor -> (Int, TrackCorridor.Match)? in
                guard let box = grownBoxes[k], w.coordinate.latitude >= box.south, w.coordinate.latitude <= box.north,
                      w.coordinate.longitude >= box.west, w.coordinate.longitude <= box.east else { return nil }
                return (k, corridor.place(w.coordinate))
            }
            if let best = places.min(by: { $0.1.distanceMeters < $1.1.distanceMeters }), best.1.distanceMeters <= assignmentMeters {
                point.alongMeters = best.1.alongMeters
                point.offTrackMeters = best.1.distanceMeters
                bundle.stages[best.0].controlPoints.append(point)
            } else {
                point.offTrackMeters = places.map(\.1.distanceMeters).min() ?? .infinity  // infinity: near no stage's box
                bundle.unassigned.append(point)
            }
        }
        for i in bundle.stages.indices { bundle.stages[i].controlPoints.sort { $0.alongMeters < $1.alongMeters } }
        return bundle
    }
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
