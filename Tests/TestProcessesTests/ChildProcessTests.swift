#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestProcesses
import TestScratch
import Testing

/// The tests' own way of starting programs: what the child gets, how its end is reported, and
/// that nothing of it stays open in the test process.
@Suite struct ChildProcessTests {
    static func shell(_ script: String, input: ChildProcess.Input = .null, output: ChildProcess.Output = .pipe,
                      error: ChildProcess.Output = .pipe, directory: String? = nil) throws -> ChildProcess {
        try ChildProcess("/bin/sh", ["-c", script], directory: directory, input: input, output: output, error: error)
    }

    @Test func anExitCodeAndAKillingSignalAreToldApart() async throws {
        let exited = try Self.shell("exit 3").waitForTermination()
        #expect(exited == .init(status: 3, bySignal: false) && exited.exitCode == 3)
        let killed = try await Self.shell("kill -9 $$").termination()
        #expect(killed == .init(status: SIGKILL, bySignal: true) && killed.exitCode == nil)
    }

    @Test func standardOutputAndErrorArriveOnTheirOwnPipes() throws {
        let child = try Self.shell("echo out; echo err >&2")
        let output = child.standardOutput!.readDataToEndOfFile()
        let error = child.standardError!.readDataToEndOfFile()
        #expect(child.waitForExit() == 0)
        #expect(String(decoding: output, as: UTF8.self) == "out\n" && String(decoding: error, as: UTF8.self) == "err\n")
    }

    @Test func whatIsWrittenToItsInputIsWhatItReads() throws {
        let child = try ChildProcess("/bin/cat", input: .pipe, output: .pipe)
        try child.standardInput!.write(contentsOf: Data("a line\nand another".utf8))
        try child.standardInput!.close()
        #expect(String(decoding: child.standardOutput!.readDataToEndOfFile(), as: UTF8.self) == "a line\nand another")
        #expect(child.waitForExit() == 0)
    }

    @Test func bothStreamsInOneFileKeepTheirOrderAfterWhatWasThere() throws {
        let path = try ScratchFolder.make("child") + "/log"
        try Data("before\n".utf8).write(to: URL(fileURLWithPath: path))
        let child = try Self.shell("echo one; echo two >&2; echo three", output: .file(path), error: .standardOutput)
        #expect(child.waitForExit() == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "before\none\ntwo\nthree\n")
    }

    @Test func itStartsInTheGivenDirectoryWithTheGivenEnvironment() throws {
        let folder = try ScratchFolder.make("child-cwd")
        let directory = try ChildProcess("/bin/pwd", directory: folder, output: .pipe)
        let printed = String(decoding: directory.standardOutput!.readDataToEndOfFile(), as: UTF8.self)
        #expect(directory.waitForExit() == 0)
        let real = try #require(realpath(folder, nil))
        defer { free(real) }
        #expect(printed == String(cString: real) + "\n")
        let environment = try ChildProcess("/usr/bin/env", environment: ["ONLY": "this"], output: .pipe)
        #expect(String(decoding: environment.standardOutput!.readDataToEndOfFile(), as: UTF8.self) == "ONLY=this\n")
        #expect(environment.waitForExit() == 0)
    }

    @Test func aRelativeProgramIsFoundFromTheTestsDirectoryNotTheChilds() throws {
        let petspot = BuiltProduct.url("petspot").path
        let here = FileManager.default.currentDirectoryPath
        try #require(petspot.hasPrefix(here + "/"), "the built petspot (\(petspot)) is not under the working directory \(here)")
        let child = try ChildProcess(String(petspot.dropFirst(here.count + 1)), ["--version"],
                                     directory: try ScratchFolder.make("child-relative"), output: .pipe)
        let printed = String(decoding: child.standardOutput!.readDataToEndOfFile(), as: UTF8.self)
        #expect(child.waitForExit() == 0 && printed.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+\n/) != nil, "\(printed)")
    }

    @Test func theChildInheritsNoDescriptorButItsStandardThree() throws {
        // A descriptor without close-on-exec, as C libraries and older code open them.
        let path = try ScratchFolder.make("child-fd") + "/held-open"
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let child = try ChildProcess("/bin/ls", ["/proc/self/fd"], output: .pipe)
        let listing = String(decoding: child.standardOutput!.readDataToEndOfFile(), as: UTF8.self)
        #expect(child.waitForExit() == 0)
        // 0, 1, 2 and the directory ls reads.
        #expect(listing.split(separator: "\n") == ["0", "1", "2", "3"], "\(listing)")
    }

    @Test func nothingKeepsAnEndedChildAndItsPipesAlive() async throws {
        weak var released: ChildProcess?
        do {
            let child = try Self.shell("echo bye")
            released = child
            _ = child.standardOutput!.readDataToEndOfFile()
            await child.exitStatus()
        }
        // The reaping thread lets go of it just after reporting the end.
        let deadline = ContinuousClock.now + .seconds(10)
        while released != nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(released == nil)
    }

    @Test func aWaitWithATimeoutReturnsNothingWhileItRunsAndASignalEndsIt() async throws {
        let child = try Self.shell("exec sleep 3600")
        defer { child.send(SIGKILL) }
        #expect(await child.termination(within: .milliseconds(100)) == nil && child.isRunning)
        child.terminate()
        #expect(await child.termination() == .init(status: SIGTERM, bySignal: true))
        #expect(!child.isRunning)
    }

    @Test func theChildBlocksAndIgnoresNoSignalWhateverTheTestProcessDoes() async throws {
        // Started from a thread that blocks every signal, as dispatch's threads do, in a process
        // that ignores SIGPIPE, as NIO's does.
        signal(SIGPIPE, SIG_IGN)
        let status = try await withCheckedThrowingContinuation { (done: CheckedContinuation<String, any Error>) in
            Thread.detachNewThread {
                var all = sigset_t()
                sigfillset(&all)
                pthread_sigmask(SIG_BLOCK, &all, nil)
                done.resume(with: Result {
                    let child = try ChildProcess("/bin/grep", ["-E", "^Sig(Blk|Ign)", "/proc/self/status"], output: .pipe)
                    defer { child.waitForExit() }
                    return String(decoding: child.standardOutput!.readDataToEndOfFile(), as: UTF8.self)
                })
            }
        }
        let masks = Dictionary(uniqueKeysWithValues: status.split(separator: "\n").map { line in
            (String(line.prefix { $0 != ":" }), UInt64(line.split(separator: "\t").last ?? "", radix: 16) ?? .max)
        })
        // Bits are signal numbers − 1; 32 and 33 are glibc's own, which it leaves as it sets them.
        #expect(masks["SigBlk"] == 0 && masks["SigIgn"].map { $0 & 0x7FFF_FFFF } == 0, "\(status)")
    }

    @Test func aProgramThatCannotBeStartedIsAnError() throws {
        #expect(throws: ChildProcess.SpawnFailed.self) { try ChildProcess("/nonexistent/program") }
        do {
            _ = try ChildProcess("/nonexistent/program")
        } catch let failure as ChildProcess.SpawnFailed {
            #expect(failure.description == "cannot start /nonexistent/program: No such file or directory")
        }
    }
}
