#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// schemathesis (PyPI) generates requests from `openapi.yaml` and checks every answer against
/// the document: no 5xx, status codes, content types, headers and bodies as declared.
@Suite struct OpenAPIConformanceTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where `schemathesis` is: on PATH, or `$PETSPOT_SCHEMATHESIS`.
    static func schemathesis() -> String? {
        if let override = ProcessInfo.processInfo.environment["PETSPOT_SCHEMATHESIS"] { return override }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(folder)/schemathesis"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    @Test func theServerMatchesItsOpenAPIDocument() async throws {
        let tool = try #require(Self.schemathesis(),
                                "schemathesis is not installed: run scripts/install-deps.sh (pip install schemathesis)")
        let data = try makeTemporaryDirectory("openapi")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)

        let reportPath = data + "/schemathesis.txt"
        _ = FileManager.default.createFile(atPath: reportPath, contents: nil)
        let report = try FileHandle(forWritingTo: URL(fileURLWithPath: reportPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.currentDirectoryURL = URL(fileURLWithPath: data)  // its cache folder lands there
        process.arguments = [
            "--no-color", "run", Self.repository.appendingPathComponent("openapi.yaml").path,
            "--url", server.baseURL,
            "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,negative_data_rejection,ignored_auth",
            "--max-examples", "40", "--workers", "2", "--phases", "examples,coverage,fuzzing,stateful",
            "--suppress-health-check", "all", "--request-timeout", "30", "--generation-deterministic",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["SCHEMATHESIS_HOOKS"] = nil
        process.environment = environment
        process.standardOutput = report
        process.standardError = report
        try process.run()
        process.waitUntilExit()
        let output = (try? String(contentsOfFile: reportPath, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "schemathesis found problems:\n\(output.suffix(6000))")
        // It really ran: a few hundred generated requests across the operations.
        #expect(output.contains("createAnnouncement") || output.contains("/api/v1/announcements"), "\(output.suffix(2000))")
        #expect(server.stop() == 0, "\(server.log.suffix(2000))")
    }
}
