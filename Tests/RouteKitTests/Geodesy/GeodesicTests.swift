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
