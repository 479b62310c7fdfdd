import Foundation
import RouteKit
import Testing

@Suite struct GeodesicTests {
    let jfk = Coordinate(latitude: 40.64, longitude: -73.78)
    let singapore = Coordinate(latitude: 1.36, longitude: 103.99)

    @Test func jfkToSingaporeMatchesGeographicLib() {
        // GeodSolve -i -p 9 (GeographicLib 2.1.2): 15347512.940512940 m, azimuths 3.30577347801761° and
        // 177.48784020815515°.
        let result = Geodesic.wgs84.inverse(from: jfk, to: singapore)
        #expect(abs(result.distanceMeters - 15_347_512.940_512_940) < 1e-6)
        #expect(abs(result.initialAzimuthDegrees - 3.305_773_478_017_61) < 1e-9)
        #expect(abs(result.finalAzimuthDegrees - 177.487_840_208_155_15) < 1e-9)
    }

    @Test func directInvertsInverse() {
        let result = Geodesic.wgs84.inverse(from: jfk, to: singapore)
        let back = Geodesic.wgs84.destination(
            from: jfk, azimuthDegrees: result.initialAzimuthDegrees, distanceMeters: result.distanceMeters)
        #expect(abs(back.latitude - singapore.latitude) < 1e-9)
        #expect(abs(back.longitude - singapore.longitude) < 1e-9)
        #expect(abs(jfk.bearing(to: singapore) - 3.305_773_478_017_61) < 1e-9)
    }

    @Test func theLocalFormulaAgreesWithKarneyToATenthOfAMillimetreUpToItsCutoff() {
        var generator = SystemRandomNumberGenerator()
        var worst = 0.0
        for _ in 0..<200_000 {
            let start = Coordinate(
                latitude: Double.random(in: -89.89...89.89, using: &generator),
                longitude: Double.random(in: -180...180, using: &generator))
            // Steps up to a little beyond the cut-off (beyond it, geod_inverse is used anyway).
            let length = Double.random(in: 0...700, using: &generator)
            let end = Geodesic.wgs84.destination(
                from: start, azimuthDegrees: Double.random(in: -180...180, using: &generator), distanceMeters: length)
            let exact = Geodesic.wgs84.distance(from: start, to: end)
            let fast = Geodesic.wgs84.stepDistance(from: start, to: end)
            worst = max(worst, abs(fast - exact))
        }
        #expect(worst < 1e-4, "worst difference \(worst) m")
    }

    @Test func stepsAcrossTheAntimeridianAndNearThePolesAreRight() {
        let west = Coordinate(latitude: 10, longitude: 179.9999)
        let east = Coordinate(latitude: 10, longitude: -179.9999)
        #expect(
            abs(Geodesic.wgs84.stepDistance(from: west, to: east) - Geodesic.wgs84.distance(from: west, to: east))
                < 1e-4)
        let nearPole = Coordinate(latitude: 89.99, longitude: 0)
        let across = Coordinate(latitude: 89.99, longitude: 180)
        #expect(
            abs(
                Geodesic.wgs84.stepDistance(from: nearPole, to: across)
                    - Geodesic.wgs84.distance(from: nearPole, to: across)) < 1e-4)
    }

    @Test(.requires(.geodSolve)) func trackLengthsMatchGeodSolveToAMillimetre() throws {
        // Every step of the sample stages through GeographicLib's own GeodSolve (an implementation of Karney's
        // algorithms independent of PROJ's): the sums agree to a millimetre.
        let geodSolve = try Tool.geodSolve.requirePath()
        let stages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/stkp")
        for stage in ["Etapa 1.gpx", "Etapa 5.gpx"] {
            let path = stages.appendingPathComponent(stage).path
            let document = try GPXReader().document(at: path)
            let collector = StatisticsCollector()
            try GPXReader().read(InputFile(path: path), handler: collector)
            var input = ""
            var steps = 0
            for segment in document.tracks[0].segments {
                for (a, b) in zip(segment.points, segment.points.dropFirst()) {
                    input +=
                        "\(a.coordinate.latitude) \(a.coordinate.longitude) "
                        + "\(b.coordinate.latitude) \(b.coordinate.longitude)\n"
                    steps += 1
                }
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: geodSolve)
            process.arguments = ["-i", "-p", "9"]
            let stdin = Pipe()
            let stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            try process.run()
            let data = Data(input.utf8)
            let writer = Thread {
                stdin.fileHandleForWriting.write(data)
                try? stdin.fileHandleForWriting.close()
            }
            writer.start()
            let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let lines = output.split(separator: "\n")
            #expect(steps > 1000 && lines.count == steps, "\(stage): \(lines.count) answers for \(steps) steps")
            let reference = lines.reduce(0.0) { $0 + (Double($1.split(separator: " ")[2]) ?? .nan) }
            let ours = try #require(collector.tracks.first).length2DMeters
            #expect(abs(ours - reference) < 1e-3, "\(stage): \(ours) vs GeodSolve \(reference)")
        }
    }
}

