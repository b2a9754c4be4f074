import Foundation
import Testing
@testable import PetSpotServer

/// AWS's SigV4 signer test suite (`$PETSPOT_CORPUS/sigv4`): for every case, our canonical
/// request, string to sign and `Authorization` header equal AWS's, byte for byte.
@Suite(.enabled(if: SigV4Suite.folder != nil, "set PETSPOT_CORPUS to the shared corpus (sigv4/)"))
struct SigV4SuiteTests {
    static let signer = SigV4Signer(
        credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1", service: "service")
    static let date = Date(timeIntervalSince1970: 1_440_938_160)  // 20150830T123600Z

    @Test(arguments: SigV4Suite.cases)
    func everyStepMatchesAWS(name: String) throws {
        let folder = try #require(SigV4Suite.folder).appendingPathComponent(name)
        let base = folder.lastPathComponent
        func read(_ suffix: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent("\(base).\(suffix)"), encoding: .utf8)
        }
        let request = try SigV4Suite.parse(try read("req"))
        let (canonical, _) = Self.signer.canonicalRequest(request)
        #expect(canonical == (try read("creq")))
        let stringToSign = Self.signer.stringToSign(canonicalRequest: canonical, at: Self.date)
        #expect(stringToSign == (try read("sts")))
        #expect(Self.signer.authorization(for: request, at: Self.date) == (try read("authz")))
    }

    @Test func s3SignsThePathAsSentAndAddsItsHeaders() {
        let s3 = SigV4Signer(credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "s3-SECRET-value", sessionToken: "token"),
                             region: "us-east-1", service: "s3")
        let request = SigV4Signer.Request(method: "GET", path: "/bucket/a/./b//c d", headers: [("Host", "127.0.0.1:9000")],
                                          payloadHash: SigV4Signer.emptyPayloadHash)
        #expect(s3.canonicalRequest(request).text.split(separator: "\n")[1] == "/bucket/a/./b//c%20d")
        let headers = s3.signedHeaders(for: request, at: Self.date)
        #expect(headers.map(\.name) == ["x-amz-date", "x-amz-content-sha256", "x-amz-security-token", "Authorization"])
        #expect(headers.last?.value.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,") == true)
        #expect(!"\(s3.credentials)".contains("s3-SECRET-value"))
    }
}

enum SigV4Suite {
    static let folder: URL? = {
        let root = ProcessInfo.processInfo.environment["PETSPOT_CORPUS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("shared/corpus").path
        let folder = URL(fileURLWithPath: root).appendingPathComponent("sigv4")
        return FileManager.default.fileExists(atPath: folder.path) ? folder : nil
    }()

    /// Every case folder (one holding a `.req`), relative to the suite, nested ones included.
    static let cases: [String] = {
        guard let folder else { return [] }
        let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return paths.filter { $0.hasSuffix(".req") }.map { ($0 as NSString).deletingLastPathComponent }.sorted()
    }()

    /// A `.req` file: request line, header lines (continuations folded in), blank line, body.
    static func parse(_ text: String) throws -> SigV4Signer.Request {
        var lines = text.components(separatedBy: "\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        let method = String(requestLine.first ?? "")
        let target = requestLine.dropFirst().dropLast().joined(separator: " ")
        var headers: [(name: String, value: String)] = []
        while let line = lines.first, !line.isEmpty {
            lines.removeFirst()
            if line.first == " " || line.first == "\t", !headers.isEmpty {
                headers[headers.count - 1].value += "\n" + line
            } else if let colon = line.firstIndex(of: ":") {
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
            }
        }
        let body = lines.dropFirst().joined(separator: "\n")
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let query: [(name: String, value: String)] = parts.count < 2 || parts[1].isEmpty ? [] : parts[1].split(separator: "&").map { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0]), value = pair.count > 1 ? String(pair[1]) : ""
            return (name.removingPercentEncoding ?? name, value.removingPercentEncoding ?? value)
        }
        return SigV4Signer.Request(method: method, path: String(parts[0]), query: query, headers: headers,
                                   payloadHash: SigV4Signer.hexSHA256(Array(body.utf8)))
    }
}
