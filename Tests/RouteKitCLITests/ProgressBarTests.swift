import Foundation
import Synchronization
import Testing

@testable import RouteKit
@testable import RouteKitCLI

/// The progress bar on standard error: only on a terminal, only for work over a second, erased at the end.
@Suite struct ProgressBarTests {
    /// Standard error of a console that says it is a terminal, captured from any thread.
    final class Terminal: Sendable {
        let text = Mutex("")
        var console: Console {
            Console(
                writeError: { piece in self.text.withLock { $0 += piece } }, errorIsTerminal: true,
                standardOutput: { try OutputStream.create(path: "/dev/null") })
        }
    }

    @Test func theLineShowsTheBarThePercentageAndTheDetail() {
        let half = ProgressBar.State(done: 20, total: 40, detail: "20.0 of 40.0 MB")
        #expect(
            ProgressBar.line("convert", half) == "routekit: convert [############............]  50%  20.0 of 40.0 MB")
        let all = ProgressBar.State(done: 41, total: 40, detail: "x")
        #expect(ProgressBar.line("stages", all) == "routekit: stages [########################] 100%  x")
        let unknown = ProgressBar.State(done: 5, total: 0, detail: "5.0 MB")
        #expect(ProgressBar.line("convert", unknown) == "routekit: convert  5.0 MB")
    }

    @Test func noBarWhenStandardErrorIsNoTerminal() {
        let console = Console(writeError: { _ in }, standardOutput: { try OutputStream.create(path: "/dev/null") })
        #expect(ProgressBar.bytes("convert", console: console, counter: ProgressCounter()) == nil)
    }

    @Test func workUnderASecondShowsNothing() {
        let terminal = Terminal()
        let counter = ProgressCounter()
        counter.expect(100)
        let bar = ProgressBar.bytes("convert", console: terminal.console, counter: counter)
        counter.advance(by: 100)
        usleep(300_000)
        bar?.finish()
        #expect(bar != nil)
        #expect(terminal.text.withLock { $0 }.isEmpty)
    }

    @Test func longWorkIsDrawnAtMostTenTimesASecondAndErasedAtTheEnd() {
        let terminal = Terminal()
        let console = terminal.console
        let counter = ProgressCounter()
        counter.expect(2_000_000)
        func drawings() -> [String] {
            terminal.text.withLock { $0 }.components(separatedBy: "\r").filter { $0.hasPrefix("routekit: convert [") }
        }
        func seconds(since start: ContinuousClock.Instant) -> Double {
            let d = (ContinuousClock.now - start).components
            return Double(d.seconds) + Double(d.attoseconds) / 1e18
        }
        let started = ContinuousClock.now
        let bar = ProgressBar.bytes("convert", console: console, counter: counter)
        // Work until the bar has been drawn three times (1.3 s on an idle machine; a busy one starves threads).
        while drawings().count < 3 && seconds(since: started) < 30 {
            counter.advance(by: 5_000)
            usleep(10_000)
        }
        #expect(seconds(since: started) >= 1.2)  // nothing in the first second
        console.warning("a warning in the middle")
        let before = drawings().count
        let waited = ContinuousClock.now
        while drawings().count == before && seconds(since: waited) < 30 { usleep(10_000) }  // it comes back
        bar?.finish()
        let elapsed = seconds(since: started)
        bar?.finish()  // a second call does nothing
        let text = terminal.text.withLock { $0 }
        let drawn = drawings()
        #expect(drawn.count >= 4)
        // At most 10 a second after the first second, one more after the warning, and a little slack.
        #expect(drawn.count <= Int((elapsed - 1) * 10) + 3)
        #expect(drawn.allSatisfy { $0.contains("%  ") && $0.hasSuffix("\u{1B}[K") })
        // The warning starts on a clean line, the bar is drawn again below it, and the last bar is erased.
        #expect(text.contains("\r\u{1B}[Kroutekit: warning: a warning in the middle\n\rroutekit: convert ["))
        #expect(text.hasSuffix("\r\u{1B}[K"))
    }

    // MARK: The real binary under a pseudo-terminal

    /// Runs `routekit ARGUMENTS` with standard error on a pseudo-terminal (python3's pty module, which
    /// scripts/setup installs) and returns what the terminal received and how long it took.
    static func runOnTerminal(_ arguments: [String]) throws -> (status: Int32, terminal: String, seconds: Double) {
        let script = """
            import os, pty, subprocess, sys
            master, slave = pty.openpty()
            with open(os.devnull, 'wb') as out:
                p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=out, stderr=slave)
            os.close(slave)
            data = b''
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                data += chunk
            code = p.wait()
            sys.stdout.buffer.write(data)
            sys.exit(code)
            """
        let started = Date()
        let run = try CLI.runBinary(
            ["-c", script, CLI.binary.path] + arguments, executable: URL(fileURLWithPath: "/usr/bin/python3"))
        return (run.status, run.standardOutput, Date().timeIntervalSince(started))
    }

    /// Appends `megabytes` of track points to the GPX file at `path` (written whole when it is new).
    static func grow(_ path: String, by megabytes: Int) throws {
        var block = ""
        var k = 0
        while block.utf8.count < 1 << 20 {
            let lat = 46 + Double(k) * 1e-5
            block +=
                "<trkpt lat=\"\(lat)\" lon=\"\(14.5 + Double(k) * 1e-5)\"><ele>\(300 + k % 100)</ele>"
                + "<time>2020-01-01T00:00:00Z</time></trkpt>\n"
            k += 1
        }
        let head =
            "<?xml version=\"1.0\"?>\n"
            + "<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\">"
            + "<trk><name>big</name><trkseg>\n"
        let tail = "</trkseg></trk></gpx>\n"
        let handle: FileHandle
        if FileManager.default.fileExists(atPath: path) {
            handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            try handle.seek(toOffset: try handle.seekToEnd() - UInt64(tail.utf8.count))
        } else {
            _ = FileManager.default.createFile(atPath: path, contents: Data(head.utf8))
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
        }
        let data = Data(block.utf8)
        for _ in 0..<megabytes { try handle.write(contentsOf: data) }
        try handle.write(contentsOf: Data(tail.utf8))
        try handle.close()
    }

    @Test func convertOfALargeFileShowsProgressOnATerminalAndNothingWhenPiped() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("big.gpx").path
        let output = folder.appendingPathComponent("big.geojson").path
        // A real file, as large as it takes for this build to spend well over a second on it (a debug
        // build takes about 3 s on 40 MB; a release build needs more).
        var megabytes = 0
        var shown: String?
        for size in [40, 80, 160, 320] {
            try Self.grow(input, by: size - megabytes)
            megabytes = size
            let run = try Self.runOnTerminal(["convert", input, "-o", output])
            #expect(run.status == 0, "\(run.terminal)")
            if run.seconds < 0.9 {
                #expect(!run.terminal.contains("%"), "work under a second shows no bar: \(run.terminal)")
            }
            if run.seconds >= 1.6 {
                shown = run.terminal
                break
            }
        }
        guard let shown else {
            Issue.record("converting \(megabytes) MB never took over 1.6 s: no run to check the bar on")
            return
        }
        // Drawn over itself with carriage returns, with a percentage, and erased at the end: no line is left.
        let drawings = shown.components(separatedBy: "\r").filter { $0.hasPrefix("routekit: convert [") }
        #expect(drawings.count >= 2, "\(shown)")
        let bytes = Int64(try FileManager.default.attributesOfItem(atPath: input)[.size] as? Int ?? 0)
        #expect(
            drawings.contains { $0.contains("%  ") && $0.contains(" of \(ProgressBar.megabytes(bytes)) MB") },
            "\(shown)")
        #expect(shown.hasSuffix("\r\u{1B}[K"))
        #expect(!shown.contains("\n"))

        // The same work with standard error piped: nothing on it.
        let piped = try CLI.runBinary(["convert", input, "-o", output])
        #expect(piped.status == 0)
        #expect(piped.standardError == "")
    }
}
