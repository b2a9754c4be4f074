import Foundation
import HTTPTypes
import Hummingbird

/// The page of a report form: the error summary (when sent back), the heading, and the form —
/// its token first (so a forged post is refused before its photo is read), its idempotency key,
/// the honeypot, its sections, the send button — with the forms' style sheet and script.
enum ReportFormPage {
    /// The page, with `notices` (problems with the form as a whole) atop the summary.
    static func html<Form: ReportForm>(_ form: Form, token: String, idempotencyKey: String, notices: [String] = []) -> HTML {
        let fields = form.fields
        let hidden: [HTML] = [
            FormHTML.hidden(FormProtection.fieldName, token),
            FormHTML.hidden(ReportField.idempotencyKey, idempotencyKey),
            FormHTML.hidden(ReportField.photoToken, form.photo?.token ?? ""),
            FormHTML.hidden(ReportField.latitude, fields.text(ReportField.latitude)),
            FormHTML.hidden(ReportField.longitude, fields.text(ReportField.longitude)),
            FormHTML.hidden(ReportField.whereResolved, fields.text(ReportField.whereResolved)),
            FormHTML.hidden(ReportField.dateDefault, fields.text(ReportField.dateDefault)),
        ]
        let title = form.problems.isEmpty && notices.isEmpty ? Form.heading : "Error: \(Form.heading)"
        let body: HTML = """
            <div class="form-page">
            \(form.errorSummary(notices: notices))<h1>\(Form.heading)</h1>
            <p class="lede">\(Form.lede)</p>
            <form method="post" action="\(Form.path)" enctype="multipart/form-data" novalidate id="report-form" data-photo-url="\(ReportPaths.photo)" data-max-bytes="\(form.maxPhotoBytes)" data-too-large="\(PhotoRefusal.tooLarge(limit: form.maxPhotoBytes).message)" data-kind="\(Form.kind == .missing ? "missing" : "found")">
            \(hidden)\(BotCheck.honeypot)
            \(form.renderedSections())<div class="actions"><button type="submit" class="button" id="send">Send report</button><a href="/report">Back</a></div>
            </form>
            </div>

            """
        return PageLayout.document(title: "\(title) · PetSpot", description: Form.lede, meta: assets, body: body)
    }

    /// The forms' style sheet and script (deferred: the form works before and without it).
    static var assets: HTML {
        "\(FormStyle.link)<script src=\"\(ReportScript.path)\" defer></script>\n"
    }

    /// A form page's response: never stored by any cache (it carries the browser's token), the
    /// forms' policy, and the cookie the token is bound to when the browser had none.
    static func response(_ html: HTML, status: HTTPResponse.Status = .ok, cookie: Cookie?) -> Response {
        var response = PageLayout.response(html, status: status, cacheControl: "no-store", policy: PageLayout.formContentSecurityPolicy)
        if let cookie { response.setCookie(cookie) }
        return response
    }
}
