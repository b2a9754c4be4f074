import Foundation
import PetSpot
import Sharing

/// `GET /pets/{id}`: one announcement as the app's details screen shows it, with the tags that
/// make a shared link preview (Open Graph, Twitter card).
struct PetPage {
    var details: PetDetails
    /// This page's absolute URL; the share card and the flyer are below it.
    var pageURL: String
    /// Possible matches (``PossibleMatches``), best first.
    var matches: [PossibleMatch] = []
    /// Whether the server mails possible matches (`nil`: say nothing, a closed report).
    var mailsMatches: Bool?

    struct PossibleMatch {
        var id: String
        var title: String
        var when: String
        var reasons: [String]
    }

    /// How wide the photo is shown (site.css): the page's width less its padding, and from
    /// 960 px on three fifths of it beside the facts (at most 1200 px wide, a 32 px gap).
    static let photoSizes = "(min-width: 1200px) 682px, (min-width: 960px) calc((100vw - 64px) * 0.6), calc(100vw - 32px)"

    var html: HTML {
        let shown = PetDetailsPresentation(details, timeZone: TimeZone(identifier: "UTC")!)
        let title = "\(shown.status): \(Self.title(details))"
        let summary = Self.summary(details, shown: shown)
        let picture = PhotoPicture(variants: details.photoVariants, photoURL: details.photoUrl, alt: Self.altText(details),
                                   sizes: Self.photoSizes, lazy: false)
        var rows: [(String, HTML)] = [("Status", "<span class=\"badge \(Self.badgeClass(details.status))\">\(shown.status)</span>")]
        if let name = Self.givenName(details) { rows.append(("Name", "\(name)")) }
        rows += [
            ("Microchip", "\(shown.microchipNumber)"),
            ("Species", "\(shown.species)"),
            ("Breed", "\(shown.breed)"),
            ("Sex", "\(Self.sexText(details.gender))"),
        ]
        if details.approximateAge != nil { rows.append(("Age", "\(shown.age)")) }
        rows.append((details.isFoundReport ? "Found on" : "Last seen", "\(shown.lastSeenDate)"))
        if let point = details.coordinates {
            rows.append(("Where", "\(shown.location) · <a href=\"\(Self.mapURL(point))\">Open in a map</a>"))
        } else {
            rows.append(("Where", "\(PetDetails.noLocationText)"))
        }
        if let reward = details.reward?.shownText { rows.append(("Reward", "\(reward)")) }
        // A closed announcement shows no contact details (the API gives "" and null).
        if let phone = details.phone.shownText { rows.append(("Phone", "<a href=\"\(URLText.tel(phone))\">\(phone)</a>")) }
        if let email = details.email?.shownText { rows.append(("Email", "<a href=\"\(URLText.mailto(email))\">\(email)</a>")) }
        let facts = rows.map { name, value in "<dt>\(name)</dt><dd>\(value)</dd>\n" as HTML }
        let description: HTML = details.description.shownText.map { "<h2>Description</h2>\n<p class=\"description\">\($0)</p>\n" } ?? ""
        return PageLayout.document(title: "\(title) · PetSpot", description: summary, meta: openGraph(title: title, summary: summary), body: """
            <article class="details">
            <h1>\(title)</h1>
            \(Self.closedNotice(details))<div class="layout">
            <figure class="photo">\(picture.html)</figure>
            <div class="info">
            <dl class="facts">
            \(facts)</dl>
            \(description)\(matchList)\(Self.sharing(details, pageURL: pageURL))<p class="manage"><a href="/pets/\(details.id.rawValue)/manage">Manage this report</a></p>
            <p class="back"><a href="/">All announcements</a></p>
            \(Self.namesAPlace(details) ? Self.placesCredit : .empty)
            </div>
            </div>
            </article>

            """)
    }

    private func openGraph(title: String, summary: String) -> HTML {
        var tags: [HTML] = [
            "<meta property=\"og:type\" content=\"website\">\n",
            "<meta property=\"og:site_name\" content=\"PetSpot\">\n",
            "<meta property=\"og:title\" content=\"\(title)\">\n",
            "<meta property=\"og:description\" content=\"\(summary)\">\n",
            "<meta property=\"og:url\" content=\"\(pageURL)\">\n",
            "<meta name=\"twitter:title\" content=\"\(title)\">\n",
            "<meta name=\"twitter:description\" content=\"\(summary)\">\n",
        ]
        // Link previews show the share card: the photo cropped to the animal beside its status,
        // species and place (``ShareRoutes``); without a photo, the status and species alone.
        let card = pageURL + "/card.jpg"
        tags += [
            "<meta property=\"og:image\" content=\"\(card)\">\n",
            "<meta property=\"og:image:type\" content=\"image/jpeg\">\n",
            "<meta property=\"og:image:width\" content=\"\(ShareCard.width)\">\n",
            "<meta property=\"og:image:height\" content=\"\(ShareCard.height)\">\n",
            "<meta property=\"og:image:alt\" content=\"\(Self.altText(details))\">\n",
            "<meta name=\"twitter:card\" content=\"summary_large_image\">\n",
            "<meta name=\"twitter:image\" content=\"\(card)\">\n",
        ]
        return HTML(joining: tags)
    }

    /// "Could it be one of these?": the possible matches, each linking to its page.
    private var matchList: HTML {
        guard !matches.isEmpty else { return matchMailNote }
        let items = matches.map { match in
            "<li><a href=\"/pets/\(match.id)\">\(match.title)</a>, \(match.when) — \(match.reasons.joined(separator: ", "))</li>\n" as HTML
        }
        return "<h2>Could it be one of these?</h2>\n<ol class=\"matches\">\n\(items)</ol>\n\(matchMailNote)"
    }

