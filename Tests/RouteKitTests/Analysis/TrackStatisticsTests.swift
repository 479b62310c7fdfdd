import RouteKit
import Testing

@Suite struct TrackStatisticsTests {
    @Test func summarisesATrackAndNeverSumsAcrossSegmentBreaks() throws {
        let collector = StatisticsCollector()
        try GPXReader().read(bytes: Fixture.bytes("garmin-tpe.gpx"), handler: collector)
        let s = try #require(collector.tracks.first)
        #expect(s.name == "Vršič loop")
        #expect(s.points == 6)
        #expect(s.segments == 3)
        let steps = [
            (
                Coordinate(latitude: 46.4856123456789, longitude: 13.7856987654321),
                Coordinate(latitude: 46.4857, longitude: 13.7858)
            ),
            (Coordinate(latitude: 46.4857, longitude: 13.7858), Coordinate(latitude: 46.4858, longitude: 13.786)),
            (Coordinate(latitude: 46.5, longitude: 13.8), Coordinate(latitude: 46.5001, longitude: 13.8001)),
        ]
        let expected = steps.reduce(0.0) { $0 + $1.0.distance(to: $1.1) }
        #expect(abs(s.length2DMeters - expected) < 1e-6)
        #expect(s.length3DMeters >= s.length2DMeters)
        #expect(s.minElevationMeters == 700)
        #expect(s.maxElevationMeters == 1611.5)
        #expect(s.startTime?.description == "2026-07-04T07:00:00.250Z")
        #expect(s.endTime?.description == "2026-07-04T08:30:01Z")
        // Within segments only: 2.75 s in the first (07:00:00.25 to 07:00:03) and 1 s in the second.
        #expect(s.durationSeconds == 3.75)
        #expect(s.bounds == Bounds(west: 13.7856987654321, south: 46.4856123456789, east: 13.9, north: 46.6))
    }

    @Test func totalsAddUpAndKeepExtremes() {
        var a = TrackStatistics(name: "a")
        a.points = 10
        a.length2DMeters = 1000
        a.timedLengthMeters = 1000
        a.movingTimeSeconds = 100
        a.minElevationMeters = 300
        a.maxElevationMeters = 500
        var b = TrackStatistics(name: "b")
        b.points = 5
        b.length2DMeters = 3000
        b.timedLengthMeters = 3000
        b.movingTimeSeconds = 300
        b.minElevationMeters = 200
        let total = TrackStatistics.total(of: [a, b])
        #expect(total.points == 15)
        #expect(total.length2DMeters == 4000)
        #expect(total.averageSpeedMetersPerSecond == 10)
        #expect(total.minElevationMeters == 200)
        #expect(total.maxElevationMeters == 500)
        #expect(total.startTime == nil)
    }

    /// A track along a meridian, a fix every 10 m (about 0.00009°), with the given times (seconds, or nil).
    func statistics(times: [Double?], zone: String = "Z") throws -> TrackStatistics {
        var gpx = "<gpx><trk><trkseg>"
        for (k, t) in times.enumerated() {
            gpx += "<trkpt lat=\"\(46 + Double(k) * 0.00009)\" lon=\"14\">"
            if let t {
                let day = Int(t) / 86_400, h = Int(t) / 3600 % 24, m = Int(t) / 60 % 60
                let sec: Double = t - Double(Int(t) / 60 * 60)
                func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
                let seconds = (sec < 10 ? "0" : "") + "\(sec)"
                gpx += "<time>2013-10-\(two(9 + day))T\(two(h)):\(two(m)):\(seconds)\(zone)</time>"
            }
            gpx += "</trkpt>"
        }
        let collector = StatisticsCollector()
        try GPXReader().read(bytes: Array((gpx + "</trkseg></trk></gpx>").utf8), handler: collector)
        return try #require(collector.tracks.first)
    }

    @Test func aStepBackInTimeAddsNoTimeAndNeverANegativeDuration() throws {
        // 200 steps of 5 s, one of which goes back ten minutes: 1 step in 200 is 0.5 %, so the values are kept.
        var times: [Double?] = (0...200).map { Double($0) * 5 + 3600 }
        times[100] = 3500
        let s = try statistics(times: times)
        #expect(s.timeSteps == 200)
        #expect(s.backwardTimeSteps == 1)
        #expect(s.timeProblem == nil)
        // Forward steps only: 99 steps of 5 s, the step from 3500 s on to 3600 + 505 s, and 99 more of 5 s.
        let expected: Double = 99 * 5 + (3600 + 505 - 3500) + 99 * 5
        #expect(s.durationSeconds == expected)
        let moving = try #require(s.movingTimeSeconds)
        #expect(moving == 198 * 5)  // the ten-minute step is standing still
        #expect(s.maxSpeedMetersPerSecond.map { abs($0 - 2) < 0.01 } == true)  // 10 m in 5 s
        #expect(s.averageSpeedMetersPerSecond.map { $0 > 0 } == true)
    }

