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
    /// A search near a place: what was typed, the place it resolved to, the radius.
    var near: Near?
    /// A search by microchip number: as typed (kept in the box), and its digits when it is one.
    var chip: Chip?
    /// What was wrong with the search, shown beside its box and summed up first (a place no one
    /// knows, a number that is no chip number); the page then lists the newest announcements.
    var problems: [Problem] = []
    /// What was typed in "Near" when it named no place (kept in the box).
    var typedNear: String?
    /// Whether a search near a place can be followed by email.
    var alerts = AreaAlertLink.Availability.unavailable

    struct Near {
        var typed: String
        var place: String
        var radiusKm: Int
    }

    struct Chip {
        var typed: String
        var digits: String?
    }

    /// One search box's problem: the box's name (`near_place`, `chip`) and what to do.
    struct Problem {
        var field: String
        var message: String
    }

    /// The radii the form offers, in km.
    static let radii = [1, 2, 5, 10, 25, 50, 100, 200]

    /// How wide a card's photo is shown: the grid in site.css (2 columns below 600 px, 3 below
    /// 960 px, then 4 in at most 1200 px, 16 px padding and 12 px gaps).
    static let cardSizes = "(min-width: 1200px) 283px, (min-width: 960px) calc((100vw - 68px) / 4), (min-width: 600px) calc((100vw - 56px) / 3), calc((100vw - 44px) / 2)"
    /// Cards in the first rows load at once; the rest when scrolled near.
    static let eagerCards = 4

    var html: HTML {
        let kind = switch (filter.status, filter.species) {
        case (nil, nil): "Lost and found pets"
        case (let status?, nil): status == .missing ? "Missing pets" : "Found pets"
        case (nil, let species?): "Lost and found: \(species.displayName.lowercased())s"
        case (let status?, let species?): "\(status == .missing ? "Missing" : "Found"): \(species.displayName.lowercased())s"
        }
        let cards = announcements.enumerated().map { index, details in Self.card(details, lazy: index >= Self.eagerCards) }
        let empty = near.map { "No announcements within \($0.radiusKm) km of \($0.place)\(filter == .all ? "" : " match these filters")." }
            ?? (filter == .all ? "No announcements yet." : "No announcements match these filters.")
        var heading = near.map { "\(kind) within \($0.radiusKm) km of \($0.place)" } ?? kind
        var emptyText = empty
        if let digits = chip?.digits {
            heading = "Open announcements with microchip number \(MicrochipNumber(digits).formatted)"
            emptyText = "No open announcement has this microchip number."
        }
        let list: HTML = cards.isEmpty ? "<p class=\"empty\">\(emptyText)</p>\n" : "<ul class=\"cards\">\n\(cards)</ul>\n"
        // The feed of what this page shows, for feed readers and for people.
        let feed = "/feed.atom" + URLText.query([("species", filter.species?.rawValue.lowercased()),
                                                  ("status", filter.closed ? "closed" : filter.status?.rawValue.lowercased()),
                                                  ("near_place", near?.typed), ("radius_km", near.map { String($0.radiusKm) })])
        let meta: HTML = "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"\(heading)\" href=\"\(feed)\">\n"
        let follow: HTML = "<p class=\"feed\"><a href=\"\(feed)\">Follow these in a feed reader</a> (Atom)</p>\n"
        let byEmail = near.map { AreaAlertLink(near: $0, filter: filter, availability: alerts).html } ?? .empty
        return PageLayout.document(
            title: "\(problems.isEmpty ? "" : "Error: ")\(heading) · PetSpot",
            description: "Pets reported missing or found, newest first, with photos and how to reach the person who posted them.",
            meta: meta,
            body: "\(errorSummary)<h1>\(heading)</h1>\n\(filters)\(list)\(pager)\(follow)\(byEmail)\(announcements.contains(where: PetPage.namesAPlace) ? PetPage.placesCredit : .empty)")
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
            \(box("near_place", label: "Near", value: near?.typed ?? typedNear ?? "", extra: #"placeholder="Town or district" maxlength="200""#))
            <label>Within <select name="radius_km">\(radii)</select></label>
            \(box("chip", label: "Chip number", value: chip?.typed ?? "", extra: #"inputmode="numeric" autocomplete="off" maxlength="40""#))
            <button type="submit">Show</button>
            </form>

            """
    }

    private func selected(_ yes: Bool) -> HTML { yes ? " selected" : "" }

    /// A search box with its label and, when it has a problem, the message beside it (GOV.UK's
    /// error message: between the label and the box, tied to the box by `aria-describedby`).
    private func box(_ name: String, label: String, value: String, extra: HTML) -> HTML {
        guard let problem = problems.first(where: { $0.field == name }) else {
            return "<div class=\"field\"><label for=\"\(name)\">\(label)</label><input type=\"search\" id=\"\(name)\" name=\"\(name)\" value=\"\(value)\" \(extra)></div>"
        }
        return """
            <div class="field field-error"><label for="\(name)">\(label)</label>\
            <p class="error-message" id="\(name)-error"><span class="visually-hidden">Error:</span> \(problem.message)</p>\
            <input type="search" id="\(name)" name="\(name)" value="\(value)" \(extra) aria-describedby="\(name)-error" aria-invalid="true"></div>
            """
    }

    /// GOV.UK's error summary: first on the page, each problem a link to its box.
    private var errorSummary: HTML {
        guard !problems.isEmpty else { return .empty }
        let items = problems.map { "<li><a href=\"#\($0.field)\">\($0.message)</a></li>" as HTML }
        return """
            <div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
            <h2 id="error-summary-title">There is a problem</h2>
            <ul>\(items)</ul>
            </div>

            """
    }

    private var radii: HTML {
        let chosen = near?.radiusKm ?? 10
        return HTML(joining: Self.radii.map { km in "<option value=\"\(km)\"\(selected(km == chosen))>\(km) km</option>" as HTML })
    }

    private var pager: HTML {
        let species = filter.species?.rawValue.lowercased(), status = filter.status?.rawValue.lowercased()
        let base: [(String, String?)] = [("species", species), ("status", status), ("near_place", near?.typed),
                                         ("radius_km", near.map { String($0.radiusKm) }), ("chip", chip?.digits)]
        var links: [HTML] = []
        if isLaterPage { links.append("<a href=\"/\(URLText.query(base))\">\(near == nil ? "Newest" : "Nearest")</a>") }
        if let next {
            links.append("<a href=\"/\(URLText.query(base + [("cursor", next)]))\" rel=\"next\">\(near == nil ? "Older announcements" : "Farther away")</a>")
        }
        return links.isEmpty ? .empty : "<nav class=\"pager\" aria-label=\"Pages\">\(links)</nav>\n"
    }

    static func card(_ details: PetDetails, lazy: Bool) -> HTML {
        let shown = PetDetailsPresentation(details)
        let picture = PhotoPicture(variants: details.photoVariants, photoURL: details.photoUrl, alt: PetPage.altText(details),
                                   sizes: cardSizes, lazy: lazy)
        let place = details.distanceKm.map { km in
            "\(km < 10 ? String(format: "%.1f", km) : String(Int(km.rounded()))) km away · \(PetPage.shortPlace(details))"
        } ?? PetPage.placeText(details)
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
