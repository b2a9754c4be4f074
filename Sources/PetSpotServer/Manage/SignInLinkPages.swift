import PetSpot

/// The pages of the way in without the password: "Forgot the password?" (the report's email
/// address asked for), "Check your email", and the page a sign-in link opens.
enum SignInLinkPages {
    static let email = FormInput(name: "email", label: "Email address",
                                 hint: "The address given in the report. The link goes only to that address.",
                                 kind: .input(type: "email"), autocomplete: "email", maxLength: 254, spellcheck: false, fields: [])

    /// What the sign-in page says under its form: where to ask for a link, or that this site
    /// cannot send one.
    static func forgotLine(id: AnnouncementID, mail: Bool) -> HTML {
        mail
            ? "<p><a href=\"\(OwnerSession.path(id))/forgot\">Forgot the password?</a> We can email a sign-in link to the address in the report.</p>\n"
            : "<p>Forgot the password? This site does not send email, so it cannot send a sign-in link: without the password the report cannot be changed here.</p>\n"
    }

    /// "Forgot the password?": the address, or (without mail) why there is no such way.
    static func forgot(id: AnnouncementID, title: String, token: String, mail: Bool, value: String = "", problem: String? = nil) -> HTML {
        let path = OwnerSession.path(id)
        let form: HTML = mail ? """
            <p class="lede">We email a link that signs you in to this report, once, within an hour, to the address given in the report.</p>
            <form method="post" action="\(path)/forgot" novalidate>
            \(FormHTML.hidden(FormProtection.fieldName, token))\(FormHTML.question(email, value: value, messages: problem.map { [$0] } ?? []))\
            <div class="actions"><button type="submit" class="button">Email me a sign-in link</button></div>
            </form>

            """ : """
            <p class="lede">Sign-in links are sent by email, which this site has not been set up to send. Without the management password the report cannot be changed here.</p>

            """
        return document("\(problem == nil ? "" : "Error: ")Forgot the password?", description: "Get a sign-in link for the report \(title).", body: """
            \(FormHTML.errorSummary(problem.map { [(targetID: email.targetID, message: $0)] } ?? []))<p class="caption">\(title)</p>
            <h1>Forgot the password?</h1>
            \(form)<p><a href="\(path)">Back to signing in</a></p>

            """)
    }

    /// "Check your email": the same whether or not the address was the report's.
    static func sent(id: AnnouncementID, title: String, perHour: Int) -> HTML {
        document("Check your email", description: "A sign-in link for the report \(title).", body: """
            <p class="caption">\(title)</p>
            <h1>Check your email</h1>
            <p class="lede" role="status">If the address you entered is the one in this report, a sign-in link is on its way to it.</p>
            <p>The link works once, within an hour. It can take a few minutes to arrive: look in the spam folder too.</p>
            <p>Nothing came? Check that the address is the one you gave in the report, and <a href="\(OwnerSession.path(id))/forgot">ask again</a>. \
            At most \(perHour) links an hour are sent for a report.</p>

            """)
    }

    /// The page a link opens: a button that signs in (a `GET` changes nothing: mail programs and
    /// link scanners fetch links in mail).
    static func follow(title: String, path: String, token: String) -> HTML {
        document("Sign in to manage this report", description: "Sign in with the emailed link.", body: """
            <p class="caption">\(title)</p>
            <h1>Sign in to manage this report</h1>
            <p class="lede">This link from your email signs this browser in to the report. It works once.</p>
            <form method="post" action="\(path)">
            \(FormHTML.hidden(FormProtection.fieldName, token))<div class="actions"><button type="submit" class="button">Sign in</button></div>
            </form>

            """)
    }

    /// A link that cannot sign in any more, and the way to a new one.
    static func unusable(id: AnnouncementID, _ state: SignInLink.State) -> HTML {
        let why: HTML = state == .expired
            ? "A sign-in link works for an hour after it was asked for, and this one's hour has passed."
            : "A sign-in link works once, and this one was used, or the report's owner signed out or made a new password since."
        return document("This link no longer works", description: "A sign-in link that no longer works.", body: """
            <h1>This link no longer works</h1>
            <p>\(why)</p>
            <p><a href="\(OwnerSession.path(id))/forgot">Ask for a new link</a>, or <a href="\(OwnerSession.path(id))">sign in with the password</a>.</p>

            """)
    }

    private static func document(_ title: String, description: String, body: HTML) -> HTML {
        PageLayout.document(title: "\(title) · PetSpot", description: description, meta: FormStyle.link,
                            body: "<div class=\"form-page\">\n\(body)</div>\n")
    }
}
