import PetSpot

/// `GET /`: the announcements, newest first, as cards, with filters by species and status and
/// a link to the next page (the API's cursor).
struct AnnouncementListPage {
    var announcements: [PetDetails]
    var filter: AnnouncementFilter
    /// The cursor of the next page, when there is one.
    var next: String?
    /// Whether this is a later page (a link back to the newest).
    var isLaterPage: Bool

    /// How wide a card's photo is shown: the grid in site.css (2 columns below 600 px, 3 below
    /// 960 px, then 4 in at most 1200 px, 16 px padding and 12 px gaps).
    static let cardSizes = "(min-width: 1200px) 283px, (min-width: 960px) calc((100vw - 68px) / 4), (min-width: 600px) calc((100vw - 56px) / 3), calc((100vw - 44px) / 2)"
    /// Cards in the first rows load at once; the rest when scrolled near.
    static let eagerCards = 4

    var html: HTML {
        let heading = switch (filter.status, filter.species) {
        case (nil, nil): "Lost and found pets"
        case (let status?, nil): status == .missing ? "Missing pets" : "Found pets"
        case (nil, let species?): "Lost and found: \(species.displayName.lowercased())s"
        case (let status?, let species?): "\(status == .missing ? "Missing" : "Found"): \(species.displayName.lowercased())s"
        }
        let cards = announcements.enumerated().map { index, details in Self.card(details, lazy: index >= Self.eagerCards) }
        let list: HTML = cards.isEmpty
            ? "<p class=\"empty\">\(filter == .all ? "No announcements yet." : "No announcements match these filters.")</p>\n"
            : "<ul class=\"cards\">\n\(cards)</ul>\n"
        return PageLayout.document(
            title: "\(heading) · PetSpot",
            description: "Pets reported missing or found, newest first, with photos and how to reach the person who posted them.",
            body: "<h1>\(heading)</h1>\n\(filters)\(list)\(pager)\(announcements.contains(where: PetPage.namesAPlace) ? PetPage.placesCredit : .empty)")
    }

    private var filters: HTML {
        let species = Species.allCases.map { option in
            "<option value=\"\(option.rawValue.lowercased())\"\(selected(filter.species == option))>\(option.displayName)</option>" as HTML
        }
        let statuses = AnnouncementStatus.allCases.map { option in
            "<option value=\"\(option.rawValue.lowercased())\"\(selected(filter.status == option))>\(option == .missing ? "Missing" : "Found")</option>" as HTML
        }
        return """
            <form class="filters" method="get" action="/">
            <label>Species <select name="species"><option value="">All species</option>\(species)</select></label>
            <label>Status <select name="status"><option value="">Missing and found</option>\(statuses)</select></label>
            <button type="submit">Show</button>
            </form>

            """
    }

    private func selected(_ yes: Bool) -> HTML { yes ? " selected" : "" }

    private var pager: HTML {
        let species = filter.species?.rawValue.lowercased(), status = filter.status?.rawValue.lowercased()
        var links: [HTML] = []
        if isLaterPage { links.append("<a href=\"/\(URLText.query([("species", species), ("status", status)]))\">Newest</a>") }
        if let next { links.append("<a href=\"/\(URLText.query([("species", species), ("status", status), ("cursor", next)]))\" rel=\"next\">Older announcements</a>") }
        return links.isEmpty ? .empty : "<nav class=\"pager\" aria-label=\"Pages\">\(links)</nav>\n"
    }

    static func card(_ details: PetDetails, lazy: Bool) -> HTML {
        let shown = PetDetailsPresentation(details)
        let picture = PhotoPicture(variants: details.photoVariants, photoURL: details.photoUrl, alt: PetPage.altText(details),
                                   sizes: cardSizes, lazy: lazy)
        let place = PetPage.placeText(details)
        return """
            <li class="card"><a href="/pets/\(details.id.rawValue)">
            <figure class="photo">\(picture.html)\(PetPage.badges(details))</figure>
            <div class="text"><h2>\(PetPage.title(details))</h2>
            <p>\(shown.gender == "?" ? "Sex unknown" : shown.gender) · \(details.isFoundReport ? "Found" : "Last seen") \(shown.lastSeenDate)</p>
            <p>\(place)</p></div>
            </a></li>

            """
    }
}
