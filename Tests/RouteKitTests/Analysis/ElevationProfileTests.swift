import RouteKit
import Testing

@Suite struct ElevationProfileTests {
    static let start = Coordinate(latitude: 46.05, longitude: 14.5)

    /// Points every `step` metres from `origin` along the azimuth, their distances from `origin` exact by
    /// construction (`geod_direct`), with the elevation `elevation(distance)`.
    static func points(
        from origin: Coordinate, azimuth: Double = 30, count: Int, step: Double = 10,
        elevation: (Double) -> Double?
    ) -> [TrackPoint] {
        (0..<count).map { k in
            let d = Double(k) * step
            return TrackPoint(
                coordinate: Geodesic.wgs84.destination(from: origin, azimuthDegrees: azimuth, distanceMeters: d),
                elevation: elevation(d))
        }
    }

    @Test func distancesAndElevationsFollowTheTrackAndAConstantGradeReadsAsIt() throws {
        // 2 km climbing at exactly 5 %, one point every 10 m, with no smoothing: every grade is 5 % and the
        // sample distances are the construction's.
        var method = AscentMethod()
        method.smoothingMeters = 0
        let track = Track(segments: [
            TrackSegment(points: Self.points(from: Self.start, count: 201) { 300 + 0.05 * $0 })
        ])
        let profile = ElevationProfile(track: track, method: method)
        #expect(profile.samples.count == 201)
        for (k, sample) in profile.samples.enumerated() {
            #expect(abs(sample.distanceMeters - Double(k) * 10) < 1e-4, "sample \(k)")
            #expect(abs(sample.elevationMeters - (300 + 0.5 * Double(k))) < 1e-9)
            #expect(abs(sample.gradePercent - 5) < 1e-4, "sample \(k): \(sample.gradePercent) %")
        }
        #expect(abs(profile.statistics.length2DMeters - 2000) < 1e-3)
        #expect(abs(try #require(profile.elevation(atDistance: 1234.5)) - (300 + 0.05 * 1234.5)) < 1e-6)
        #expect(profile.elevation(atDistance: -50) == 300)
        #expect(profile.elevation(atDistance: 5000) == 400)
    }

    @Test func smoothingKeepsTheGradeOfAnEvenClimbAwayFromItsEnds() {
        // A symmetric smoothing of a straight line is the same line: 5 % in the middle, whatever the bandwidth.
        var method = AscentMethod()
        method.smoothingMeters = 50
        let track = Track(segments: [TrackSegment(points: Self.points(from: Self.start, count: 301) { 0.05 * $0 })])
        let profile = ElevationProfile(track: track, method: method)
        for sample in profile.samples where sample.distanceMeters > 500 && sample.distanceMeters < 2500 {
            #expect(abs(sample.gradePercent - 5) < 0.01, "\(sample.distanceMeters) m: \(sample.gradePercent) %")
            #expect(abs(sample.smoothedElevationMeters - 0.05 * sample.distanceMeters) < 0.01)
        }
    }

    @Test func theDistanceRunsOnAcrossASegmentBreakWithoutTheGap() throws {
        // Two segments of 1 km each, the second starting 5 km from the end of the first: the profile is 2 km.
        let first = Self.points(from: Self.start, azimuth: 0, count: 101) { _ in 400 }
        let far = Geodesic.wgs84.destination(from: first.last!.coordinate, azimuthDegrees: 90, distanceMeters: 5000)
        let second = Self.points(from: far, azimuth: 0, count: 101) { _ in 500 }
        let profile = ElevationProfile(
            track: Track(segments: [TrackSegment(points: first), TrackSegment(points: second)]))
        #expect(profile.samples.count == 202)
        #expect(abs(try #require(profile.samples.last).distanceMeters - 2000) < 1e-3)
        #expect(abs(profile.samples[101].distanceMeters - 1000) < 1e-3)
        #expect(profile.positions.count == 202)
        #expect(abs(profile.positions[101].distanceMeters - 1000) < 1e-3)
    }

    @Test func pointsWithoutElevationAreNoSamplesButStillPositions() {
        let track = Track(segments: [
            TrackSegment(points: Self.points(from: Self.start, count: 11) { $0 < 50 ? 200 : nil })
        ])
        let profile = ElevationProfile(track: track)
        #expect(profile.samples.map(\.elevationMeters) == [200, 200, 200, 200, 200])
        #expect(profile.positions.count == 11)
        #expect(abs(profile.positions[10].distanceMeters - 100) < 1e-4)
    }

    @Test func aWaypointIsPlacedAtTheNearestPointOfTheTrack() throws {
        // 50 m east of the point 500 m up a track that runs north: 500 m along, 50 m off (to a millimetre:
        // over 50 m the meridian and the perpendicular geodesic are as good as straight).
        let points = Self.points(from: Self.start, azimuth: 0, count: 101) { _ in 300 }
        let profile = ElevationProfile(track: Track(segments: [TrackSegment(points: points)]))
        let waypoint = Geodesic.wgs84.destination(from: points[50].coordinate, azimuthDegrees: 90, distanceMeters: 50)
        let placement = try #require(profile.place(waypoint))
        #expect(abs(placement.alongMeters - 500) < 0.01)
        #expect(abs(placement.offTrackMeters - 50) < 0.01)
        #expect(ElevationProfile(track: Track()).place(waypoint) == nil)
    }

    @Test func downsamplingKeepsTheEndsThePeakAndTheLowestPoint() {
        // A saw of 10 m teeth with one 80 m spike and one 60 m pit: 1,000 samples drawn with 50.
        var method = AscentMethod()
        method.smoothingMeters = 0
        let track = Track(segments: [
            TrackSegment(
                points: Self.points(from: Self.start, count: 1000) { d in
                    d == 3330 ? 380 : d == 7770 ? 240 : 300 + Double(Int(d / 10) % 2) * 10
                })
        ])
        let profile = ElevationProfile(track: track, method: method)
        let drawn = profile.downsampled(to: 50)
        #expect(drawn.count == 50)
        #expect(drawn.first == profile.samples.first && drawn.last == profile.samples.last)
        #expect(drawn.contains { $0.elevationMeters == 380 && abs($0.distanceMeters - 3330) < 1e-3 })
        #expect(drawn.contains { $0.elevationMeters == 240 && abs($0.distanceMeters - 7770) < 1e-3 })
        #expect(zip(drawn, drawn.dropFirst()).allSatisfy { $0.distanceMeters < $1.distanceMeters })
        #expect(profile.downsampled(to: 2000) == profile.samples)
    }
}
