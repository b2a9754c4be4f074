import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PetSpot

/// The frame every public page shares, and the headers it is sent with.
enum PageLayout {
    /// Nothing on a page runs or loads from elsewhere: no script at all, styles and images from
    /// this server only, forms only back to it, and no other site may frame it.
    static let contentSecurityPolicy =
        "default-src 'none'; img-src 'self'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// The report forms' policy: the same, with scripts and requests from this server only (our
    /// one script file, its photo upload and place suggestions): still no inline script, no other
    /// origin.
    static let formContentSecurityPolicy =
        "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// A whole document: `title` in the tab, `description` for search engines, `meta` more head
    /// tags (Open Graph), `body` inside `<main>`.
    static func document(title: String, description: String, meta: HTML = .empty, body: HTML) -> HTML {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title>
        <meta name="description" content="\(description)">
        <link rel="stylesheet" href="\(SiteStyle.path)">
        <link rel="icon" href="\(SiteStyle.iconPath)" type="image/svg+xml">
        \(meta)</head>
        <body>
        <header class="site"><div><a href="/">PetSpot</a><p>Lost and found pets near you</p></div><a class="report-link" href="/report">Report a pet</a></header>
        <main>
        \(body)</main>
        <footer>Seen one of these pets? Call or write to the person who posted it.</footer>
        </body>
        </html>

        """
    }

    /// `html` as a response: UTF-8, the policy above, no sniffing. A page is never served from a
    /// cache without asking: `Cache-Control: no-cache` with an `ETag` of its bytes, so a browser
    /// revalidates on every load and a closed or taken-down pet shows as such at once, while an
    /// unchanged page costs a 304 without a body (`revalidating` the request's `If-None-Match`).
    /// A page that must never be kept (a form with its token, a password) passes
    /// `cacheControl: "no-store"`; a form page, its own `policy`.
    static func response(_ html: HTML, status: HTTPResponse.Status = .ok, revalidating request: Request? = nil,
                         extra: HTTPFields = [:], cacheControl: String? = nil,
                         policy: String = contentSecurityPolicy) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .contentSecurityPolicy: policy,
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "strict-origin-when-cross-origin",
            .cacheControl: cacheControl ?? (status == .ok ? "no-cache" : "no-store"),
        ]
        headers.append(contentsOf: extra)
        let bytes = ByteBuffer(string: html.text)
        guard status == .ok else {
            headers[.contentLength] = String(bytes.readableBytes)
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: bytes))
        }
        let tag = "\"" + SHA256.hash(data: Data(html.text.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
        headers[.eTag] = tag
        if let request, let asked = request.headers[.ifNoneMatch],
           asked.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag || $0.trimmingCharacters(in: .whitespaces) == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = String(bytes.readableBytes)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: bytes))
    }

    /// Whether a path is the site's rather than the API's, the photos' or the health checks':
    /// such a path that is not found gets the HTML 404 page.
    static func isPagePath(_ path: String) -> Bool {
        !["/api/", "/photos/", "/health", "/metrics"].contains { path.hasPrefix($0) }
    }

    /// A page for a failure: its status, what happened and what to do, a way back.
    static func failure(_ failure: APIFailure) -> Response {
        let title = switch failure.status.code {
        case 404: "Not found"
        case 410: "No longer here"
        case 429: "Too many requests"
        case 503: "Temporarily unavailable"
        case 400..<500: "This address is not right"
        default: "Something went wrong on our side"
        }
        let html = document(title: "\(title) · PetSpot", description: failure.error.message, body: """
            <h1>\(title)</h1>
            <p>\(failure.error.message)</p>
            <p><a href="/">See all announcements</a></p>

            """)
        var extra = HTTPFields()
        if let retry = failure.headers[.retryAfter] { extra[.retryAfter] = retry }
        return response(html, status: failure.status, extra: extra)
    }
}
