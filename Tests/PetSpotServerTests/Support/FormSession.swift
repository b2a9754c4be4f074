import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import PetSpotServer

/// A browser's side of a form, for the route tests: the cookies it holds, the page it was shown
/// and its hidden fields, and posts of the form as urlencoded or multipart bodies.
struct FormSession {
    var cookies: [String: String] = [:]
    var html = ""

    /// `Cookie:` as a browser sends it.
    var cookieHeader: String { cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }

    /// Keeps the cookies a response sets (an empty value or `Max-Age=0` deletes).
    mutating func take(_ response: TestResponse) {
        for line in response.headers[values: .setCookie] {
            let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[1].isEmpty || line.contains("Max-Age=0") { cookies[pair[0]] = nil } else { cookies[pair[0]] = pair[1] }
        }
    }

    /// Gets a page with the cookies held, keeping what it sets and its HTML.
    mutating func get(_ client: some TestClientProtocol, _ uri: String) async throws -> TestResponse {
        let response = try await client.execute(uri: uri, method: .get, headers: cookies.isEmpty ? [:] : [.cookie: cookieHeader])
        take(response)
        html = String(buffer: response.body)
        return response
    }

    /// A hidden field's value on the page last shown.
    func hidden(_ name: String) -> String? {
        guard let match = html.firstMatch(of: try! Regex(#"<input type="hidden" name="\#(name)" value="([^"]*)">"#)) else { return nil }
        return String(match.output[1].substring ?? "").replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&quot;", with: "\"")
    }

    /// The hidden fields of the page last shown, in order.
    var hiddenFields: [(String, String)] {
        html.matches(of: /<input type="hidden" name="([a-z_]+)" value="([^"]*)">/).map { (String($0.output.1), String($0.output.2)) }
    }

    /// Posts `fields` (after the page's hidden ones, unless `hidden` is false) as multipart, with
    /// a photo part when `photo` is given (an empty one otherwise, as a browser sends it).
    mutating func post(_ client: some TestClientProtocol, _ uri: String, _ fields: [(String, String)], photo: [UInt8]? = nil,
                       filename: String = "photo.jpg", hidden: Bool = true, extraHeaders: HTTPFields = [:]) async throws -> TestResponse {
        let all = (hidden ? hiddenFields.filter { name, _ in !fields.contains { $0.0 == name } } : []) + fields
        let (body, type) = RequestBodies.multipart(filename: photo == nil ? "" : filename, contentType: photo == nil ? "application/octet-stream" : "image/jpeg",
                                                   data: photo ?? [], fields: all)
        var headers: HTTPFields = [.contentType: type]
        if !cookies.isEmpty { headers[.cookie] = cookieHeader }
        headers.append(contentsOf: extraHeaders)
        let response = try await client.execute(uri: uri, method: .post, headers: headers, body: body)
        take(response)
        html = String(buffer: response.body)
        return response
    }

    /// Posts `fields` as `application/x-www-form-urlencoded`.
    mutating func postURLEncoded(_ client: some TestClientProtocol, _ uri: String, _ fields: [(String, String)], hidden: Bool = true) async throws -> TestResponse {
        let all = (hidden ? hiddenFields.filter { name, _ in !fields.contains { $0.0 == name } } : []) + fields
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if !cookies.isEmpty { headers[.cookie] = cookieHeader }
        let response = try await client.execute(uri: uri, method: .post, headers: headers,
                                                body: ByteBuffer(string: URLEncodedForm.encode(all)))
        take(response)
        html = String(buffer: response.body)
        return response
    }
}

/// A missing pet's answers that pass every rule.
enum ReportAnswers {
    static let missing: [(String, String)] = [
        ("microchip_number", "985 112 003 456 789"), ("species", "DOG"), ("breed", "Labrador"), ("sex", "MALE"), ("age", "4"),
        ("pet_name", "Rex"), ("last_seen_date", "2025-11-18"), ("where", "52.2297, 21.0122"),
        ("description", "Brown, red collar.\nAnswers to Rex."), ("phone", "+48 600 123 456"), ("email", "owner@example.com"),
        ("reward", "200 PLN"),
    ]

    static let found: [(String, String)] = [
        ("species", "CAT"), ("sex", "UNKNOWN"), ("last_seen_date", "2025-11-18"), ("where", "52.2297, 21.0122"),
        ("description", "Grey, very friendly."), ("phone", "+48 600 123 457"), ("email", "finder@example.com"),
    ]
}
