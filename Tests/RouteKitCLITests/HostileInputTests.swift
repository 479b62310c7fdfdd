import Foundation
import Testing

@testable import RouteKitCLI

/// Files made to hurt: each gets a result or a clear error with the exit code DESIGN.md gives, never a crash,
/// a hang, a leaked file content or an output file left behind by a failed run.
@Suite struct HostileInputTests {
    /// Runs `routekit ARGUMENTS... -o OUT` with `input` written to a file; checks that a failed run leaves
    /// nothing behind. `{}` in the arguments stands for the input file.
    static func run(
        _ input: Data, name: String = "input.gpx", _ arguments: [String], output: String = "out.geojson"
    ) throws -> Run {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        try input.write(to: URL(fileURLWithPath: path))
        let out = folder.appendingPathComponent(output).path
        let run = try CLI.run(arguments.map { $0 == "{}" ? path : $0 } + ["-o", out])
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == (run.status == 0 ? [name, output].sorted() : [name]), "\(arguments): \(run.standardError)")
        #expect(run.status != 70, "internal error: \(run.standardError)")
        return run
    }

    static func gpx(_ body: String, prolog: String = "") -> Data {
        Data((prolog + "<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">" + body + "</gpx>").utf8)
    }

    static let entities = (1...8).map { i -> String in
        let previous = Character(UnicodeScalar(UInt8(0x60 + i)))
        let name = Character(UnicodeScalar(UInt8(0x61 + i)))
        return "<!ENTITY \(name) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
    }.joined()

    @Test func anEntityBombIsNeverExpanded() throws {
        let bomb = Self.gpx(
            "<wpt lat=\"1\" lon=\"2\"><name>&i;</name></wpt>",
            prolog: "<?xml version=\"1.0\"?><!DOCTYPE gpx [<!ENTITY a \"aaaaaaaaaa\">\(Self.entities)]>")
        let run = try Self.run(bomb, ["convert", "{}"])
        #expect(run.status == 65)
        #expect(run.standardError.contains("input.gpx:1:"))
        #expect(run.standardError.contains("Entity 'i' not defined (entities declared in a DTD are not read"))
        #expect(!run.standardOutput.contains("aaaaaaaaaa"))
    }

    @Test func anExternalEntityNeverLeaksTheFileItNames() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = folder.appendingPathComponent("secret.txt")
        try Data("TOP-SECRET-4711".utf8).write(to: secret)
        for (prolog, body) in [
            (
                "<!DOCTYPE gpx [<!ENTITY x SYSTEM \"file://\(secret.path)\">]>",
                "<wpt lat=\"1\" lon=\"2\"><name>&x;</name></wpt>"
            ),
            (
                "<!DOCTYPE gpx [<!ENTITY x SYSTEM \"file://\(secret.path)\">]>",
                "<wpt lat=\"1\" lon=\"2\" note=\"&x;\"/>"
            ),
            ("<!DOCTYPE gpx SYSTEM \"file://\(secret.path)\">", "<wpt lat=\"1\" lon=\"2\"><name>n</name></wpt>"),
            ("<!DOCTYPE gpx [<!ENTITY % p SYSTEM \"file://\(secret.path)\"> %p;]>", "<wpt lat=\"1\" lon=\"2\"/>"),
        ] {
            let run = try Self.run(Self.gpx(body, prolog: prolog), ["convert", "{}"])
            #expect(!run.standardOutput.contains("TOP-SECRET"), "\(prolog)")
            #expect(!run.standardError.contains("TOP-SECRET"), "\(prolog)")
            // The same through the SkautIS catalog reader.
            let record =
                "\(prolog)<AdvertisingSummaryOutput><Realty_GpsLatitude>50</Realty_GpsLatitude>"
                + "<Realty_GpsLongitude>14</Realty_GpsLongitude><DisplayName>&x;</DisplayName>"
                + "</AdvertisingSummaryOutput>"
            let catalog = Data(record.utf8)
            let near = try Self.run(
                catalog, name: "catalog.xml", ["near", "--at", "50,14", "--format", "geojson", "{}"])
            #expect(
                !near.standardOutput.contains("TOP-SECRET") && !near.standardError.contains("TOP-SECRET"), "\(prolog)")
        }
    }

    @Test func a100000LevelNestingIsReadInConstantSpace() throws {
        let deep = String(repeating: "<x>", count: 100_000) + String(repeating: "</x>", count: 100_000)
        let run = try Self.run(Self.gpx("<trk>" + deep + "</trk><wpt lat=\"1\" lon=\"2\"/>"), ["convert", "{}"])
        #expect(run.status == 0)
        #expect(run.standardError.contains("track has no points; left out"))
        let json = try Self.run(
            Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8),
            name: "deep.geojson", ["convert", "{}"], output: "out.gpx")
        #expect(json.status == 65)
        #expect(json.standardError.contains("not GeoJSON: expected an object at the top"))
        let nested =
            "{\"type\":\"Feature\",\"properties\":{\"a\":" + String(repeating: "[", count: 100_000)
            + "},\"geometry\":null}"
        let deepJSON = try Self.run(Data(nested.utf8), name: "deep.geojson", ["convert", "{}"], output: "out.gpx")
        #expect(deepJSON.status == 65)
        #expect(deepJSON.standardError.contains("nested deeper than 512 levels"))
    }

    @Test func a50MBAttributeIsRefusedAnd50MBOfTextLeftOut() throws {
        let huge = String(repeating: "A", count: 50 << 20)
        let attribute = try Self.run(Self.gpx("<wpt lat=\"1\" lon=\"2\" x=\"\(huge)\"/>"), ["convert", "{}"])
        #expect(attribute.status == 65)
        #expect(attribute.standardError.contains("refused: a single tag, value or comment over 10,000,000 bytes"))
        let text = try Self.run(Self.gpx("<wpt lat=\"1\" lon=\"2\"><name>\(huge)</name></wpt>"), ["convert", "{}"])
        #expect(text.status == 0)
        #expect(text.standardError.contains("a value longer than 1 MiB; left out"))
        let json =
            "{\"type\":\"Feature\",\"properties\":{\"name\":\"\(huge)\"},"
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,1]}}"
        let string = try Self.run(Data(json.utf8), name: "big.geojson", ["convert", "{}"], output: "out.gpx")
        #expect(string.status == 65)
        #expect(string.standardError.contains("a string over 10 MB, more than this reader accepts"))
    }

    static let smallGPX = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1" \
        xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
          <metadata><name>Etapa 1</name></metadata>
          <wpt lat="46.0569" lon="14.5058"><ele>295</ele><name>KT 1 &amp; žig</name>\
        <desc><![CDATA[Žig <koča>]]></desc></wpt>
          <rte><name>Plan</name><rtept lat="46.05" lon="14.50"/><rtept lat="46.06" lon="14.51"/></rte>
          <trk><name>Etapa 1</name><trkseg>
            <trkpt lat="46.0569" lon="14.5058"><ele>295.5</ele><time>2026-06-01T06:00:00Z</time>
              <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr>\
        </gpxtpx:TrackPointExtension></extensions></trkpt>
            <trkpt lat="46.0570" lon="14.5060"><ele>296.0</ele><time>2026-06-01T06:00:05Z</time></trkpt>
          </trkseg></trk>
        </gpx>

        """

    /// Every prefix of a file: a clear error naming the file and a place in it, or (once the document is
    /// complete) a result; never a crash, never exit 70, never a file left by a failed run.
    static func truncations(
        of text: String, name: String, output: String, arguments: [String] = ["convert", "{}"],
        check: (Int, Run) -> Void
    ) throws {
        let bytes = Array(text.utf8)
        for length in 0...bytes.count {
            check(length, try run(Data(bytes[0..<length]), name: name, arguments, output: output))
        }
    }

    @Test func aGPXFileCutAtEveryByteGivesAClearError() throws {
        let complete = Array(Self.smallGPX.utf8).count - "</gpx>\n".utf8.count + "</gpx>".utf8.count
        try Self.truncations(of: Self.smallGPX, name: "cut.gpx", output: "out.geojson") { length, run in
            if length >= complete {
                #expect(run.status == 0, "\(length): \(run.standardError)")
            } else if length == 0 {
                #expect(run.standardError.contains("cut.gpx: not GPX, KML, KMZ, TCX or GeoJSON"))
            } else {
                #expect(run.status == 65, "\(length)")
                #expect(run.standardError.contains("cut.gpx:"), "\(length): \(run.standardError)")
                #expect(
                    run.standardError.contains("is it truncated?") || run.standardError.contains("not a GPX file"),
                    "\(length): \(run.standardError)")
            }
        }
    }

    @Test func aGeoJSONFileCutAtEveryByteGivesAClearErrorOrWhatCameBefore() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("s.gpx")
        try Data(Self.smallGPX.utf8).write(to: source)
        let geojson = try CLI.run(["convert", source.path]).standardOutput
        try Self.truncations(of: geojson, name: "cut.geojson", output: "out.gpx") { length, run in
            if length >= geojson.utf8.count - 1 {
                #expect(run.status == 0, "\(length): \(run.standardError)")
            } else if length > 0 {
                #expect(run.status == 65, "\(length)")
                #expect(
                    run.standardError.contains("cut.geojson:") && run.standardError.contains("is it truncated?"),
                    "\(length): \(run.standardError)")
            }
        }
        // A text sequence keeps the texts before the cut (RFC 7464), with a warning for the cut one.
        let sequence = Array(try CLI.run(["convert", "--to", "geojsonseq", source.path]).standardOutput.utf8)
        let separators = Set(sequence.indices.filter { sequence[$0] == 0x1E })
        try Self.truncations(of: String(decoding: sequence, as: UTF8.self), name: "cut.geojsons", output: "out.gpx") {
            length, run in
            if length < 2 {
                // Nothing, or a record separator and nothing after it: no text at all, which is an error.
                #expect(run.status == 65, "\(length): \(run.standardError)")
                #expect(
                    run.standardError.contains(
                        length == 0
                            ? "cut.geojsons: not GPX, KML, KMZ, TCX or GeoJSON"
                            : "cut.geojsons:1:1: not GeoJSON: the file is empty"),
                    "\(length): \(run.standardError)")
                return
            }
            #expect(run.status == 0, "\(length): \(run.standardError)")
            let complete =
                length >= sequence.count - 1 || !separators.isDisjoint(with: [length - 1, length, length + 1])
            #expect(
                run.standardError.contains("the last text of the sequence is cut off") == !complete,
                "\(length): \(run.standardError)")
        }
    }

    @Test func aSkautISCatalogCutAtEveryByteGivesAClearError() throws {
        let xml = """
            <?xml version="1.0" encoding="utf-8"?>\
            <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>\
            <AdvertisingSummaryResponse><AdvertisingSummaryResult>
            <AdvertisingSummaryOutput><Realty_ID>1</Realty_ID><Realty_GpsLatitude>50.0755</Realty_GpsLatitude>\
            <Realty_GpsLongitude>14.4378</Realty_GpsLongitude><DisplayName>Klubovna</DisplayName>\
            <Unit_RegistrationNumber>111.01</Unit_RegistrationNumber></AdvertisingSummaryOutput>
            </AdvertisingSummaryResult></AdvertisingSummaryResponse></soap:Body></soap:Envelope>
            """
        try Self.truncations(
            of: xml, name: "cut.xml", output: "out.geojson",
            arguments: ["near", "--at", "50,14", "--format", "geojson", "{}"]
        ) { length, run in
            if length > 0 && length < xml.utf8.count {
                #expect(run.status == 65, "\(length): \(run.standardError)")
                #expect(run.standardError.contains("cut.xml"), "\(length): \(run.standardError)")
            }
        }
    }

    @Test func aCSVCatalogWithImpossibleValuesOrAnOpenQuoteSaysWhere() throws {
        let values = "id,name,lat,lon\n1,a,NaN,14\n2,b,50,inf\n3,c,1e999,14\n4,d,91,14\n5,e,50.08,14.43\n"
        let run = try Self.run(Data(values.utf8), name: "c.csv", ["near", "--at", "50,14", "{}"], output: "near.txt")
        #expect(run.status == 0)
        for part in [
            "4 of 5 records left out for want of usable coordinates", "c.csv:2: coordinates 'NaN, 14' are not numbers",
            "c.csv:3: coordinates '50, inf' are not numbers", "c.csv:4: coordinates '1e999, 14' are not numbers",
        ] {
            #expect(run.standardError.contains(part), "\(run.standardError)")
        }
        let quote = try Self.run(
            Data("id,lat,lon\n1,\"50,14\n2,50,14\n".utf8), name: "q.csv", ["near", "--at", "50,14", "{}"],
            output: "near.txt")
        #expect(quote.status == 65)
        #expect(
            quote.standardError.contains("q.csv:2:3: the quoted field that starts here is never closed"),
            "\(quote.standardError)")
    }

    @Test func impossibleValuesAreLeftOutWithTheirLineAndStrictMakesThemErrors() throws {
        let body = """
            <trk><trkseg>
            <trkpt lat="NaN" lon="14"/><trkpt lat="Inf" lon="14"/><trkpt lat="1e999" lon="14"/>
            <trkpt lat="91" lon="14"/><trkpt lat="-91" lon="14"/><trkpt lat="46" lon="181"/>
            <trkpt lat="46" lon="14"><ele>NaN</ele><time>2021-13-45T25:61:00Z</time></trkpt>
            <trkpt lat="46.1" lon="14"><ele>1e999</ele></trkpt>
            <trkpt lat="46.2" lon="14"><ele>1e300</ele></trkpt>
            </trkseg></trk>
            """
        let run = try Self.run(Self.gpx(body), ["convert", "{}"])
        #expect(run.status == 0)
        for message in [
            "input.gpx:2:26: latitude 'NaN' is not a number; point skipped",
            "input.gpx:2:53: latitude 'Inf' is not a number; point skipped",
            "input.gpx:2:82: latitude '1e999' is not a number; point skipped",
            "input.gpx:3:25: latitude 91 is outside −90…90; point skipped",
            "input.gpx:3:52: latitude -91 is outside −90…90; point skipped",
            "input.gpx:3:79: longitude 181 is outside −180…180; point skipped",
            "elevation 'NaN' is not a number; left out",
            "time '2021-13-45T25:61:00Z' is not an ISO 8601 date and time; time left out",
            "elevation '1e999' is not a number; left out",
            "input.gpx:6:44: elevation 1e300 m is beyond ±100 km; left out",
        ] {
            #expect(run.standardError.contains(message), "\(message)\n\(run.standardError)")
        }
        let strict = try Self.run(Self.gpx(body), ["convert", "--strict", "{}"])
        #expect(strict.status == 65)
        #expect(strict.standardError.contains("input.gpx:2:26: latitude 'NaN' is not a number"))

        let json = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[181,46]}},
            {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[14,-91]}},
            {"type":"Feature","properties":{"time":"2021-13-45T25:61:00Z"},\
            "geometry":{"type":"Point","coordinates":[14,46]}}
            ]}
            """
        let geojson = try Self.run(Data(json.utf8), name: "bad.geojson", ["convert", "{}"], output: "out.gpx")
        #expect(geojson.status == 0, "\(geojson.standardError)")
        #expect(
            geojson.standardError.contains("bad.geojson:2:1: feature 1: position [181, 46] is out of range; left out"))
        #expect(
            geojson.standardError.contains("bad.geojson:3:1: feature 2: position [14, -91] is out of range; left out"))
        #expect(
            geojson.standardError.contains("bad.geojson:4:1: feature 3: time '2021-13-45T25:61:00Z'"),
            "\(geojson.standardError)")
        // JSON has no NaN, and a number beyond a double's range is refused (RFC 8259 lets a reader set limits).
        let huge = try Self.run(
            Data("{\"type\":\"Point\",\"coordinates\":[1e999,1]}".utf8), name: "huge.geojson", ["convert", "{}"],
            output: "out.gpx")
        #expect(huge.status == 65)
        #expect(
            huge.standardError.contains("huge.geojson:1:37: not valid JSON: '1e999' is not a number"),
            "\(huge.standardError)")
        let nan = try Self.run(
            Data("{\"type\":\"Point\",\"coordinates\":[NaN,1]}".utf8), name: "nan.geojson", ["convert", "{}"],
            output: "out.gpx")
        #expect(nan.status == 65)
        #expect(nan.standardError.contains("nan.geojson:1:"))
    }

    @Test func emptyGarbageAndDirectoriesAreErrorsNamingTheFile() throws {
        let empty = try Self.run(Data(), ["convert", "{}"])
        #expect(empty.status == 65)
        #expect(empty.standardError.contains("input.gpx: not GPX, KML, KMZ, TCX or GeoJSON (the file is empty"))
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let outputs = [
            (["convert", "{}"], "out.geojson"), (["stats", "{}"], "out.txt"),
            (["near", "--at", "50,14", "{}"], "out.txt"),
        ]
        for (arguments, output) in outputs {
            let run = try Self.run(garbage, arguments, output: output)
            #expect([65, 0].contains(run.status), "\(arguments): \(run.standardError)")
            if run.status == 65 { #expect(run.standardError.contains("input.gpx"), "\(run.standardError)") }
        }
        let folder = try CLI.run(["stats", CLI.fixtures.path])
        #expect(folder.status == 66)
        #expect(folder.standardError.contains("is a directory"))
        let catalogFolder = try CLI.run(["near", "--at", "50,14", CLI.fixtures.path])
        #expect(catalogFolder.status == 66)
        // An endless input of zeros is refused from its first bytes, never read to its (missing) end.
        for arguments in [["convert", "/dev/zero"], ["stats", "/dev/zero"], ["near", "--at", "50,14", "/dev/zero"]] {
            let run = try CLI.run(arguments)
            #expect(run.status == 65, "\(arguments)")
            #expect(
                run.standardError.contains("/dev/zero: ")
                    && (run.standardError.contains("neither") || run.standardError.contains("not GPX, KML")),
                "\(run.standardError)")
        }
    }

    @Test func aFileThatCannotBeReadExits66() throws {
        // Opens, but every read fails (EIO): the error path after a successful open.
        let memory = try CLI.run(["convert", "/proc/self/mem"])
        #expect(memory.status == 66)
        #expect(memory.standardError.contains("/proc/self/mem: cannot read"))
    }

    // Root may read a file whatever its permissions (CI runs as root): the test below covers exit 66 there.
    @Test(.enabled(if: geteuid() != 0, "root reads any file; a path that cannot be opened by anyone is tested instead"))
    func aFileWithoutReadPermissionExits66() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("locked.gpx")
        try Self.gpx("").write(to: file)
        chmod(file.path, 0)
        let run = try CLI.run(["convert", file.path])
        #expect(run.status == 66)
        #expect(run.standardError.contains("locked.gpx: cannot open: Permission denied"))
    }

    /// Binds a Unix socket at `path`: a file no one may open, root included (open(2) fails with ENXIO).
    static func bindSocket(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)  // -1 on error
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw POSIXError(.ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }  // -1 on error
        guard bound == 0 else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return fd
    }

    @Test func aPathThatNoOneCanOpenExits66EvenForRoot() throws {
        // Permissions do not stop root, so these fail for reasons root cannot override: a path through a
        // regular file (ENOTDIR), a loop of symbolic links (ELOOP) and a socket, which open(2) refuses (ENXIO).
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stage = folder.appendingPathComponent("stage.gpx")
        try Self.gpx("").write(to: stage)
        let loop = folder.appendingPathComponent("loop.gpx").path
        #expect(symlink(loop, loop) == 0)
        let socketPath = folder.appendingPathComponent("live.gpx").path
        let socket = try Self.bindSocket(at: socketPath)
        defer { close(socket) }
        let cases = [
            (stage.path + "/Etapa_1.gpx", "Not a directory"), (loop, "Too many levels of symbolic links"),
            (socketPath, "No such device or address"),
        ]
        for (path, reason) in cases {
            for command in [["convert"], ["stats"], ["profile"], ["near", "--at", "50,14"]] {
                let run = try CLI.run(command + [path])
                #expect(run.status == 66, "\(command) \(path): \(run.standardError)")
                #expect(run.standardError == "routekit: error: \(path): cannot open: \(reason)\n", "\(command)")
            }
        }
        // The real binary too, as a user meets it.
        let run = try CLI.runBinary(["convert", loop])
        #expect(run.status == 66)
        #expect(run.standardError == "routekit: error: \(loop): cannot open: Too many levels of symbolic links\n")
        #expect(run.standardOutput.isEmpty)
    }

    @Test func utf16WithoutAByteOrderMarkIsReadAsGPXAndRefusedAsGeoJSON() throws {
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?>"
            + "<gpx version=\"1.1\"><wpt lat=\"1\" lon=\"2\"><name>Žiri</name></wpt></gpx>"
        for encoding in [String.Encoding.utf16LittleEndian, .utf16BigEndian] {
            let run = try Self.run(text.data(using: encoding)!, ["convert", "{}"])
            #expect(run.status == 0)
            let folder = try CLI.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("w.gpx")
            try text.data(using: encoding)!.write(to: path)
            #expect(try CLI.run(["convert", path.path]).standardOutput.contains("\"name\":\"Žiri\""))
        }
        let json = "{\"type\":\"Point\",\"coordinates\":[2,1]}".data(using: .utf16LittleEndian)!
        let run = try Self.run(json, name: "w.geojson", ["convert", "{}"], output: "out.gpx")
        #expect(run.status == 65)
        #expect(run.standardError.contains("GeoJSON must be UTF-8"))
    }

    @Test func positionsAndRadiiOutOfRangeAreUsageErrors() throws {
        let catalog = CLI.root.appendingPathComponent("data/clubrooms/clubrooms.csv").path
        for (arguments, message) in [
            (["--at", "NaN,14"], "--at: a position like 49.1951,16.6068"),
            (["--at", "1e999,14"], "--at: a position like 49.1951,16.6068"),
            (["--at", "91,14"], "--at: latitude 91 is outside -90…90 (latitude comes first)"),
            (["--at", "-91,14"], "--at: latitude -91 is outside -90…90"),
            (["--at", "50,181"], "--at: longitude 181 is outside -180…180"),
            (["--at", "50,14", "--radius", "NaNkm"], "--radius must be a positive length"),
            (["--at", "50,14", "--radius", "1e999km"], "--radius must be a positive length"),
            (["--at", "50,14", "--radius", "-5km"], "--radius must be a positive length"),
            (["--at", "50,14", "--radius", "20100km"], "--radius can be at most 20000km"),
        ] {
            let run = try CLI.run(["near"] + arguments + [catalog])
            #expect(run.status == 64, "\(arguments)")
            #expect(run.standardError.contains(message), "\(arguments): \(run.standardError)")
        }
    }

    @Test func aFullDeviceOrAMissingFolderExits73AndLeavesNothing() throws {
        let full = try CLI.run(["convert", CLI.fixture("garmin-tpe.gpx"), "-o", "/dev/full"])
        #expect(full.status == 73)
        #expect(full.standardError.contains("/dev/full: cannot write: No space left on device"))
        let missing = try CLI.run(["stats", CLI.fixture("garmin-tpe.gpx"), "-o", "/nonexistent/folder/stats.txt"])
        #expect(missing.status == 73)
        #expect(missing.standardError.contains("/nonexistent/folder/stats.txt: cannot create"))
    }

    @Test(
        .disabled(
            if: ProcessInfo.processInfo.environment["ROUTEKIT_SANITIZER"] == "thread",
            "ThreadSanitizer's own runtime faults under a file-size limit"))
    func aWriteThatFailsHalfwayLeavesTheOldFileAndNoTemporaryOne() throws {
        // The real binary under a 16 KB file-size limit: the write fails part of the way through (EFBIG).
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("stage.geojson")
        try Data("old".utf8).write(to: out)
        let stage = CLI.root.appendingPathComponent("data/stkp/Etapa 1.gpx").path
        let run = try CLI.runBinary(
            [
                "-c", "ulimit -f 16; trap '' XFSZ; exec \"$0\" convert \"$1\" -o \"$2\"", CLI.binary.path, stage,
                out.path,
            ],
            executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.status == 73, "\(run.standardError)")
        #expect(run.standardError.contains("stage.geojson: cannot write: File too large"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["stage.geojson"])
        #expect(try String(contentsOf: out, encoding: .utf8) == "old")
    }
}

