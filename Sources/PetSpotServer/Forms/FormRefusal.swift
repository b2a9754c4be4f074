import HTTPTypes
import Hummingbird
import PetSpot

extension APIErrorCode {
    /// 403: a form post without a valid CSRF token for the browser's cookie.
    static let formTokenInvalid: APIErrorCode = "form_token_invalid"
    /// 400: a form post that a bot check turned away.
    static let formLooksAutomated: APIErrorCode = "form_looks_automated"
}

/// The answers to a form post that is not even looked at: a forged or cookie-less post (403) and
/// a post a bot check turned away (400), each a page saying what happened, that nothing was
/// saved, and what a person can do.
enum FormRefusal {
    /// 403 for a post whose token ``FormProtection`` did not accept.
    static func forbidden(_ verdict: FormProtection.Verdict) -> APIFailure {
        let reason = switch verdict {
        case .noCookie:
            "Your browser did not send back the cookie this site set when it showed you the form, so the form cannot be told apart from one another website sent in your name."
        case .wrongToken, .valid:
            "The form did not carry the check this site puts in every form it shows, so it cannot be told apart from one another website sent in your name."
        }
        return APIFailure(status: .forbidden, error: .init(code: .formTokenInvalid, message:
            "\(reason) Nothing was saved. Open the form again from this site (allow its cookies), fill it in and send it."))
    }

    /// 400 for a post whose honeypot was filled in.
    static let honeypot = APIFailure(status: .badRequest, error: .init(code: .formLooksAutomated, message:
        "The form came back with a hidden field filled in, which people never see but automated programs fill in. Nothing was saved. If you are a person, open the form again and send it without filling in anything your screen does not show."))

    /// A form page's failure as a page: a form that could not be read says so (``page(_:)``); a
    /// missing announcement, a limit or an outage is the site's usual page. Neither is cached.
    static func response(for failure: APIFailure) -> Response {
        if (400..<500).contains(failure.status.code), ![404, 410, 429].contains(failure.status.code) {
            return page(failure)
        }
        return PageLayout.failure(failure)
    }

    /// The page for a form post refused before it was read as a form (403, the bot check, a
    /// body too large or not a form), never cached: what happened and that nothing was saved.
    static func page(_ failure: APIFailure) -> Response {
        let title = switch (failure.status, failure.error.code) {
        case (.forbidden, _): "This form could not be accepted"
        case (_, .formLooksAutomated): "This form was turned away"
        case (.contentTooLarge, _): "This form is too large"
        default: "This form could not be read"
        }
        let html = PageLayout.document(title: "\(title) · PetSpot", description: failure.error.message, body: """
            <h1>\(title)</h1>
            <p>\(failure.error.message)</p>
            <p><a href="/report">Report a pet</a> · <a href="/">See all announcements</a></p>

            """)
        var response = PageLayout.response(html, status: failure.status, cacheControl: "no-store")
        if let retry = failure.headers[.retryAfter] { response.headers[.retryAfter] = retry }
        return response
    }
}
