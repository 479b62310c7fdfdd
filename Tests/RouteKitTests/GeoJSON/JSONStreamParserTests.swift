import RouteKit
import Testing

/// The JSON parser under the GeoJSON reader, through ``JSONValue/read(_:)``: RFC 8259 and the limits that keep
/// memory and stack bounded on hostile files.
@Suite struct JSONStreamParserTests {
    func read(_ text: String) throws -> JSONValue {
        try JSONValue.read(InputFile(name: "t.json", bytes: Array(text.utf8)))
    }

    func failure(_ text: String) -> GeoJSONError? {
        do {
            _ = try read(text)
            return nil
        } catch let error as GeoJSONError {
            return error
        } catch {
            return nil
        }
    }

    @Test func readsEveryKindOfValueAndEscape() throws {
        let value = try read(
            #"{"a":[1,2.5,-3e2,0],"b":null,"c":[true,false,"x"],"d":"\"\\\/\b\f\n\r\t\u00e9\ud83d\udeb2","a":{}}"#)
        #expect(value["a"] == .object([]))  // a later duplicate key wins
        #expect(value["b"]?.isNull == true)
        #expect(value["c"] == .array([.bool(true), .bool(false), .string("x")]))
        #expect(value["d"]?.string == "\"\\/\u{8}\u{C}\n\r\té🚲")
        guard case .object(let members) = value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.0) == ["a", "b", "c", "d", "a"])
        #expect(members[0].1 == .numbers([1, 2.5, -300, 0]))
        #expect(try read("\u{FEFF} [] ") == .numbers([]))
    }

    @Test(arguments: [
        ("{\"a\":1,}", "1:8: not valid JSON: expected a string, found '}'"),
        ("[1 2]", "1:4: not valid JSON: expected ',' or ']' in an array, found '2'"),
        ("[NaN]", "1:2: not valid JSON: expected a value, found 'N'"),
        ("// c\n1", "1:1: not valid JSON: expected a value, found '/'"),
        ("\"a\u{1}\"", "1:4: not valid JSON: control character in a string (write it as an escape)"),
        ("\"\\ud83d\"", "1:8: not valid JSON: lone surrogate \\ud83d"),
        ("\"\\x\"", "1:4: not valid JSON: invalid escape '\\x'"),
        ("1 2", "1:3: not valid JSON: unexpected text after the JSON value"),
        ("\n\n  [1,", "3:6: not valid JSON: the file ends early (expected a value): is it truncated?"),
    ])
    func refusesWhatRFC8259RefusesWithLineAndColumn(text: String, message: String) {
        // The column is where reading stopped: at the unexpected byte, or just after a bad byte inside a string
        // (the byte that ended the high surrogate's escape, where the low one should start).
        #expect(failure(text)?.description == message)
    }

    @Test func refusesUTF16() {
        let bytes: [UInt8] = [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00]
        #expect(
            throws: GeoJSONError.malformed(
                line: 1, column: 1,
                reason: "the file starts with a UTF-16 byte-order mark; GeoJSON must be UTF-8 (RFC 8259)")
        ) {
            try JSONValue.read(InputFile(name: "t.json", bytes: bytes))
        }
    }

    @Test func nestsUpTo512LevelsAndNoDeeper() throws {
        // Deeper nesting is refused before it can exhaust the stack.
        let deepest = String(repeating: "[", count: 512) + "1" + String(repeating: "]", count: 512)
        var value = try read(deepest)
        for _ in 0..<511 { value = try #require(value.elements?.first) }
        #expect(value == .numbers([1]))
        let deeper = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(failure(deeper)?.description == "1:513: not valid JSON: nested deeper than 512 levels")
        let objects = String(repeating: "{\"a\":", count: 513) + "1" + String(repeating: "}", count: 513)
        #expect(failure(objects)?.description.hasSuffix("nested deeper than 512 levels") == true)
    }

    @Test func takesNumbersUpTo1000CharactersAndNoLonger() throws {
        let longest = "1." + String(repeating: "0", count: 998)
        #expect(try read("[" + longest + "]") == .numbers([1]))
        let tooLong = "1." + String(repeating: "0", count: 999)
        let tooLongMessage =
            "1:1002: not valid JSON: '1.00000000000000000000000000000000000000…' is not a number "
            + "(over 1000 characters)"
        #expect(failure("[" + tooLong + "]")?.description == tooLongMessage)
        #expect(failure("[1e999]")?.description == "1:7: not valid JSON: '1e999' is not a number")
    }

    @Test func takesStringsUpTo10MBAndNoLonger() throws {
        let limit = 10_000_000
        let longest = try read("\"" + String(repeating: "x", count: limit) + "\"")
        #expect(longest.string?.utf8.count == limit)
        let tooLong = failure("\"" + String(repeating: "x", count: limit + 1) + "\"")
        let tooLongMessage =
            "1:10000003: not valid JSON: a string over 10 MB, more than this reader accepts "
            + "(a limit against hostile files)"
        #expect(tooLong?.description == tooLongMessage)
    }

    @Test func theStringLimitHoldsForEscapesToo() {
        // 10,000,001 bytes written as escapes ("\n" is one byte once read) are as long as plain ones.
        let escaped = "\"" + String(repeating: "\\n", count: 10_000_001) + "\""
        #expect(failure(escaped)?.description.hasSuffix("a limit against hostile files)") == true)
    }
}