/// The same attacks on the KML and TCX readers, through `convert` (GeoJSON and GPX out) and `stats`.
@Suite struct HostileKMLAndTCXTests {
    static let kmlHead = "<kml xmlns=\"http://www.opengis.net/kml/2.2\" xmlns:gx=\"http://www.google.com/kml/ext/2.2\">"
    static let tcxHead = "<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\">"

    static func kml(_ body: String, prolog: String = "") -> Data {
        Data((prolog + kmlHead + "<Document>" + body + "</Document></kml>").utf8)
    }

    static func tcx(_ body: String, prolog: String = "") -> Data {
        Data((prolog + tcxHead + body + "</TrainingCenterDatabase>").utf8)
    }

    static let lap =
        "<Activities><Activity><Lap><Track>"
        + "<Trackpoint><Position><LatitudeDegrees>46</LatitudeDegrees><LongitudeDegrees>14</LongitudeDegrees>"
        + "</Position><HeartRateBpm><Value>NAME</Value></HeartRateBpm></Trackpoint>"
        + "<Trackpoint><Position><LatitudeDegrees>46.1</LatitudeDegrees><LongitudeDegrees>14.1</LongitudeDegrees>"
        + "</Position></Trackpoint></Track></Lap></Activity></Activities>"

    /// Each input through the commands that read it: (arguments, output name).
    static let commands: [([String], String)] = [
        (["convert", "{}"], "out.geojson"), (["convert", "{}"], "out.gpx"), (["convert", "{}"], "out.kml"),
        (["stats", "{}"], "stats.txt"),
    ]

