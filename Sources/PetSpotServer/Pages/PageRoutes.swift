import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PetSpot

/// The public pages: `GET`/`HEAD /` (the list), `/pets/{id}` (one announcement) and the style
/// sheet and icon at `/static/site.<hash>.css`, `/static/icon.<hash>.svg`. Read through the same store protocols as the API; a
/// failure is a page that says what happened, with the API's status.
struct PageRoutes<Context: ClientRequestContext> {
    let services: ServerServices

    func register(on router: Router<Context>) {
        let list: @Sendable (Request, Context) async throws -> Response = { request, context in
            try await page(request, context: context) { try await self.list(request, context: context) }
        }
        let pet: @Sendable (Request, Context) async throws -> Response = { request, context in
            try await page(request, context: context) {
                if let wait = services.rateLimiter.take(.detail, client: context.client, now: services.now()) {
                    throw APIFailure.rateLimited("announcement reads", retryAfter: wait)
                }
                return try await self.pet(context.parameters.get("id") ?? "", request: request, logger: context.logger)
            }
        }
        let file: @Sendable (Request, Context) async throws -> Response = { _, context in
            try style(context.parameters.get("file") ?? "")
        }
        let robots: @Sendable (Request, Context) async throws -> Response = { _, _ in Self.robots }
        for (path, handler) in [("/", list), ("/pets/:id", pet), ("/static/:file", file), ("/robots.txt", robots)] {
            router.get(RouterPath(path), use: handler)
            // Link-preview bots and uptime checks ask with HEAD: the same headers, no body.
            router.head(RouterPath(path)) { request, context in
                let answer = try await handler(request, context)
                return Response(status: answer.status, headers: answer.headers)
            }
        }
    }

    /// `body`'s page, or the failure as a page.
    private func page(_ request: Request, context: Context, _ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch {
            return PageLayout.failure(APIFailure.thrown(error, request: request, context: context))
        }
    }

    private func list(_ request: Request, context: Context) async throws -> Response {
        if let wait = services.rateLimiter.take(.listPage, client: context.client, now: services.now()) {
            throw APIFailure.rateLimited("list pages", retryAfter: wait)
        }
        let query = request.uri.queryParameters
        var filter = try AnnouncementFilter.parse(species: query["species"].map(String.init), status: query["status"].map(String.init))
        // The form sends its fields empty when left blank: an empty "Near" is the plain list.
        let typed = Self.typed(query["near_place"])
        let chipTyped = Self.typed(query["chip"])
        var problems: [AnnouncementListPage.Problem] = []
        var chip: AnnouncementListPage.Chip?
        if let raw = query["chip"], ChipSearch.isTooLong(raw) {
            chip = .init(typed: String(chipTyped.prefix(ChipSearch.maxLength)))
            problems.append(.init(field: "chip", message: ChipSearch.tooLongMessage))
        } else if !chipTyped.isEmpty {
            chip = .init(typed: chipTyped)
            if let issue = FormRules.microchip(chipTyped) {
                problems.append(.init(field: "chip", message: issue.message))
            } else if !typed.isEmpty {
                problems.append(.init(field: "chip", message: "Search by chip number or by place, not both: a chip number finds its pet wherever it was reported"))
            } else {
                chip?.digits = try ChipSearch.digits(chipTyped)
                filter.closed = false
                filter.chip = chip?.digits
            }
        }
        if !typed.isEmpty, problems.isEmpty {
            if let answer = try await nearList(typed, radius: query["radius_km"].map(String.init), cursor: query["cursor"].map(String.init),
                                               filter: filter, request: request) {
                return answer
            }
            problems.append(.init(field: "near_place", message: try await unknownPlaceMessage(typed)))
        }
        var cursor: PageCursor?
        if problems.isEmpty, let token = query["cursor"], !token.isEmpty {
            guard let parsed = PageCursor(token: String(token)) else {
                throw APIFailure.malformed("This page link is broken: start again from the newest announcements.", field: "cursor")
            }
            cursor = parsed
        }
        let page = try await services.store.page(limit: AnnouncementRoutes<ServerRequestContext>.defaultPageSize, after: cursor, matching: filter)
        let announcements = await services.details(page.announcements) { "\(ServerServices.photoPathPrefix)/\($0)" }
        var list = AnnouncementListPage(announcements: announcements, filter: filter, next: page.next?.token, isLaterPage: cursor != nil,
                                        chip: chip, problems: problems)
        // What was typed stays in its box, so it can be corrected and sent again.
        if !typed.isEmpty { list.typedNear = typed }
        return PageLayout.response(list.html, status: problems.isEmpty ? .ok : .badRequest, revalidating: request)
    }

    /// A search box's value as typed: "+" is a form's space, spaces around dropped.
    private static func typed(_ value: Substring?) -> String {
        value.map { String($0).replacingOccurrences(of: "+", with: " ").trimmingCharacters(in: .whitespaces) } ?? ""
    }