    @Test func theAverageSpeedIsOfTheLengthTimed() throws {
        // 100 fixes 10 m apart at 2 m/s, then 100 more without times: 2 km long, 1 km of it timed in 495 s.
        let times: [Double?] = (0..<200).map { $0 < 100 ? Double($0) * 5 : nil }
        let s = try statistics(times: times)
        #expect(abs(s.length2DMeters - 1990) < 10)
        #expect(s.movingTimeSeconds == 495)
        let average = try #require(s.averageSpeedMetersPerSecond)
        #expect(abs(average - 2) < 0.01, "\(average)")
        let fastest = try #require(s.maxSpeedMetersPerSecond)
        #expect(average <= fastest + 1e-9)
        let both = try #require(TrackStatistics.total(of: [s, s]).averageSpeedMetersPerSecond)
        #expect(abs(both - average) < 1e-12)
    }

    @Test func timesThatGoBackOftenLeaveOutEveryTimeBasedValue() throws {
        // Two recordings interleaved: every fourth step goes back a day.
        let times: [Double?] = (0...40).map { (k: Int) -> Double? in
            let day: Double = k % 4 == 3 ? 0 : 86_400
            return Double(k) * 10 + day
        }
        let s = try statistics(times: times)
        #expect(s.backwardTimeSteps == 10)
        #expect(s.timeProblem == .goBack(steps: 10, of: 40))
        #expect(s.durationSeconds == nil && s.movingTimeSeconds == nil)
        #expect(s.averageSpeedMetersPerSecond == nil && s.maxSpeedMetersPerSecond == nil)
        #expect(s.startTime != nil && s.endTime != nil)  // the first and last times are still facts
        // A total with such a part has no time-based values either.
        let fine = try statistics(times: (0...10).map { Double($0) * 5 })
        #expect(fine.durationSeconds == 50)
        let total = TrackStatistics.total(of: [fine, s])
        #expect(total.durationSeconds == nil && total.averageSpeedMetersPerSecond == nil)
        #expect(total.timeProblem == s.timeProblem)
    }

    @Test func timesWithoutAZoneWorkInDurations() throws {
        // As a mapping program writes them: seven fractional digits, no zone.
        let s = try statistics(times: [0, 1.25, 2.5, 3.75], zone: "")
        #expect(s.durationSeconds == 3.75)
        #expect(s.startTime?.description == "2013-10-09T00:00:00.0")
    }

    @Test func oneStepBackByDaysJoinsRecordingsOutOfOrder() throws {
        // 300 steps of 5 s, then two days back once (0.3 % of the steps): the recordings were joined out of order.
        var times: [Double?] = (0...300).map { Double($0) * 5 + 3 * 86_400 }
        times[200] = 86_400 + 1000
        let s = try statistics(times: times)
        let back: Double = (199 * 5 + 3 * 86_400) - (86_400 + 1000)
        #expect(s.timeProblem == .jumpBack(seconds: back))
        #expect(s.durationSeconds == nil && s.maxSpeedMetersPerSecond == nil)
        #expect(
            s.timeProblem?.description
                == "times jump back by 2 days, as in tracks joined from recordings of different days")
        // A step back of a few seconds (a device's glitch) is no such thing.
        let glitch: Double = 3 * 86_400 + 200 * 5 - 3
        times[200] = glitch
        #expect(try statistics(times: times).timeProblem == nil)
    }

    @Test func timesFasterThanSoundAreNotARecording() throws {
        // A mapping program's points, 10 m apart, drawn a millisecond apart: 1 km "in" 0.1 s.
        let drawn = try statistics(times: (0...100).map { (k: Int) -> Double? in Double(k) * 0.001 })
        let metres = drawn.timedLengthMeters
        #expect(metres > 1000 && metres < 1010)
        guard case .tooFast(let m, let seconds)? = drawn.timeProblem else {
            Issue.record("no problem found in \(String(describing: drawn.timeProblem))")
            return
        }
        #expect(m == metres && abs(seconds - 0.1) < 1e-9)
        #expect(drawn.durationSeconds == nil && drawn.averageSpeedMetersPerSecond == nil)
        // Two fixes 10 m apart in the same whole second are a device's rounding, not a problem.
        let rounded = try statistics(times: [7, 7])
        #expect(rounded.timeProblem == nil && rounded.durationSeconds == 0)
    }
}
