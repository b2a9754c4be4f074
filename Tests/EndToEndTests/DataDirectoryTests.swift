#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestProcesses
import NIOCore
import PetSpot
import Testing

/// One server per data directory, what the start-up sweep may remove, and the modes of what
/// the server creates — against the built `petspot-server`.
@Suite struct DataDirectoryTests {
    /// Runs `petspot-server` to its end; exit status and output.
    static func runToEnd(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = try ChildProcess(ServerProcess.binary, arguments, output: .pipe, error: .standardOutput)
        let output = process.standardOutput!.readDataToEndOfFile()
        return (process.waitForExit(), String(decoding: output, as: UTF8.self))
    }

    /// Sets a file's modification time `seconds` into the past.
    static func age(_ path: String, by seconds: Int) {
        var times = [timespec(tv_sec: time(nil) - seconds, tv_nsec: 0), timespec(tv_sec: time(nil) - seconds, tv_nsec: 0)]
        utimensat(AT_FDCWD, path, &times, 0)
    }

    @Test func aSecondServerOnTheDirectoryIsRefusedAndTheFirstsUploadCompletes() async throws {
        let data = try makeTemporaryDirectory("two-servers")
        defer { try? FileManager.default.removeItem(atPath: data) }
        // The upload below is held back on purpose while a second server starts: no slow-body cut
        // (a loaded machine once took over the 10 s window starting the second one).
        let first = try ServerProcess(dataDirectory: data, arguments: ["--min-body-rate", "0"], backend: .embedded)
        let created = try await HTTP.create(first.baseURL)
        // An upload in flight on the first server: half its body sent, the rest held back.
        let photo = try TestImages.bytes("jpeg-baseline.jpg")
        let body = HTTP.multipart(photo)
        let port = Int(first.baseURL.split(separator: ":").last!)!
        let socket = try RawConnection(port: port)
        try socket.send(RawConnection.uploadHead(to: created, boundary: "e2e-boundary-91c2", contentLength: body.count)
            + Array(body.prefix(body.count / 2)))
        var inFlight: [String] = []
        for _ in 0..<100 where inFlight.isEmpty {
            try await Task.sleep(for: .milliseconds(100))
            inFlight = try FileManager.default.contentsOfDirectory(atPath: data + "/tmp")
        }
        #expect(inFlight.count == 1)

        let second = try Self.runToEnd(["--port", "0", "--data-dir", data])
        #expect(second.status != 0)
        #expect(second.output.contains("in use by another petspot-server (pid \(first.process.processIdentifier))"), "\(second.output)")
        #expect(!second.output.contains("listening"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/tmp") == inFlight)

        try socket.send(Array(body.dropFirst(body.count / 2)))
        let answer = try socket.receiveHead()
        #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
        #expect(first.stop() == 0)
        // Once the first has stopped, the directory is free again.
        let third = try ServerProcess(dataDirectory: data, backend: .embedded)
        #expect(third.stop() == 0)
    }

    @Test func theStartUpSweepTakesOnlyTemporaryFilesOlderThanTheGrace() throws {
        let data = try makeTemporaryDirectory("sweep-grace")
        defer { try? FileManager.default.removeItem(atPath: data) }
        try FileManager.default.createDirectory(atPath: data + "/tmp", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: data + "/tmp/upload-old", contents: Data([1, 2, 3])))
        #expect(FileManager.default.createFile(atPath: data + "/tmp/upload-recent", contents: Data([4, 5, 6])))
        Self.age(data + "/tmp/upload-old", by: 2 * 3600)
        Self.age(data + "/tmp/upload-recent", by: 60)
        let server = try ServerProcess(dataDirectory: data, backend: .embedded)
        #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/tmp") == ["upload-recent"])
        #expect(server.stop() == 0)
    }

    @Test func everythingTheServerCreatesIsPrivateEvenInAnOpenDirectory() async throws {
        let data = try makeTemporaryDirectory("modes")
        defer { try? FileManager.default.removeItem(atPath: data) }
        chmod(data, 0o755)
        let previous = umask(0o022)
        defer { umask(previous) }
        let server = try ServerProcess(dataDirectory: data, backend: .embedded)
        let created = try await HTTP.create(server.baseURL)
        #expect(try await HTTP.upload(try TestImages.bytes("jpeg-baseline.jpg"), base: server.baseURL, to: created).status == 201)
        var modes: [String: mode_t] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: data) {
            var info = stat()
            guard lstat(data + "/" + path, &info) == 0 else { continue }
            modes[path] = info.st_mode & 0o777 | (info.st_mode & S_IFMT == S_IFDIR ? 0o1000 : 0)
        }
        #expect(modes["petspot-server.sqlite"] == 0o600)
        #expect(modes["petspot-server.sqlite-wal"] == 0o600)
        #expect(modes["petspot-server.lock"] == 0o600)
        #expect(modes.keys.contains { $0.hasPrefix("photos/") && $0.hasSuffix(".jpg") })
        for (path, mode) in modes {
            // Directories 0700 (marked 0o1000 above), files 0600.
            #expect(mode == 0o600 || mode == 0o1700, "\(path) has mode \(String(mode & 0o777, radix: 8))")
        }
        #expect(server.stop() == 0)
    }
}
