import Foundation
import PetSpot

/// The area a subscription follows, as the list's search near a place names it: what was typed,
/// the place it resolved to, a radius from the list's, a species and missing or found.
struct AlertArea: Sendable {
    var typed: String
    var place: ResolvedPlace
    var radiusKm: Int
    var filter: AnnouncementFilter

    /// The area of a list's query or a form's fields; 400 (naming the field) for a place this
    /// server does not know, a radius the list does not offer, or a filter that is not one.
    static func read(_ value: (String) -> String?, gazetteer: Gazetteer?) async throws -> AlertArea {
        let filter = try AnnouncementFilter.parse(species: value("species"), status: value("status"))
        guard !filter.closed else { throw APIFailure.malformed("Alerts are for open reports: choose missing, found or both.", field: "status") }
        let typed = (value("near_place") ?? "").replacingOccurrences(of: "+", with: " ").trimmingCharacters(in: .whitespaces)
        var radiusKm = Int(NearQuery.defaultRadiusKm)
        if let radius = value("radius_km"), !radius.isEmpty {
            guard let km = Int(radius), AnnouncementListPage.radii.contains(km) else {
                throw APIFailure.malformed("Choose a distance from the list.", field: "radius_km")
            }
            radiusKm = km
        }
        guard !typed.isEmpty, typed.count <= 200, let gazetteer, let place = try await gazetteer.resolve(typed) else {
            throw APIFailure.malformed("Alerts follow a place this site knows: search near a town or district on the list first.", field: "near_place")
        }
        return AlertArea(typed: typed, place: place, radiusKm: radiusKm, filter: filter)
    }

    /// The list's query of this area (`?near_place=…&radius_km=…`).
    var query: String {
        URLText.query([("near_place", typed), ("radius_km", String(radiusKm)), ("species", filter.species?.rawValue.lowercased()),
                       ("status", filter.status?.rawValue.lowercased())])
    }

    /// The hidden fields that carry the area through the form.
    var hiddenFields: HTML {
        HTML(joining: [("near_place", typed), ("radius_km", String(radiusKm)), ("species", filter.species?.rawValue.lowercased() ?? ""),
                       ("status", filter.status?.rawValue.lowercased() ?? "")].map { FormHTML.hidden($0.0, $0.1) })
    }

    /// A new, unconfirmed subscription of `email` to this area.
    func subscription(email: String, cadence: AlertSubscription.Cadence, now: Date) -> AlertSubscription {
        AlertSubscription(email: email, latitude: place.latitude, longitude: place.longitude, radiusKm: Double(radiusKm),
                          place: place.label, species: filter.species, status: filter.status, cadence: cadence, createdAt: now)
    }
}

/// On the list's search near a place: a link to follow the area by email, or, when the server
/// sends no mail, a line saying that alerts need it.
struct AreaAlertLink {
    enum Availability: Sendable { case available, unavailable }

    let near: AnnouncementListPage.Near
    let filter: AnnouncementFilter
    let availability: Availability

    var html: HTML {
        switch availability {
        case .available:
            let query = URLText.query([("near_place", near.typed), ("radius_km", String(near.radiusKm)),
                                       ("species", filter.species?.rawValue.lowercased()), ("status", filter.status?.rawValue.lowercased())])
            return "<p class=\"alerts\"><a href=\"\(AreaAlertForm.newPath)\(query)\">Get an email when a pet is reported here</a></p>\n"
        case .unavailable:
            return "<p class=\"alerts\">Email alerts for an area need this site to send email, which it is not set up to do.</p>\n"
        }
    }
}
