import PetSpot

/// The manage pages a person sees before signing in and around a take-down: the sign-in form
/// (the management password, the id being the page's), the take-down's confirmation, and the
/// page of a report taken down.
enum ManageSignInPage {
    /// The password question: never filled in again, digits on a phone's keyboard, and the id as
    /// the "user name" a password manager files it under.
    static let password = FormInput(name: ManageField.password, label: "Management password",
                                    hint: "The six digits you were given when you posted the report.",
                                    kind: .input(type: "password"), autocomplete: "current-password", inputMode: "numeric",
                                    maxLength: 64, spellcheck: false, short: true, fields: [])

    /// The sign-in page.
    /// - Parameters:
    ///   - problem: what was wrong with the password sent, beside it and in the summary.
    ///   - notice: a sentence about the session (ended, signed out) or the lockout.
    ///   - mail: whether the site sends mail (a sign-in link instead of a lost password).
    static func html(id: AnnouncementID, title: String, token: String, problem: String? = nil, notice: String? = nil,
                     done: ManageNotice? = nil, mail: Bool) -> HTML {
        let path = OwnerSession.path(id)
        let summary = FormHTML.errorSummary(problem.map { [(targetID: password.targetID, message: $0)] } ?? [])
        let banner: HTML = done.map { "<div class=\"banner\" role=\"status\"><h2 class=\"banner-title\">Done</h2><p>\($0.message(foundReport: false))</p></div>\n" } ?? .empty
        let noticeHTML: HTML = notice.map { "<p class=\"notice\" role=\"alert\">\($0)</p>\n" } ?? .empty
        let body: HTML = """
            <div class="form-page">
            \(summary)\(banner)<p class="caption">\(title)</p>
            <h1>Manage this report</h1>
            \(noticeHTML)<p class="lede">Sign in to change the report, mark it as reunited or take it down.</p>
            <form method="post" action="\(path)/sign-in" novalidate>
            \(FormHTML.hidden(FormProtection.fieldName, token))<input type="text" name="username" value="\(id.rawValue)" autocomplete="username" hidden>
            \(FormHTML.question(password, value: "", messages: problem.map { [$0] } ?? []))<div class="actions"><button type="submit" class="button">Sign in</button></div>
            </form>
            \(SignInLinkPages.forgotLine(id: id, mail: mail))<p><a href="/pets/\(id.rawValue)">Back to the report</a></p>
            </div>

            """
        return PageLayout.document(title: "\(problem == nil ? "" : "Error: ")Manage this report · PetSpot",
                                   description: "Sign in to manage the report \(title).", meta: FormStyle.link, body: body)
    }

    /// "Take this report down for good?", with the button that does it and the way back.
    static func takeDown(id: AnnouncementID, title: String, token: String) -> HTML {
        let path = OwnerSession.path(id)
        return PageLayout.document(title: "Take the report down? · PetSpot", description: "Take the report \(title) down.",
                                   meta: FormStyle.link, body: """
            <div class="form-page">
            <p class="caption">\(title)</p>
            <h1>Take this report down for good?</h1>
            <p>Its details, your contact details and its photo are erased, and its page says it was taken down. This cannot be undone: to report the pet again you would send a new report.</p>
            <p>If the pet is home, or you only want the report out of the lists, close it instead: you can reopen it later.</p>
            <form method="post" action="\(path)/take-down">
            \(FormHTML.hidden(FormProtection.fieldName, token))<div class="actions"><button type="submit" class="button warning">Yes, take it down for good</button><a href="\(path)">No, keep it</a></div>
            </form>
            </div>

            """)
    }

    /// The page of a report taken down (410), saying so to the owner who just did it.
    static func gone(done: Bool) -> HTML {
        let sentence: HTML = done
            ? "<div class=\"banner\" role=\"status\"><h2 class=\"banner-title\">Done</h2><p>\(ManageNotice.takenDown.message(foundReport: false))</p></div>\n<h1>Report taken down</h1>\n<p>Its page now says that it was taken down. Thank you for keeping PetSpot up to date.</p>\n"
            : "<h1>No longer here</h1>\n<p>This report was taken down by the person who posted it; there is nothing left to manage.</p>\n"
        return PageLayout.document(title: "Report taken down · PetSpot", description: "This report was taken down.",
                                   meta: FormStyle.link, body: """
            <div class="form-page">
            \(sentence)<p><a href="/">See all announcements</a></p>
            </div>

            """)
    }
}
