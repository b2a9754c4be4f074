import PetSpot

/// A one-time link that signs the owner in to a report's manage page, asked for with
/// "Forgot the password?". Asked for right then: no unsubscribe. The link itself (its token,
/// its expiry) is made by whoever asks for this message.
struct SignInLinkMail: MailTemplate {
    static let kind = OutboxItem.Kind.signInLink

    let details: PetDetails
    /// The one-time sign-in URL (absolute).
    let link: String
    /// How long the link works, in words ("an hour").
    let validFor: String

    private var what: String { PetPage.givenName(details) ?? "a \(details.isFoundReport ? "found" : "missing") \(PetPage.title(details).lowercased())" }

    var subject: String { "Sign in to your PetSpot report" }

    var text: String {
        """
        Someone asked to sign in to the PetSpot report of \(what). To sign in, open this link \
        within \(validFor); it works once:
        \(link)

        If it was not you, ignore this email: nothing changes without the link.
        """
    }

    var html: HTML {
        """
        <h1 style="\(MailLayout.heading)">Sign in to your report</h1>
        <p>Someone asked to sign in to the PetSpot report of \(what). The link works once, within \(validFor).</p>
        \(MailLayout.button("Sign in", href: link))<p>If it was not you, ignore this email: nothing changes without the link.</p>

        """
    }

    var reason: String { "You get this because someone asked for a sign-in link to a report made with this address." }
}
