import Foundation
import Multipart
import Testing

/// `../shared/corpus/multipart/`: every valid case's parts, written again by our encoder, read
/// back by multipart-kit and by Python/Werkzeug with the same names, filenames, types and bytes.
@Suite struct ConformanceTests {
    static let folder: URL = {
        let corpus = ProcessInfo.processInfo.environment["PETSPOT_CORPUS"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return corpus.appendingPathComponent("multipart/tests")
    }()

    struct Case: Decodable, CustomTestStringConvertible {
        struct Expected: Decodable {
            var valid: Bool
            var parts: [Part]?
        }

        struct Part: Decodable {
            var name: String
            var filename: String?
            var content_type: String?
            var body_text: String?
            var body_base64: String?
            var body_sha256: String?
        }

        var id: String
        var expected: Expected
        var testDescription: String { id }

        /// The parts' bytes, when the case gives them (some give only a digest).
        var parts: [(Part, [UInt8])]? {
            guard expected.valid, let parts = expected.parts, !parts.isEmpty else { return nil }
            var result: [(Part, [UInt8])] = []
            for part in parts {
                if let text = part.body_text { result.append((part, Array(text.utf8))) } else if let base64 = part.body_base64, let data = Data(base64Encoded: base64) { result.append((part, [UInt8](data))) } else { return nil }
            }
            return result
        }
    }

    static let cases: [Case] = {
        let files = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix("test.json") }.sorted()
        return files.compactMap { try? JSONDecoder().decode(Case.self, from: Data(contentsOf: folder.appendingPathComponent($0))) }
            .filter { $0.parts != nil }
    }()

    @Test func theCorpusIsThere() {
        #expect(Self.cases.count >= 30, "read \(Self.cases.count) cases from \(Self.folder.path); set PETSPOT_CORPUS")
    }

    @Test(arguments: cases)
    func ourEncodingOfTheCasesPartsReadsBack(testCase: Case) async throws {
        let parts = try #require(testCase.parts)
        var form = MultipartFormData()
        for (part, bytes) in parts {
            if let filename = part.filename {
                form.addFile(name: part.name, filename: filename, contentType: part.content_type ?? "application/octet-stream", data: bytes)
            } else {
                form.addField(name: part.name, value: String(decoding: bytes, as: UTF8.self))
            }
        }
        let body = try await form.collected(chunkSize: 101)
        let expected = parts.map { part, bytes in
            (name: part.name, filename: part.filename.map { Self.baseName($0) }, bytes: part.filename == nil ? Array(String(decoding: bytes, as: UTF8.self).utf8) : bytes)
        }
        let kit = try KitParser.parse(body, boundary: form.boundary)
        #expect(kit.map(\.name) == expected.map { browserEscaped($0.name) })
        #expect(kit.map(\.filename) == expected.map { $0.filename.map(browserEscaped) })
        #expect(kit.map { sha256($0.body) } == expected.map { sha256($0.bytes) })

        guard PythonChecker.isAvailable else { return }
        let report = try PythonChecker.check(body, contentType: form.contentType)
        #expect(report.errors.isEmpty, "\(report.errors)")
        let werkzeug = try #require(report.results["werkzeug"])
        #expect(werkzeug.map(\.name) == expected.map { $0.name })
        #expect(werkzeug.map(\.filename) == expected.map(\.filename))
        #expect(werkzeug.map(\.sha256) == expected.map { sha256($0.bytes) })
        #expect(werkzeug.map(\.content_type) == parts.map { $0.0.filename == nil ? nil : ($0.0.content_type ?? "application/octet-stream") })
    }

    static func baseName(_ filename: String) -> String {
        String(filename.split(separator: "/", omittingEmptySubsequences: false).last!
            .split(separator: "\\", omittingEmptySubsequences: false).last!)
    }
}
