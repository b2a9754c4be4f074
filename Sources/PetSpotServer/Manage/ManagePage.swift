import Foundation
import PetSpot

/// `/pets/{id}/manage` for its signed-in owner: what an action just did, the report's status
/// with the buttons that change it, the report form filled in with what is stored (photo
/// included), taking the report down, and signing out. Every form carries the browser's CSRF
/// token; the status and details forms also the version they were made from.
struct ManagePage<Report: ReportForm> {
    var id: AnnouncementID
    var details: PetDetails
    var form: ManageForm<Report>
    var token: String
    /// The banner of the action just done.
    var done: ManageNotice?
    /// Problems with the page as a whole, atop the error summary (a change made elsewhere).
    var notices: [String] = []
    /// A new management password, shown this once.
    var newPassword: String?

    var path: String { OwnerSession.path(id) }

    var html: HTML {
        let title = "\(PetDetailsPresentation(details).status): \(PetPage.title(details))"
        let banner: HTML = done.map {
            "<div class=\"banner\" role=\"status\"><h2 class=\"banner-title\">Done</h2><p>\($0.message(foundReport: details.isFoundReport))</p></div>\n"
        } ?? .empty
        let password: HTML = newPassword.map {
            "<div class=\"panel\"><h2>Your new management password</h2><p class=\"password\">\($0)</p></div>\n<p><strong>Write it down or save it now: it is shown only this once.</strong></p>\n"
        } ?? .empty
        let problems = !form.problems.isEmpty || !notices.isEmpty
        let body: HTML = """
            <div class="form-page">
            \(form.errorSummary(notices: notices))\(banner)\(password)<p class="caption">Manage your report</p>
            <h1>\(title)</h1>
            <p class="lede"><a href="/pets/\(id.rawValue)">See the report as others see it</a></p>
            \(status)<h2 class="part">Change the details</h2>
            <form method="post" action="\(path)" enctype="multipart/form-data" novalidate id="report-form" data-photo-url="\(ReportPaths.photo)" data-max-bytes="\(form.report.maxPhotoBytes)" data-too-large="\(PhotoRefusal.tooLarge(limit: form.report.maxPhotoBytes).message)" data-kind="\(Report.kind == .missing ? "missing" : "found")">
            \(FormHTML.hidden(FormProtection.fieldName, token))\(FormHTML.hidden(ManageField.version, String(form.version)))\(FormHTML.hidden(ReportField.photoToken, form.photoIsStored ? "" : form.report.photo?.token ?? ""))\(FormHTML.hidden(ReportField.latitude, form.fields.text(ReportField.latitude)))\(FormHTML.hidden(ReportField.longitude, form.fields.text(ReportField.longitude)))\(FormHTML.hidden(ReportField.whereResolved, form.fields.text(ReportField.whereResolved)))\(form.renderedSections(numbered: false))<div class="actions"><button type="submit" class="button" id="send">Save changes</button></div>
            </form>
            <h2 class="part">Management password</h2>
            <p>Get a new one if someone else may know it: the old one stops working and every other device is signed out.</p>
            <form method="post" action="\(path)/password">
            \(FormHTML.hidden(FormProtection.fieldName, token))<div class="actions"><button type="submit" class="button secondary">Get a new password</button></div>
            </form>
            <h2 class="part">Take the report down</h2>
            <p>Taking it down erases its details, your contact details and its photo for good. Close it instead to keep it for your records.</p>
            <p><a class="button warning" href="\(path)/take-down">Take down for good</a></p>
            <h2 class="part">Finished?</h2>
            <p>Signing out here signs you out on every device.</p>
            <form method="post" action="\(path)/sign-out">
            \(FormHTML.hidden(FormProtection.fieldName, token))<div class="actions"><button type="submit" class="button secondary">Sign out</button></div>
            </form>
            </div>

            """
        return PageLayout.document(title: "\(problems ? "Error: " : "")Manage your report · PetSpot", description: "Manage the report \(title).",
                                   meta: ReportFormPage.assets, body: body)
    }

    /// The status in words and the buttons that change it.
    private var status: HTML {
        let found = details.isFoundReport
        let sentence: HTML
        let buttons: HTML
        if details.status == .closed {
            let outcome = details.closedOutcome ?? .withdrawn
            let since = details.closedAt.map { " on " + LocalDate.displayString(for: $0, in: .gmt) } ?? ""
            sentence = "<p><strong class=\"badge closed\">\(outcome.displayLabel)</strong> Closed\(since). It is out of the lists and its page shows no contact details.</p>\n"
            buttons = "<button type=\"submit\" class=\"button\" name=\"\(ManageField.action)\" value=\"\(ManageAction.reopen.rawValue)\">Reopen</button>"
        } else {
            sentence = "<p><strong class=\"badge \(found ? "found" : "missing")\">\(found ? "FOUND" : "MISSING")</strong> Open: in the lists, with your contact details.</p>\n"
            buttons = """
                <button type="submit" class="button" name="\(ManageField.action)" value="\(ManageAction.reunited.rawValue)">\(found ? "The pet is back with its family" : "Our pet is home")</button><button type="submit" class="button secondary" name="\(ManageField.action)" value="\(ManageAction.withdrawn.rawValue)">Close without finding</button>
                """
        }
        return """
            <h2 class="part">Status</h2>
            \(sentence)<form method="post" action="\(path)/status">
            \(FormHTML.hidden(FormProtection.fieldName, token))\(FormHTML.hidden(ManageField.version, String(form.version)))<div class="actions">\(buttons)</div>
            </form>

            """
    }
}

/// The manage forms' own fields.
enum ManageField {
    static let version = "version"
    static let action = "action"
    static let password = "password"
}

/// What the status form's buttons ask for.
enum ManageAction: String, Sendable {
    case reunited
    case withdrawn
    case reopen
}
