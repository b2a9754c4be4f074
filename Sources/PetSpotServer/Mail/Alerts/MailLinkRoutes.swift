import Foundation
import HTTPTypes
import Hummingbird
import PetSpot

/// The paths of the links in mail, whose last segment is a token that alone unsubscribes or
/// confirms: what the request log writes instead of the token.
enum MailLinkPaths {
    static let unsubscribe = "/mail/unsubscribe/"
    static let confirm = "/alerts/confirm/"
    static let prefixes = [unsubscribe, confirm, SignInLink.pathPrefix]

    /// `path` with a mail link's token replaced by `{token}`; any other path as it is.
    static func withoutToken(_ path: String) -> String {
        guard let prefix = prefixes.first(where: { path.hasPrefix($0) }), path.count > prefix.count else { return path }
        return prefix + "{token}"
    }
}

/// The pages links in mail lead to, where the token in the path is the only authority (no
/// cookie, no session, no form token: a mail program's one-click POST carries none):
///
/// - `GET /mail/unsubscribe/{token}` asks "Stop these emails?" with a button; `POST` (the
///   button, or RFC 8058's one-click `List-Unsubscribe=One-Click` from a mail program) stops
///   them: possible-match mail for a report (`m.` tokens), or an area subscription, erased
///   with its address (`u.` tokens). A GET changes nothing: link scanners fetch every URL in mail.
/// - `GET /alerts/confirm/{token}` asks to confirm a subscription; `POST` confirms it.
///
/// Every answer is a page with status 200 (never a redirect: RFC 8058 §3.1), `no-store`, and
/// `Referrer-Policy: no-referrer` so the token never leaves in a Referer.
struct MailLinkRoutes<Context: ClientRequestContext> {
    let services: ServerServices

    func register(on router: Router<Context>) {
        router.get("\(MailLinkPaths.unsubscribe):token") { _, context in try await unsubscribePage(context.parameters.get("token") ?? "", done: false) }
        router.post("\(MailLinkPaths.unsubscribe):token") { _, context in try await unsubscribePage(context.parameters.get("token") ?? "", done: true) }
        router.get("\(MailLinkPaths.confirm):token") { _, context in try await confirmPage(context.parameters.get("token") ?? "", done: false) }
        router.post("\(MailLinkPaths.confirm):token") { _, context in try await confirmPage(context.parameters.get("token") ?? "", done: true) }
    }

    private var links: MailLinks { MailLinks(keyring: services.keyring) }
    private var outbox: (any OutboxStoring)? { services.store as? any OutboxStoring }

    private func unsubscribePage(_ token: String, done: Bool) async throws -> Response {
        guard let outbox else { return Self.page(.notFound, title: "Not found", body: Self.invalidLink) }
        if let announcement = links.verify(token, for: .matchMailOff) {
            if done {
                try await outbox.turnOffMatchMail(announcementID: announcement, at: services.now())
                return Self.page(.ok, title: "Possible-match emails stopped", body: """
                    <h1>Possible-match emails stopped</h1>
                    <p>You will get no more emails about pets that may be yours for <a href="/pets/\(announcement)">this report</a>. \
                    The report stays on PetSpot, and its page still lists possible matches.</p>

                    """)
            }
            return Self.page(.ok, title: "Stop possible-match emails?", body: """
                <h1>Stop possible-match emails?</h1>
                <p>We email you when a found pet reported near <a href="/pets/\(announcement)">your report</a> may be yours. \
                The report itself stays on PetSpot.</p>
                \(Self.button("Stop these emails"))
                """)
        }
        if let id = links.verify(token, for: .unsubscribe) {
            if done {
                _ = try await outbox.removeSubscription(id: id)
                return Self.page(.ok, title: "Alerts stopped", body: """
                    <h1>Alerts stopped</h1>
                    <p>You will get no more alerts for this area, and your email address has been erased from PetSpot's list.</p>
                    <p><a href="/">See all announcements</a></p>

                    """)
            }
            guard let subscription = try await outbox.subscription(id: id) else {
                return Self.page(.ok, title: "No alerts", body: "<h1>No alerts to stop</h1>\n<p>This address gets no alerts for this area any more.</p>\n")
            }
            return Self.page(.ok, title: "Stop these alerts?", body: """
                <h1>Stop these alerts?</h1>
                <p>You get emails about \(subscription.areaDescription). Stopping them erases your address from PetSpot's list.</p>
                \(Self.button("Stop these alerts"))
                """)
        }
        return Self.page(.notFound, title: "Not found", body: Self.invalidLink)
    }

    private func confirmPage(_ token: String, done: Bool) async throws -> Response {
        guard let outbox, let id = links.verify(token, for: .confirmSubscription) else {
            return Self.page(.notFound, title: "Not found", body: Self.invalidLink)
        }
        let subscription = done ? try await outbox.confirmSubscription(id: id, at: services.now()) : try await outbox.subscription(id: id)
        guard let subscription else {
            return Self.page(.notFound, title: "Link expired", body: """
                <h1>This link has expired</h1>
                <p>Alerts not confirmed within a week are forgotten. Ask for them again from a search near a place on <a href="/">the list</a>.</p>

                """)
        }
        if done {
            return Self.page(.ok, title: "Alerts confirmed", body: """
                <h1>Alerts confirmed</h1>
                <p>You will get emails about \(subscription.areaDescription), \
                \(subscription.cadence == .each ? "one for each new report" : "at most one a day"). Every one has a link to stop them.</p>

                """)
        }
        return Self.page(.ok, title: "Confirm your alerts", body: """
            <h1>Confirm your alerts</h1>
            <p>Get emails about \(subscription.areaDescription), \
            \(subscription.cadence == .each ? "one for each new report" : "at most one a day")?</p>
            \(Self.button("Confirm the alerts"))
            """)
    }

    static var invalidLink: HTML { """
        <h1>This link is not valid</h1>
        <p>It may be incomplete: copy the whole link from the email, or use the button in it.</p>

        """
    }

    /// A form posting back to this page's own address (no token of its own: the path is the authority).
    static func button(_ label: String) -> HTML {
        "<form method=\"post\"><button type=\"submit\">\(label)</button></form>\n"
    }

    static func page(_ status: HTTPResponse.Status, title: String, body: HTML) -> Response {
        var response = PageLayout.response(PageLayout.document(title: "\(title) · PetSpot", description: title, body: body), status: status)
        response.headers[.cacheControl] = "no-store"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPField.Name("X-Robots-Tag")!] = "noindex"
        return response
    }
}
