#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PetSpot
import PetSpotVersion
@testable import PetSpotServer
import Testing

/// How `petspot-server` starts, or says why it cannot.
@Suite struct ServerStartTests {
    @Test func aPortInUseIsSaidAsSuchAndNothingIsCreated() async throws {
        let first = try makeTemporaryDirectory("port-a")
        defer { try? FileManager.default.removeItem(atPath: first) }
        let server = try ServerProcess(dataDirectory: first, backend: .embedded)
        let port = try #require(URL(string: server.baseURL)?.port)
        let second = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-port-b-\(UUID().uuidString.prefix(8))").path
        let (status, output) = try await Self.run(["--port", String(port), "--data-dir", second])
        #expect(status == 69, "\(output)")
        #expect(output.contains("error: port \(port) on 127.0.0.1 is in use by another program"), "\(output)")
        #expect(!output.contains("errno") && !output.contains("database closed"))
        #expect(!FileManager.default.fileExists(atPath: second))
        #expect(server.stop() == 0)
    }

    @Test func versionIsPrinted() async throws {
        let (status, output) = try await Self.run(["--version"])
        #expect(status == 0)
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == PetSpotVersion.current)
    }

    @Test func aStorageReasonNeverEndsInTwoFullStops() {
        for error in [StorageError.dataDirectory(path: "/x", reason: "You don’t have permission."),
                      .unavailable(path: "/x", reason: "No space left on device."), .photoIO(path: "/x", reason: "Permission denied. ")] {
            #expect(!error.description.contains(".."), "\(error)")
            #expect(error.description.hasSuffix("."))
        }
    }

    /// Runs the built server to its end (it must end by itself); its status and all it printed.
    static func run(_ arguments: [String]) async throws -> (Int32, String) {
        try await runProcessToEnd(ServerProcess.binary.path, arguments)
    }
}
