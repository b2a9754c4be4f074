import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PetSpot

/// `GET`/`HEAD /feed.atom`: the 50 newest announcements the list's filters let through (`species`,
/// `status`, and `near`/`near_place` with `radius_km` as in the API), as Atom 1.0 (RFC 4287), so
/// a neighbour or a shelter can follow "missing dogs within 5 km of Mokotów" in any feed reader.
/// Each entry links to the pet's page, summarises it as the page's description does, and
/// carries the 640 px JPEG (or the photo when narrower) as its enclosure. No contact details.
struct AtomFeedRoute<Context: ClientRequestContext> {
    let services: ServerServices

    static var entries: Int { 50 }

    func register(on router: Router<Context>) {
        let feed: @Sendable (Request, Context) async throws -> Response = { request, context in
            if let wait = services.rateLimiter.take(.listPage, client: context.client, now: services.now()) {
                throw APIFailure.rateLimited("feeds", retryAfter: wait)
            }
            return try await answer(request)
        }
        router.get("/feed.atom", use: feed)
        router.head("/feed.atom") { request, context in
            let answer = try await feed(request, context)
            return Response(status: answer.status, headers: answer.headers)
        }
    }

    private func answer(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let filter = try AnnouncementFilter.parse(species: query["species"].map(String.init), status: query["status"].map(String.init))
        let announcements: [StoredAnnouncement]
        var title = Self.title(filter)
        if var near = try await NearQuery.parse(query, filter: filter, gazetteer: services.gazetteer) {
            near.search.newestFirst = true
            announcements = try await services.store.near(near.search, limit: Self.entries, after: nil).announcements.map(\.0)
            let around = near.place?.label ?? String(format: "%.4f, %.4f", near.search.latitude, near.search.longitude)
            title += " within \(Self.number(near.search.radiusKm)) km of \(around)"
        } else {
            announcements = try await services.store.page(limit: Self.entries, after: nil, matching: filter).announcements
        }
        let base = services.publicURL.current
        let details = await services.details(announcements)
        let selfURL = base + "/feed.atom" + (request.uri.query.map { "?" + $0 } ?? "")
        let pageURL = base + "/" + (request.uri.query.map { "?" + $0 } ?? "")
        let xml = Self.document(title: "PetSpot: " + title, selfURL: selfURL, pageURL: pageURL, base: base, entries: details,
                                updated: announcements.map(\.updatedAt).max() ?? Date(timeIntervalSince1970: 0))
        let bytes = ByteBuffer(string: xml)
        return Response(status: .ok, headers: [
            .contentType: "application/atom+xml; charset=utf-8",
            .cacheControl: "public, max-age=300",
            .contentLength: String(bytes.readableBytes),
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        ], body: ResponseBody(byteBuffer: bytes))
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// "missing dogs", "found pets", "lost and found cats".
    static func title(_ filter: AnnouncementFilter) -> String {
        let animals = filter.species.map { $0.displayName.lowercased() + "s" } ?? "pets"
        if filter.closed { return "closed announcements of \(animals)" }
        switch filter.status {
        case .missing?: return "missing \(animals)"
        case .found?: return "found \(animals)"
        case nil: return "lost and found \(animals)"
        }
    }

    static func document(title: String, selfURL: String, pageURL: String, base: String, entries: [PetDetails], updated: Date) -> String {
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
            <title>\(escaped(title))</title>
            <id>\(escaped(selfURL))</id>
            <link rel="self" type="application/atom+xml" href="\(escaped(selfURL))"/>
            <link rel="alternate" type="text/html" href="\(escaped(pageURL))"/>
            <updated>\(timestamp(updated))</updated>
            <author><name>PetSpot</name></author>
            <generator>PetSpot</generator>

            """
        for details in entries {
            let shown = PetDetailsPresentation(details, timeZone: TimeZone(identifier: "UTC")!)
            let page = "\(base)/pets/\(details.id.rawValue)"
            // The details' URLs are absolute already.
            let image = details.photoVariants?.first { $0.format == "jpeg" && $0.width == 640 }?.url
                ?? details.photoVariants?.first { $0.format == "jpeg" }?.url ?? details.photoUrl
            xml += """
                <entry>
                <title>\(escaped("\(shown.status): \(PetPage.title(details))"))</title>
                <id>urn:uuid:\(details.id.rawValue)</id>
                <link rel="alternate" type="text/html" href="\(escaped(page))"/>
                \(image.map { "<link rel=\"enclosure\" type=\"image/jpeg\" href=\"\(escaped($0))\"/>\n" } ?? "")<published>\(timestamp(details.createdAt))</published>
                <updated>\(timestamp(details.updatedAt))</updated>
                <summary>\(escaped(PetPage.summary(details, shown: shown)))</summary>
                </entry>

                """
        }
        return xml + "</feed>\n"
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon).timeZone(separator: .omitted))
            .replacingOccurrences(of: "+0000", with: "Z")
    }

    /// Text for XML: the five special characters as entities, and the characters XML 1.0 cannot
    /// hold (controls but tab, line feed and carriage return; lone surrogates cannot occur in a
    /// Swift string) dropped.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
