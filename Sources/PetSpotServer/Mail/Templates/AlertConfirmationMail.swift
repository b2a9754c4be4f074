/// To an address that asked to follow an area: the link that confirms it. Nothing else is sent
/// to the address until it is followed. Asked for right then: no unsubscribe (ignoring it is
/// enough; an unconfirmed subscription is erased after a week).
struct AlertConfirmationMail: MailTemplate {
    static let kind = OutboxItem.Kind.alertConfirmation

    let subscription: AlertSubscription
    let confirmURL: String

    var subject: String { "Confirm your PetSpot alerts" }

    private var how: String { subscription.cadence == .each ? "an email for each new report" : "one email a day with the new reports" }

    var text: String {
        """
        Someone asked PetSpot to email this address about \(subscription.areaDescription), \(how).

        To start, confirm:
        \(confirmURL)

        If it was not you, ignore this email: nothing more is sent, and the address is forgotten in a week.
        """
    }

    var html: HTML {
        """
        <h1 style="\(MailLayout.heading)">Confirm your alerts</h1>
        <p>Someone asked PetSpot to email this address about <strong>\(subscription.areaDescription)</strong>, \(how).</p>
        \(MailLayout.button("Confirm the alerts", href: confirmURL))<p>If it was not you, ignore this email: nothing more is sent, \
        and the address is forgotten in a week.</p>

        """
    }

    var reason: String { "You get this because this address was entered on PetSpot to follow an area." }
}