    static func runAll(_ input: Data, name: String) throws -> [Run] {
        try commands.map { arguments, output in
            try HostileInputTests.run(input, name: name, arguments, output: output)
        }
    }

    @Test func anEntityBombIsNeverExpanded() throws {
        let prolog = "<?xml version=\"1.0\"?><!DOCTYPE kml [<!ENTITY a \"aaaaaaaaaa\">\(HostileInputTests.entities)]>"
        let inputs = [
            (
                "bomb.kml",
                Self.kml(
                    "<Placemark><name>&i;</name><Point><coordinates>1,2</coordinates></Point></Placemark>",
                    prolog: prolog)
            ),
            ("bomb.tcx", Self.tcx(Self.lap.replacingOccurrences(of: "NAME", with: "&i;"), prolog: prolog)),
        ]
        for (name, input) in inputs {
            for run in try Self.runAll(input, name: name) {
                #expect(run.status == 65, "\(name)")
                #expect(run.standardError.contains("\(name):1:"), "\(run.standardError)")
                #expect(run.standardError.contains("Entity 'i' not defined (entities declared in a DTD are not read"))
                #expect(!run.standardOutput.contains("aaaaaaaaaa"))
            }
        }
    }

    @Test func anExternalEntityNeverLeaksTheFileItNames() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = folder.appendingPathComponent("secret.txt")
        try Data("TOP-SECRET-4711".utf8).write(to: secret)
        for root in ["kml", "TrainingCenterDatabase"] {
            for prolog in [
                "<!DOCTYPE \(root) [<!ENTITY x SYSTEM \"file://\(secret.path)\">]>",
                "<!DOCTYPE \(root) SYSTEM \"file://\(secret.path)\">",
                "<!DOCTYPE \(root) [<!ENTITY % p SYSTEM \"file://\(secret.path)\"> %p;]>",
            ] {
                let input =
                    root == "kml"
                    ? Self.kml(
                        "<Placemark><name>&x;</name><Point><coordinates>1,2</coordinates></Point></Placemark>",
                        prolog: prolog)
                    : Self.tcx(Self.lap.replacingOccurrences(of: "NAME", with: "&x;"), prolog: prolog)
                for run in try Self.runAll(input, name: root == "kml" ? "x.kml" : "x.tcx") {
                    #expect(!run.standardOutput.contains("TOP-SECRET"), "\(prolog)")
                    #expect(!run.standardError.contains("TOP-SECRET"), "\(prolog)")
                    // An entity declared in the document's DTD is undefined to the reader: bad data. With only an
                    // external DTD (never read), libxml2 lets the reference pass as empty text.
                    #expect(run.status == (prolog.contains("[") ? 65 : 0), "\(prolog): \(run.standardError)")
                }
            }
        }
    }

    @Test func deepNestingIsReadInBoundedSpace() throws {
        let deep = String(repeating: "<x>", count: 100_000) + String(repeating: "</x>", count: 100_000)
        let kml = Self.kml(
            "<Placemark><name>deep</name>" + deep + "<Point><coordinates>1,2</coordinates></Point></Placemark>" + deep)
        for run in try Self.runAll(kml, name: "deep.kml") {
            #expect(run.status == 0, "\(run.standardError)")
        }
        let geojson = try HostileInputTests.run(kml, name: "deep.kml", ["convert", "{}"], output: "out.geojson")
        #expect(geojson.status == 0)
        let tcx = Self.tcx(deep + Self.lap.replacingOccurrences(of: "NAME", with: "120") + deep)
        for run in try Self.runAll(tcx, name: "deep.tcx") {
            #expect(run.status == 0, "\(run.standardError)")
        }
    }

    @Test func aPlacemarkTooLargeToHoldIsRefused() throws {
        let data = String(repeating: "<Data name=\"a\"><value>1</value></Data>", count: 250_001)
        let run = try HostileInputTests.run(
            Self.kml("<Placemark><ExtendedData>" + data + "</ExtendedData></Placemark>"), name: "big.kml",
            ["convert", "{}"])
        #expect(run.status == 65)
        #expect(run.standardError.contains("refused: a <Placemark> of more than 500000 elements"))
        let text = String(repeating: "A", count: 65 << 20)
        let long = try HostileInputTests.run(
            Self.kml("<Placemark><description>" + text + "</description></Placemark>"), name: "long.kml",
            ["convert", "{}"])
        #expect(long.status == 65)
        #expect(long.standardError.contains("refused: a <Placemark> of more than 64 MiB of text"))
    }

    /// A track of 100,000 points as one gx:Track, and as one TCX lap: read in time that grows with the
    /// points, not with their square (each point once copied a growing array).
    @Test func longTracksAreReadInLinearTime() throws {
        let n = 100_000
        var kml = "<Placemark><gx:Track>"
        kml += (0..<n).map { "<when>2026-06-01T06:00:\(String(format: "%02d", $0 % 60))Z</when>" }.joined()
        kml += (0..<n).map { "<gx:coord>\(14 + Double($0) * 1e-6) 46 \($0 % 1000)</gx:coord>" }.joined()
        kml += "</gx:Track></Placemark>"
        var tcx = "<Activities><Activity><Lap><Track>"
        tcx += (0..<n).map {
            "<Trackpoint><Position><LatitudeDegrees>46</LatitudeDegrees><LongitudeDegrees>\(14 + Double($0) * 1e-6)"
                + "</LongitudeDegrees></Position><Cadence>80</Cadence></Trackpoint>"
        }.joined()
        tcx += "</Track></Lap></Activity></Activities>"
        for (input, name) in [(Self.kml(kml), "long.kml"), (Self.tcx(tcx), "long.tcx")] {
            let start = Date()
            let run = try HostileInputTests.run(input, name: name, ["stats", "--format", "csv", "{}"], output: "s.csv")
            #expect(run.status == 0, "\(run.standardError)")
            #expect(Date().timeIntervalSince(start) < 60, "\(name)")
        }
    }

    static let smallKML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
        <Document><Style id="s"><LineStyle><color>ff0000ff</color></LineStyle></Style>
          <Placemark><name>Hut &amp; pass</name><description><![CDATA[<b>KT 1</b>]]></description>
            <Point><coordinates>14.5058,46.0569,295</coordinates></Point></Placemark>
          <Placemark><styleUrl>#s</styleUrl><gx:Track><when>2026-06-01T06:00:00Z</when>\
        <when>2026-06-01T06:00:05Z</when><when>2026-06-01T06:00:09Z</when><gx:coord>14.50 46.05 295</gx:coord>\
        <gx:coord>14.51 46.06 296</gx:coord><gx:coord>14.52 46.07 297</gx:coord></gx:Track></Placemark>
        </Document>
        </kml>

        """

    static let smallTCX = """
        <?xml version="1.0" encoding="UTF-8"?>
        <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
          <Activities><Activity Sport="Biking"><Lap><TotalTimeSeconds>5</TotalTimeSeconds><Track>
            <Trackpoint><Time>2026-06-01T06:00:00Z</Time><Position><LatitudeDegrees>46.05</LatitudeDegrees>\
        <LongitudeDegrees>14.50</LongitudeDegrees></Position>\
        <HeartRateBpm><Value>120</Value></HeartRateBpm></Trackpoint>
            <Trackpoint><Time>2026-06-01T06:00:05Z</Time><Position><LatitudeDegrees>46.06</LatitudeDegrees>\
        <LongitudeDegrees>14.51</LongitudeDegrees></Position></Trackpoint>
          </Track></Lap></Activity></Activities>
        </TrainingCenterDatabase>

        """

    @Test(arguments: [("cut.kml", smallKML), ("cut.tcx", smallTCX)])
    func aFileCutAtEveryByteGivesAClearError(name: String, text: String) throws {
        let complete = Array(text.utf8).count - "\n".utf8.count
        for output in ["out.geojson", "out.gpx"] {
            try HostileInputTests.truncations(of: text, name: name, output: output) { length, run in
                if length >= complete {
                    #expect(run.status == 0, "\(length): \(run.standardError)")
                } else if length == 0 {
                    #expect(run.standardError.contains("\(name): not GPX, KML, KMZ, TCX or GeoJSON"))
                } else {
                    #expect(run.status == 65, "\(length)")
                    #expect(run.standardError.contains("\(name):"), "\(length): \(run.standardError)")
                    #expect(
                        run.standardError.contains("is it truncated?") || run.standardError.contains("not a GPX file"),
                        "\(length): \(run.standardError)")
                }
            }
        }
    }
}
