import Foundation
import Testing

@testable import RouteKit

/// The library counts its progress (and knows nothing of how it is shown).
@Suite struct ProgressCounterTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func countsFromManyThreadsWithoutLosingAnUnit() throws {
        let counter = ProgressCounter()
        counter.expect(8 * 10_000)
        _ = try parallelMap(8) { _ in for _ in 0..<10_000 { counter.advance(by: 1) } }
        #expect(counter.done == 80_000)
        #expect(counter.total == 80_000)
    }

    @Test func aFileCountsEveryByteItHandsOutOfItsSize() throws {
        let path = Self.root.appendingPathComponent("Tests/RouteKitTests/Fixtures/garmin-tpe.gpx").path
        let size = Int64(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? -1)
        let file = try InputFile(path: path)
        #expect(file.byteCount == size)
        let counter = ProgressCounter()
        file.progress = counter
        _ = try file.peek(100)  // a look ahead is no progress
        #expect(counter.done == 0)
        _ = try file.readAll()
        #expect(counter.done == size)
    }

    @Test func catalogsCountTheirBytesOfTheirSizes() throws {
        let paths = ["data/clubrooms/clubrooms.xml", "data/clubrooms/clubrooms.csv"].map {
            Self.root.appendingPathComponent($0).path
        }
        let sizes = try paths.map { Int64(try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? -1) }
        let counter = ProgressCounter()
        let catalog = try ClubroomCatalog.read(paths: paths, columns: .init(), progress: counter)
        #expect(!catalog.clubrooms.isEmpty)
        #expect(counter.total == sizes.reduce(0, +))
        #expect(counter.done == counter.total)
    }

    @Test func aBundleCountsItsStagesAsTheyAreRead() throws {
        let counter = ProgressCounter()
        let bundle = StageBundle.read(
            try BundleSource.open(Self.root.appendingPathComponent("data/stkp").path), progress: counter)
        #expect(bundle.stages.count > 1)
        #expect(counter.total == Int64(bundle.stages.count))
        #expect(counter.done == counter.total)
    }
}