    /// What the "Near" box says about a name no place has: the reason and, when a place is spelled
    /// closely, "Did you mean …?".
    private func unknownPlaceMessage(_ typed: String) async throws -> String {
        let close = typed.count <= 200 ? try await services.gazetteer?.closeSpellings(of: typed, limit: 1).first : nil
        let advice = close.map { "Did you mean \($0.label)?" } ?? "Try the town's name, or add its country: \"Paris, France\"."
        return "\"\(typed.prefix(80))\" is not a place this site knows. \(advice)"
    }

    /// The list near a place the form named, nearest first, with each card's distance; `nil` when
    /// no place has that name.
    private func nearList(_ typed: String, radius: String?, cursor token: String?, filter: AnnouncementFilter,
                          request: Request) async throws -> Response? {
        var radiusKm = Int(NearQuery.defaultRadiusKm)
        if let radius, !radius.isEmpty {
            guard let value = Int(radius), AnnouncementListPage.radii.contains(value) else {
                throw APIFailure.malformed("Choose a distance from the list.", field: "radius_km")
            }
            radiusKm = value
        }
        guard typed.count <= 200, let gazetteer = services.gazetteer, let place = try await gazetteer.resolve(typed) else {
            return nil
        }
        var cursor: NearCursor?
        if let token, !token.isEmpty {
            guard let parsed = NearCursor(token: token) else {
                throw APIFailure.malformed("This page link is broken: start again from the nearest announcements.", field: "cursor")
            }
            cursor = parsed
        }
        let search = NearSearch(latitude: place.latitude, longitude: place.longitude, radiusKm: Double(radiusKm), filter: filter)
        let page = try await services.store.near(search, limit: AnnouncementRoutes<ServerRequestContext>.defaultPageSize, after: cursor)
        var announcements = await services.details(page.announcements.map(\.0)) { "\(ServerServices.photoPathPrefix)/\($0)" }
        for index in announcements.indices { announcements[index].distanceKm = page.announcements[index].distanceKm }
        var list = AnnouncementListPage(announcements: announcements, filter: filter, next: page.next?.token, isLaterPage: cursor != nil,
                                        near: .init(typed: typed, place: place.label, radiusKm: radiusKm))
        list.alerts = services.mail == nil ? .unavailable : .available
        let html = list.html
        return PageLayout.response(html, revalidating: request)
    }

    private func pet(_ idText: String, request: Request, logger: Logger) async throws -> Response {
        var lookup = AnnouncementLookup.unknown
        if let id = AnnouncementID(rawValue: idText) { lookup = try await services.store.lookup(id: id) }
        guard case .live(let stored) = lookup else {
            if case .gone = lookup {
                throw APIFailure(status: .gone, error: .init(code: .gone, message:
                    "This announcement was taken down by the person who posted it."))
            }
            throw APIFailure(status: .notFound, error: .init(code: .notFound, message:
                "No announcement has this address. It may have been mistyped, or the link is incomplete."))
        }
        let id = stored.id
        let details = await services.details([stored]) { "\(ServerServices.photoPathPrefix)/\($0)" }[0]
        var page = PetPage(details: details, pageURL: "\(services.publicURL.current)/pets/\(id.rawValue)")
        page.mailsMatches = stored.isClosed ? nil : services.mail != nil
        let matches = try await PossibleMatches(services: services, signatures: services.signatures).matches(for: stored, logger: logger)
        let matched = await services.details(matches.map(\.announcement))
        page.matches = zip(matches, matched).map { match, shown in
            let presented = PetDetailsPresentation(shown, timeZone: TimeZone(identifier: "UTC")!)
            return PetPage.PossibleMatch(id: shown.id.rawValue, title: "\(presented.status): \(PetPage.title(shown))",
                                         when: "\(shown.isFoundReport ? "found" : "last seen") \(presented.lastSeenDate)", reasons: match.reasons)
        }
        return PageLayout.response(page.html, revalidating: request)
    }

    /// Crawlers keep off the API (every owner's listing is there, page after page); link
    /// previews and search engines may fetch the pages and their photos.
    static var robotsText: String { """
        User-agent: *
        Disallow: /api/
        Allow: /

        """
    }

    static var robots: Response {
        let bytes = ByteBuffer(string: robotsText)
        return Response(status: .ok, headers: [
            .contentType: "text/plain; charset=utf-8",
            .cacheControl: "public, max-age=86400",
            .contentLength: String(bytes.readableBytes),
        ], body: ResponseBody(byteBuffer: bytes))
    }

    /// The style sheets, the icon (and the forms' script) under their current hash; any other name is 404.
    private func style(_ file: String) throws -> Response {
        guard let (text, type) = SiteStyle.files[file] ?? FormStyle.files[file] ?? ReportScript.files[file] else {
            throw APIFailure(status: .notFound, error: .init(code: .notFound, message: "No such file."))
        }
        let bytes = ByteBuffer(string: text)
        return Response(status: .ok, headers: [
            .contentType: type,
            .cacheControl: "public, max-age=31536000, immutable",
            .eTag: "\"\(file)\"",
            .contentLength: String(bytes.readableBytes),
            .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'",
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        ], body: ResponseBody(byteBuffer: bytes))
    }
}