    /// Who hears of a new possible match: the missing pet's owner by email, or, on a server that
    /// sends none, whoever comes back to look.
    private var matchMailNote: HTML {
        guard let mailsMatches else { return .empty }
        let text = switch (mailsMatches, details.isFoundReport) {
        case (true, false): "Its owner is emailed when a new report may match."
        case (true, true): "The owners of missing pets it may match are emailed about it."
        case (false, _): "This site sends no email: come back to this page for new possible matches."
        }
        return "<p class=\"matches-note\">\(text)</p>\n"
    }

    /// Links to print a flyer (A4, US Letter) and to the share card; the page's own address
    /// written out for a printed page.
    static func sharing(_ details: PetDetails, pageURL: String) -> HTML {
        let path = "/pets/\(details.id.rawValue)"
        return """
            <p class="share">Print a flyer: <a href="\(path)/flyer.pdf">A4</a> · <a href="\(path)/flyer.pdf?paper=letter">US Letter</a> · <a href="\(path)/card.jpg">Picture to share</a></p>
            <p class="print-url">\(pageURL)</p>

            """
    }

    // MARK: shared with the cards

    /// The name the reporter gave, when it is more than the species in words.
    static func givenName(_ details: PetDetails) -> String? {
        details.petName.shownText.flatMap { $0 == details.species.displayName ? nil : $0 }
    }

    /// A closed announcement's banner: "Reunited" (or "Closed") and since when.
    static func closedNotice(_ details: PetDetails) -> HTML {
        guard details.status == .closed else { return .empty }
        let outcome = details.closedOutcome ?? .withdrawn
        let since = details.closedAt.map { " on " + LocalDate.displayString(for: $0, in: .gmt) } ?? ""
        let sentence = outcome == .reunited
            ? (details.isFoundReport ? "This pet is back with its family" : "This pet has come home")
            : "Its owner closed this announcement"
        return "<p class=\"closed-notice \(outcome.rawValue.lowercased())\"><strong>\(outcome.displayLabel)</strong> \(sentence)\(since). Contact details are no longer shown.</p>\n"
    }

    /// "Dog, Labrador" or "Dog".
    static func title(_ details: PetDetails) -> String {
        [details.species.displayName, details.breed?.shownText].compactMap { $0 }.joined(separator: ", ")
    }

    /// The photo's alt text, from the species and the breed.
    static func altText(_ details: PetDetails) -> String {
        let what = details.isFoundReport ? "found" : "missing"
        return "Photo of the \(what) \(title(details).lowercased())"
    }

    /// Where, as text (no distance: the page does not know where the reader is).
    /// Whether the announcement's location reads as a place name from the gazetteer.
    static func namesAPlace(_ details: PetDetails) -> Bool {
        details.coordinates.map { details.location != $0.text } ?? false
    }

    /// GeoNames' data is CC BY 4.0: a page showing a place name from it says where it comes from.
    static let placesCredit: HTML = "<p class=\"credit\">Place names: <a href=\"https://www.geonames.org/\">GeoNames</a> (CC BY 4.0)</p>\n"

    /// The place's own name alone ("Mokotów" of "1.2 km from Mokotów, Warsaw, Poland"), for a
    /// card that already says how far it is; the coordinates without a gazetteer.
    static func shortPlace(_ details: PetDetails) -> String {
        guard namesAPlace(details) else { return details.coordinates?.text ?? PetDetails.noLocationText }
        var text = Substring(details.location)
        if text.hasPrefix("In ") {
            text = text.dropFirst(3)
        } else if let from = text.range(of: " km from ") {
            text = text[from.upperBound...]
        }
        return String(text.prefix { $0 != "," })
    }

    static func placeText(_ details: PetDetails) -> String {
        guard let point = details.coordinates else { return PetDetails.noLocationText }
        // A place name from the gazetteer reads as it is ("1.2 km from Mokotów, Warsaw, Poland").
        return details.location == point.text ? "Near \(details.location)" : details.location
    }

    static func badges(_ details: PetDetails) -> HTML {
        let status = PetDetailsPresentation(details).status
        let reward: HTML = details.reward?.shownText == nil ? "" : #"<span class="badge reward">REWARD</span>"#
        return "<span class=\"badges\"><span class=\"badge \(badgeClass(details.status))\">\(status)</span>\(reward)</span>"
    }

    static func badgeClass(_ status: PetStatus) -> String {
        switch status {
        case .active: "missing"
        case .found: "found"
        case .closed: "closed"
        }
    }

    static func sexText(_ gender: Gender) -> String {
        switch gender {
        case .male: "♂ Male"
        case .female: "♀ Female"
        case .unknown: "Unknown"
        }
    }

    /// OpenStreetMap centred on the point with a marker.
    static func mapURL(_ location: PetLocation) -> String {
        let lat = String(format: "%.5f", location.latitude), lon = String(format: "%.5f", location.longitude)
        return "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=16/\(lat)/\(lon)"
    }

    /// One sentence for previews and search engines.
    static func summary(_ details: PetDetails, shown: PetDetailsPresentation) -> String {
        let when = details.isFoundReport ? "Found on" : "Last seen on"
        // Only the first letter lowered: "near 52.2297, 21.0122", "in Warsaw, Poland".
        let place = placeText(details)
        var text = "\(shown.status): \(title(details)). \(when) \(shown.lastSeenDate), \(place.prefix(1).lowercased() + place.dropFirst())."
        if let description = details.description.shownText {
            text += " " + (description.count > 160 ? description.prefix(157) + "…" : description)
        }
        return text
    }
}
