#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestProcesses
import Testing

/// schemathesis (PyPI) generates requests from `openapi.yaml` and checks every answer against
/// the document with every check it has (`--checks all`: no 5xx, statuses, content types,
/// headers, bodies, schema-valid data accepted and invalid data refused, 405 with `Allow` for
/// other methods, auth that is not ignored, …) in every phase, stateful included.
/// `scripts/schemathesis/hooks.py` gives it what a generator cannot know: credentials for the
/// announcement in the path, a real photo and its key, a real cursor.
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
        // With a gazetteer, so /api/v1/places has places to find.
        let (imported, importOutput) = try await PlacesImportTests.importPlaces(PlacesImportTests.sample, dataDirectory: data)
        try #require(imported == 0, "\(importOutput)")
        let server = try ServerProcess(dataDirectory: data)

        let reportPath = data + "/schemathesis.txt"
        let arguments = [
            "--no-color", "run", Self.repository.appendingPathComponent("openapi.yaml").path,
            "--url", server.baseURL,
            "--checks", "all",
            // One worker: with two threads, CPython 3.11's `ast.parse` (hypothesis describing a
            // filter) once failed with "AST constructor recursion depth mismatch", a race in the
            // interpreter, and schemathesis reported it as a runtime error of its coverage phase.
            "--max-examples", "40", "--workers", "1", "--phases", "examples,coverage,fuzzing,stateful",
            "--suppress-health-check", "all", "--request-timeout", "30", "--generation-deterministic",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["SCHEMATHESIS_HOOKS"] = "hooks"
        environment["PYTHONPATH"] = Self.repository.appendingPathComponent("scripts/schemathesis").path
        environment["PETSPOT_BASE_URL"] = server.baseURL
        environment["PETSPOT_SAMPLE_PHOTO"] = Self.repository.appendingPathComponent("TestImages/jpeg-baseline.jpg").path
        let process = try ChildProcess(tool, arguments, environment: environment,
                                       directory: data,  // its cache folder lands there
                                       output: .file(reportPath), error: .standardOutput)
        let status = await process.exitStatus()
        let output = (try? String(contentsOfFile: reportPath, encoding: .utf8)) ?? ""
        #expect(status == 0, "schemathesis found problems:\n\(output.suffix(6000))")
        // It really ran: every operation, every phase, a few hundred cases, and nothing it had to
        // skip for want of data or credentials (those are warnings) — except the links that only
        // a mailed message carries (`{token}`: an HMAC no generator can make, rightly 404).
        let document = try String(contentsOf: Self.repository.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        let operations = Self.operationCount(document)
        #expect(output.contains("Tested: \(operations)"), "\(operations) operations: \(output.suffix(2000))")
        #expect(output.contains("✅ Stateful"), "\(output.suffix(2000))")
        if let warnings = output.range(of: "WARNINGS")?.upperBound, let summary = output.range(of: "SUMMARY")?.lowerBound, warnings < summary {
            let warned = output[warnings..<summary].split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("- GET ") || $0.hasPrefix("- POST ") || $0.hasPrefix("- PATCH ") || $0.hasPrefix("- DELETE ") || $0.hasPrefix("- HEAD ") }
            #expect(!warned.isEmpty && warned.allSatisfy { $0.contains("{token}") }, "\(output.suffix(4000))")
        }
        let generated = output.split(separator: "\n").first { $0.contains(" generated, ") }
            .flatMap { Int($0.split(separator: " ").first ?? "") } ?? 0
        #expect(generated > 300, "\(output.suffix(2000))")
        #expect(server.stop() == 0, "\(server.log.suffix(2000))")
    }

    /// The operations `openapi.yaml` declares: the HTTP methods under its paths.
    static func operationCount(_ document: String) -> Int {
        document.split(separator: "\n").filter { line in
            ["get", "head", "post", "put", "patch", "delete"].contains { line.hasPrefix("    \($0):") }
        }.count
    }
}
