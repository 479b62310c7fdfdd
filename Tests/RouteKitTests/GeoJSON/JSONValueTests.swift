import Foundation
import RouteKit
import Testing

@Suite struct JSONValueTests {
    @Test func compactNumberArraysEqualTheSameNumbersWrittenOut() {
        #expect(JSONValue.numbers([1, 2]) == .array([.number(1), .number(2)]))
        #expect(JSONValue.array([.number(1), .number(2)]) == .numbers([1, 2]))
        #expect(JSONValue.numbers([1, 2]) != .array([.number(1), .string("2")]))
        #expect(JSONValue.numbers([1, 2]).elements == [.number(1), .number(2)])
        #expect(JSONValue.object([("a", .null)]) != .object([("b", .null)]))
        #expect(JSONValue.object([("a", .null), ("b", .bool(true))]) != .object([("b", .bool(true)), ("a", .null)]))
    }

    @Test func aSeriesIsTheSameAsTheArrayWrittenOut() throws {
        let series = JSONSeries()
        try series.append(position: [1, 2, 3])
        try series.append(position: [4, 5.5])
        let flat = JSONValue.series(series)
        let written: JSONValue = .array([.numbers([1, 2, 3]), .numbers([4, 5.5])])
        #expect(flat == written && written == flat)
        #expect(flat != .array([.numbers([1, 2]), .numbers([3, 4, 5.5])]))
        #expect(flat.elements == [.numbers([1, 2, 3]), .numbers([4, 5.5])])
        let mixed = JSONSeries()
        try mixed.append(position: [.nan, 1])
        try mixed.append(number: nil)
        try mixed.append(string: "2024-05-01T08:00:00Z")
        try mixed.append(string: "quote \" and\ttab")
        try mixed.append(number: 2.5)
        var text = ByteBuffer()
        try flat.append(to: &text, precision: 0)
        try JSONValue.series(mixed).append(to: &text)
        #expect(
            text.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
                == #"[[1,2,3],[4,6]][[null,1],null,"2024-05-01T08:00:00Z","quote \" and\ttab",2.5]"#)
    }

    @Test func accessorsAnswerOnlyForTheirOwnKind() {
        let value = JSONValue.object([("name", .string("KT 1")), ("n", .number(3)), ("name", .string("KT 2"))])
        #expect(value["name"]?.string == "KT 2")
        #expect(value["n"]?.number == 3)
        #expect(value["missing"] == nil)
        #expect(value["n"]?.string == nil)
        #expect(JSONValue.string("x")["name"] == nil)
        #expect(JSONValue.string("x").number == nil && JSONValue.number(1).elements == nil)
        #expect(JSONValue.null.isNull && !JSONValue.bool(false).isNull)
    }

    @Test func readsAFileFromDisk() throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Fixture.write(
            Array(#"[{"zapSt":"1","naziv":"Ljubljanski grad"}]"#.utf8), name: "kt.json", in: folder)
        let value = try JSONValue.read(path: path)
        #expect(value.elements?.first?["naziv"]?.string == "Ljubljanski grad")
        #expect(throws: IOError.self) { try JSONValue.read(path: folder.appendingPathComponent("none.json").path) }
    }
}
