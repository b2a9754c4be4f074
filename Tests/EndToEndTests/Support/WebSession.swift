import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A browser's side of the site's forms over real HTTP, for the end-to-end tests: the cookies it
/// holds, the page last shown, and posts of a page's forms as a browser sends them (urlencoded,
/// or multipart with a file). Redirects are not followed: a test sees each 303 and follows it.
struct WebSession {
    let base: String
    /// Cookie name → value (the tests manage one announcement at a time, so paths never clash).
    var cookies: [String: String] = [:]
    /// Every `Set-Cookie` line of the last answer.
    var setCookies: [String] = []
    var html = ""
    var headers: [(String, String)] = []

    static let client = HTTPClient(eventLoopGroupProvider: .singleton,
                                   configuration: .init(redirectConfiguration: .disallow, decompression: .disabled))

    init(base: String) {
        self.base = base
    }

    var cookieHeader: String { cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }

    @discardableResult
    mutating func get(_ path: String, headers extra: [(String, String)] = []) async throws -> HTTP.Reply {
        try await send(.GET, path, headers: extra, body: nil)
    }

    /// Posts `fields` urlencoded, as a form without a file is sent.
    @discardableResult
    mutating func post(_ path: String, _ fields: [(String, String)], headers extra: [(String, String)] = []) async throws -> HTTP.Reply {
        let body = fields.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return try await send(.POST, path, headers: [("Content-Type", "application/x-www-form-urlencoded")] + extra,
                              body: Array(body.utf8))
    }

    /// Posts `fields` as multipart/form-data with the file part `photo` (empty when `photo` is nil,
    /// as a browser sends a file input left alone).
    @discardableResult
    mutating func postMultipart(_ path: String, _ fields: [(String, String)], photo: [UInt8]? = nil) async throws -> HTTP.Reply {
        let boundary = "----e2e-form-\(UUID().uuidString.prefix(8))"
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(photo == nil ? "" : "dog.jpg")\"\r\nContent-Type: \(photo == nil ? "application/octet-stream" : "image/jpeg")\r\n\r\n".utf8)
        body += photo ?? []
        body += Array("\r\n--\(boundary)--\r\n".utf8)
        return try await send(.POST, path, headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: body)
    }

    private mutating func send(_ method: HTTPMethod, _ path: String, headers extra: [(String, String)], body: [UInt8]?) async throws -> HTTP.Reply {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if !cookies.isEmpty { request.headers.add(name: "Cookie", value: cookieHeader) }
        for (name, value) in extra { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await Self.client.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        let reply = HTTP.Reply(status: Int(response.status.code), headers: response.headers, body: [UInt8](buffer: bytes))
        setCookies = response.headers["Set-Cookie"]
        for line in setCookies {
            let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[1].isEmpty || line.contains("Max-Age=0") { cookies[pair[0]] = nil } else { cookies[pair[0]] = pair[1] }
        }
        html = String(decoding: reply.body, as: UTF8.self)
        headers = response.headers.map { ($0.name, $0.value) }
        return reply
    }

    /// The `Set-Cookie` line of `name` in the last answer.
    func setCookie(_ name: String) -> String? {
        setCookies.first { $0.hasPrefix("\(name)=") }
    }

    /// The hidden fields of the form posting to `action` on the page last shown, in order.
    func hiddenFields(of action: String) -> [(String, String)] {
        guard let start = html.range(of: "action=\"\(action)\"") else { return [] }
        let form = html[start.upperBound...]
        let end = form.range(of: "</form>")?.lowerBound ?? form.endIndex
        return form[..<end].matches(of: /<input type="hidden" name="([a-z_]+)" value="([^"]*)">/).map {
            (String($0.output.1), String($0.output.2).replacingOccurrences(of: "&amp;", with: "&"))
        }
    }

    /// The value of a text input or text area named `name` on the page last shown.
    func value(of name: String) -> String? {
        if let match = html.firstMatch(of: try! Regex(#"<input type="[a-z]+" id="\#(name)" name="\#(name)"[^>]* value="([^"]*)">"#)) {
            return String(match.output[1].substring ?? "")
        }
        if let match = html.firstMatch(of: try! Regex(#"<textarea id="\#(name)" name="\#(name)"[^>]*>\n([^<]*)</textarea>"#)) {
            return String(match.output[1].substring ?? "")
        }
        return nil
    }

    static func encode(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._*")
        return text.addingPercentEncoding(withAllowedCharacters: allowed)!.replacingOccurrences(of: "%20", with: "+")
    }
}