@Suite struct GeodesicCenterTests {
    /// The short-line formulas against `geod_inverse` on random lines up to a little beyond their limit, from
    /// centres everywhere (near the poles and on the antimeridian too).
    @Test func agreesWithKarneyToAMicrometreAndAMillionthOfADegree() {
        var random = SeededRandom(state: 21)
        var worstDistance = 0.0
        var worstAzimuth = 0.0
        for k in 0..<100_000 {
            let latitude =
                k % 10 == 0
                ? Double.random(in: 89.9...90, using: &random) * (k % 20 == 0 ? 1 : -1)
                : asin(Double.random(in: -1...1, using: &random)) * 180 / .pi
            let longitude =
                k % 10 == 1 ? (k % 20 == 1 ? 180 : -179.9999) : Double.random(in: -180...180, using: &random)
            let center = Coordinate(latitude: latitude, longitude: longitude)
            let length =
                k % 3 == 0 ? Double.random(in: 0...10, using: &random) : Double.random(in: 0...120_000, using: &random)
            let end = Geodesic.wgs84.destination(
                from: center, azimuthDegrees: Double.random(in: -180...180, using: &random), distanceMeters: length)
            let exact = Geodesic.wgs84.inverse(from: center, to: end)
            let fast = GeodesicCenter(center).inverse(to: end)
            worstDistance = max(worstDistance, abs(fast.distanceMeters - exact.distanceMeters))
            // Azimuths are compared where the points' own rounding (a few nanometres) leaves them defined to a
            // millionth of a degree: on lines of a metre or more.
            if exact.distanceMeters > 1 {
                let turn = abs(
                    (fast.azimuthDegrees - exact.initialAzimuthDegrees + 540).truncatingRemainder(dividingBy: 360) - 180
                )
                worstAzimuth = max(worstAzimuth, turn)
                #expect((-180...180).contains(fast.azimuthDegrees))
            }
        }
        #expect(worstDistance < 1e-6, "worst distance difference \(worstDistance) m")
        #expect(worstAzimuth < 1e-6, "worst azimuth difference \(worstAzimuth)°")
    }

    @Test func farPointsAndThePolesAreGeodInversesOwn() {
        let brno = Coordinate(latitude: 49.1951, longitude: 16.6068)
        let prague = Coordinate(latitude: 50.0755, longitude: 14.4378)  // 185 km: beyond the short lines
        let far = GeodesicCenter(brno).inverse(to: prague)
        let exact = Geodesic.wgs84.inverse(from: brno, to: prague)
        #expect(far.distanceMeters == exact.distanceMeters && far.azimuthDegrees == exact.initialAzimuthDegrees)
        let pole = Coordinate(latitude: 90, longitude: 17)
        let near = Coordinate(latitude: 89.9, longitude: -40)
        let fromPole = GeodesicCenter(pole).inverse(to: near)
        let exactFromPole = Geodesic.wgs84.inverse(from: pole, to: near)
        #expect(fromPole.distanceMeters == exactFromPole.distanceMeters)
        #expect(fromPole.azimuthDegrees == exactFromPole.initialAzimuthDegrees)
        #expect(GeodesicCenter(brno).inverse(to: brno).distanceMeters == 0)
    }
}
