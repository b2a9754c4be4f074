import Foundation
import PetSpot

/// "Could this be Rex?": to the owner of a missing report, when a found report (or their own
/// report, edited) scores above the threshold against the other: both photos as linked
/// thumbnails, how far and how many days apart, why it may be the same pet, and the link to the
/// found report's page (where the finder's number is). Off with one click for this report.
struct PossibleMatchMail: MailTemplate {
    static let kind = OutboxItem.Kind.possibleMatch

    let missing: PetDetails
    let found: PetDetails
    let distanceKm: Double
    let daysApart: Int
    /// What else the two share ("both 'retriever'", "similar colours"): ``PossibleMatches``'
    /// reasons after the distance and the days, which the mail words from the owner's side.
    let evidence: [String]
    /// The public URL, without a trailing slash.
    let base: String
    let unsubscribeURL: String?

    /// "Rex", or "your dog" when the report gives no name.
    var name: String { PetPage.givenName(missing) ?? "your \(missing.species.displayName.lowercased())" }
    private var foundURL: String { "\(base)/pets/\(found.id.rawValue)" }
    private var missingURL: String { "\(base)/pets/\(missing.id.rawValue)" }
    private var species: String { found.species.displayName.lowercased() }

    var subject: String { "Could this be \(name)?" }

    private var distance: String { distanceKm < 10 ? String(format: "%.1f km", distanceKm) : "\(Int(distanceKm.rounded())) km" }
    private var when: String {
        switch daysApart {
        case 0: "the same day"
        case 1: "a day later"
        default: "\(daysApart) days later"
        }
    }

    private var why: String { ([distance, when] + evidence).joined(separator: ", ") }

    private var intro: String {
        "A \(species) was reported found \(distance) from where \(name) was last seen, \(when) (\(found.lastSeenDate.displayString))."
    }

    var text: String {
        """
        \(subject)

        \(intro)

        Found: \(PetPage.title(found)), \(PetPage.placeText(found))
        Found on: \(found.lastSeenDate.displayString)
        Why it may be \(name): \(why)

        See the found \(species), with the finder's phone number:
        \(foundURL)

        Your report: \(missingURL)
        """
    }

    var html: HTML {
        let column = "display:inline-block;vertical-align:top;width:260px;max-width:100%;margin:0 12px 16px 0"
        return """
            <h1 style="\(MailLayout.heading)">\(subject)</h1>
            <p>\(intro)</p>
            <div>
            <div style="\(column)">\(MailPhoto(details: found, href: foundURL).html)
            <p style="margin:6px 0 0"><strong>Found</strong>: \(PetPage.title(found))<br>\(PetPage.placeText(found))<br>\(found.lastSeenDate.displayString)</p></div>
            <div style="\(column)">\(MailPhoto(details: missing, href: missingURL).html)
            <p style="margin:6px 0 0"><strong>Your report</strong>: \(PetPage.title(missing))<br>last seen \(missing.lastSeenDate.displayString)</p></div>
            </div>
            <p><strong>Why it may be \(name):</strong> \(why).</p>
            \(MailLayout.button("See the found \(species)", href: foundURL))<p>Its page has the finder's phone number. \
            <a href="\(missingURL)">Your report</a></p>

            """
    }

    var reason: String {
        "You get this because you reported \(name) missing on PetSpot with this address, and a found report may match."
    }
}
