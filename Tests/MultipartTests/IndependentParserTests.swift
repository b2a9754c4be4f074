import Foundation
import Multipart
import Testing

/// Bodies written to disk and read by Python's standard library and Werkzeug
/// (`../shared/tools/check-multipart.py`).
@Suite(.enabled(if: PythonChecker.isAvailable, "python3 with Werkzeug is needed: scripts/install-deps.sh installs it"))
struct IndependentParserTests {
    @Test func bothParsersReadEveryPartAsWritten() async throws {
        var form = MultipartFormData()
        form.addField(name: "description", value: "He answers to \"Rex\"\nred collar, $50 🐶")
        form.addField(name: "emoji 🐶 and $dollar", value: "")
        let binary = (0..<5000).map { UInt8($0 % 256) }
        try form.addFile(name: "photo", filename: "dog photo.jpg", contentType: "image/jpeg", path: try temporaryFile(binary))
        let body = try await form.collected()
        let report = try PythonChecker.check(body, contentType: form.contentType)
        #expect(report.agree, "\(report.errors) \(report.results)")
        let parts = try #require(report.results["werkzeug"])
        #expect(parts.map(\.name) == ["description", "emoji 🐶 and $dollar", "photo"])
        #expect(parts[2].filename == "dog photo.jpg" && parts[2].content_type == "image/jpeg")
        #expect(parts[2].sha256 == sha256(binary) && parts[2].size == 5000)
        #expect(parts[0].sha256 == sha256(Array("He answers to \"Rex\"\nred collar, $50 🐶".utf8)))
    }

    @Test(arguments: ["quote\"d", "line\r\nbreak", "back\\slash", "ünïcødé 🐶"])
    func escapedNamesReadBackAsMeantByTheWHATWGAwareParser(name: String) async throws {
        var form = MultipartFormData()
        form.addFile(name: name, filename: "f-\(name).txt", contentType: "text/plain", data: Array("x".utf8))
        let report = try PythonChecker.check(try await form.collected(), contentType: form.contentType)
        #expect(report.errors.isEmpty, "\(report.errors)")
        // Werkzeug follows HTML's form-data encoding: `%22` reads back as the quote meant. Line
        // breaks cannot travel in a header at all: as from a browser, they arrive as %0D%0A.
        let lineBreaksEscaped = name.replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
        #expect(report.results["werkzeug"]?.first?.name == lineBreaksEscaped)
        let filename = "f-\(name).txt".split(separator: "\\", omittingEmptySubsequences: false).last.map(String.init)!
        #expect(report.results["werkzeug"]?.first?.filename
            == filename.replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A"))
        // The mail parser knows only RFC quoting: it keeps the browser's %-escapes.
        #expect(report.results["email"]?.first?.name == browserEscaped(name))
    }
}
