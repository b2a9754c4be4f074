import PetSpot

/// To a report's address, when someone asked for a sign-in link on its manage page: the link,
/// that it works once and for an hour, and what to do if it was not them. Asked for right then:
/// no unsubscribe.
struct SignInLinkMail: ReportMailTemplate {
    static let kind = OutboxItem.Kind.signInLink

    let details: PetDetails
    /// The whole link (``SignInLink``).
    let url: String
    let base: String

    var subject: String {
        PetPage.givenName(details).map { "Sign in to manage your report of \($0)" } ?? "Sign in to manage your report on PetSpot"
    }

    var text: String {
        """
        Someone asked for a link to manage your report of a \(what) on PetSpot without its \
        management password. If it was you, open this link and press "Sign in":
        \(url)

        It works once, within an hour of being asked for. Once signed in you can make a new \
        management password; other devices signed in to the report are signed out.

        If you did not ask for it, you need not do anything: nobody can sign in without this \
        email. The report's page: \(pageURL)
        """
    }

    var html: HTML {
        """
        <h1 style="\(MailLayout.heading)">Sign in to manage your report</h1>
        <p>Someone asked for a link to manage your report of a \(what) on PetSpot without its management password. \
        If it was you, open the link and press “Sign in”:</p>
        \(MailLayout.button("Sign in to manage the report", href: url))<p>It works once, within an hour of being asked for. \
        Once signed in you can make a new management password; other devices signed in to the report are signed out.</p>
        <p>If you did not ask for it, you need not do anything: nobody can sign in without this email. \
        <a href="\(pageURL)">The report’s page</a>.</p>

        """
    }

    var reason: String { "You get this because someone asked for a sign-in link for a PetSpot report made with this address." }
}
