import PetSpot

/// To the address a report was made with, right after: the report's page, what the
/// management password is for and where it is used (the page's "Manage this report"), and how
/// to get in without it (a sign-in link to this address). The password was shown once and is not
/// in this message, and nothing here stands in for it. Asked for right then: no unsubscribe.
struct ReportConfirmationMail: ReportMailTemplate {
    static let kind = OutboxItem.Kind.reportConfirmation

    let details: PetDetails
    let base: String

    var subject: String {
        PetPage.givenName(details).map { "Your report of \($0) is on PetSpot" } ?? "Your report of a \(what) is on PetSpot"
    }

    var text: String {
        """
        Your report of a \(what) is on PetSpot:
        \(pageURL)

        The six-digit management password shown when you posted it lets you change the report, \
        add or replace its photo, mark it reunited or take it down: choose "Manage this report" on \
        the report's page. Keep it somewhere safe; it is not in this email. Lost it? Choose \
        "Forgot the password?" when signing in, and we email a sign-in link to this address.
        """
    }

    var html: HTML {
        """
        <h1 style="\(MailLayout.heading)">Your report is on PetSpot</h1>
        <p>Your report of a \(what) is published:</p>
        \(MailLayout.button("See your report", href: pageURL))<p>The six-digit management password shown when you posted it lets you \
        change the report, add or replace its photo, mark it reunited or take it down: choose “Manage this report” on the report’s page. Keep it somewhere safe; it is not in this email. Lost it? Choose “Forgot the password?” when signing in, and we email a sign-in link to this address.</p>

        """
    }

    var reason: String { "You get this because a report was made on PetSpot with this address." }
}
