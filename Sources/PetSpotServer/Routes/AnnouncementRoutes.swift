import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PetSpot

/// `POST /api/v1/announcements` (create, idempotent with a key), `GET …/{id}`, `GET …?limit&cursor`
/// (with `chip=` the open announcements with that microchip number).
struct AnnouncementRoutes<Context: ClientRequestContext & ContinueRequestContext> {
    let services: ServerServices

    static var idempotencyKeyHeader: HTTPField.Name { HTTPField.Name("Idempotency-Key")! }

    func register(on router: Router<Context>) {
        router.post("/api/v1/announcements") { request, context in try await create(request, context: context) }
        router.get("/api/v1/announcements") { request, context in try await list(request, context: context) }
        router.get("/api/v1/announcements/:id") { request, context in
            try await show(request, idText: context.parameters.get("id") ?? "", context: context)
        }
    }

    // MARK: create

    private func create(_ request: Request, context: Context) async throws -> Response {
        // Only a JSON body: a form post or text/plain from another site's page (which a
        // browser sends without asking) is refused, so no page can create announcements
        // in a visitor's name.
        guard HeaderParameters(request.headers[.contentType] ?? "").value == "application/json" else {
            throw APIFailure.unsupportedRequestType(request.headers[.contentType])
        }
        let client = context.client
        if let wait = services.rateLimiter.take(.create, client: client, now: services.now()) {
            throw APIFailure.rateLimited("new announcements", retryAfter: wait)
        }
        let key = request.headers[Self.idempotencyKeyHeader]
        if let key, !IdempotencyVault.isValidKey(key) {
            throw APIFailure.malformed("The Idempotency-Key header must be 1 to 255 visible ASCII characters, e.g. a UUID.")
        }
        let body = try await request.smallBody(upTo: CreateRequestIntake.maximumBodyBytes, what: "announcement body", context: context)
        let now = services.now()
        let announcement = try CreateRequestIntake.decode(Data(buffer: body), today: .latestToday(now: now))
        let requestDigest = IdempotencyVault.digest(ofRequest: try PetSpotJSON.encode(announcement))
        let creation = AnnouncementCreation(services: services)
        if let key, let record = try await creation.existing(key: key, now: now) {
            return try await replay(record, key: key, requestDigest: requestDigest)
        }
        switch try await creation.create(announcement, key: key, requestDigest: requestDigest, client: client, now: now, logger: context.logger) {
        case .created(let id, let response):
            return created(response, id: id, replayed: false)
        case .existing(let winner):
            // A concurrent request with the same key stored first: answer as it was answered.
            return try await replay(winner, key: key ?? "", requestDigest: requestDigest)
        }
    }

    /// The first response again for the same key and body; 422 for the same key and another
    /// body; 410 when the announcement was taken down since (its sealed answer was erased with it).
    private func replay(_ record: IdempotencyRecord, key: String, requestDigest: String) async throws -> Response {
        // Taken down first: its record's request digest was erased with it.
        if case .gone = try await services.store.lookup(id: record.announcementID) { throw APIFailure.gone }
        guard record.requestDigest == requestDigest else { throw APIFailure.idempotencyKeyReused }
        return created(try IdempotencyVault.open(record.sealedResponse, key: key, keyring: services.keyring), id: record.announcementID, replayed: true)
    }

    private func created(_ body: Data, id: AnnouncementID, replayed: Bool) -> Response {
        var headers: HTTPFields = [
            .contentType: "application/json; charset=utf-8",
            .location: AnnouncementsAPI.announcementPath(id: id),
            .cacheControl: "no-store",
        ]
        if replayed { headers[HTTPField.Name("Idempotent-Replayed")!] = "true" }
        return Response(status: .created, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    // MARK: read

    /// 404 unknown, 410 taken down; with the owner's credentials (checked, throttled) a closed
    /// one shows its contact details. Every answer carries the revision's ETag.
    private func show(_ request: Request, idText: String, context: Context) async throws -> Response {
        if let wait = services.rateLimiter.take(.detail, client: context.client, now: services.now()) {
            throw APIFailure.rateLimited("announcement reads", retryAfter: wait)
        }
        let owner = OwnerCheck(services: services)
        let stored = try await owner.live(idText)
        let isOwner = OwnerCheck.carriesCredentials(request)
        if isOwner { try await owner.authorize(request, for: stored, context: context) }
        return try JSONResponse.make(status: .ok, body: await services.details([stored], showContact: isOwner)[0],
                                     headers: [.eTag: AnnouncementETag.value(stored, ownerView: isOwner)])
    }

    static var defaultPageSize: Int { 20 }
    static var maximumPageSize: Int { 100 }

    private func list(_ request: Request, context: Context) async throws -> Response {
        let client = context.client
        if let wait = services.rateLimiter.take(.listPage, client: client, now: services.now()) {
            throw APIFailure.rateLimited("list pages", retryAfter: wait)
        }
        let query = request.uri.queryParameters
        var limit = Self.defaultPageSize
        if let text = query["limit"] {
            guard let value = Int(text), (1...Self.maximumPageSize).contains(value) else {
                throw APIFailure.malformed("limit must be a whole number from 1 to \(Self.maximumPageSize).", field: "limit")
            }
            limit = value
        }
        let filter = try AnnouncementFilter.parse(species: query["species"].map(String.init), status: query["status"].map(String.init),
                                                  chip: query["chip"].map(String.init))
        if filter.chip != nil, query["near"] != nil || query["near_place"] != nil {
            throw APIFailure.malformed("chip finds a pet wherever it was reported: leave out near and near_place.", field: "chip")
        }
        if let search = try await NearQuery.parse(query, filter: filter, gazetteer: services.gazetteer) {
            return try await listNear(search, limit: limit, cursor: query["cursor"].map(String.init))
        }
        var cursor: PageCursor?
        // An empty cursor is no cursor: the first page.
        if let token = query["cursor"], !token.isEmpty {
            guard let parsed = PageCursor(token: String(token)) else {
                throw APIFailure.malformed("cursor must be a next_cursor value from an earlier page.", field: "cursor")
            }
            cursor = parsed
        }
        let page = try await services.store.page(limit: limit, after: cursor, matching: filter)
        // No contact details in a list: one announcement's page gives them to the person reading it,
        // a list would give every owner's to a scraper (phone "" and email null keep the seeds'
        // PetDetails decoding each item).
        let items = await services.details(page.announcements).map { item in
            var listed = item
            listed.phone = ""
            listed.email = nil
            return listed
        }
        let body = AnnouncementListBody(data: items, nextCursor: page.next?.token)
        return try JSONResponse.make(status: .ok, body: body)
    }

    /// A list searched near a point: nearest first, each item with `distanceKm`, paged by a
    /// cursor of its own; `near` says which place a `near_place` resolved to.
    private func listNear(_ search: NearQuery, limit: Int, cursor token: String?) async throws -> Response {
        var cursor: NearCursor?
        if let token, !token.isEmpty {
            guard let parsed = NearCursor(token: token) else {
                throw APIFailure.malformed("cursor must be a next_cursor value from an earlier page of this search.", field: "cursor")
            }
            cursor = parsed
        }
        let page = try await services.store.near(search.search, limit: limit, after: cursor)
        let details = await services.details(page.announcements.map(\.0))
        let items = zip(details, page.announcements).map { item, found in
            var listed = item
            listed.phone = ""
            listed.email = nil
            listed.distanceKm = (found.distanceKm * 100).rounded() / 100
            return listed
        }
        let near = search.place.map { NearPlace(place: $0.label, latitude: $0.latitude, longitude: $0.longitude) }
        return try JSONResponse.make(status: .ok, body: AnnouncementListBody(data: items, nextCursor: page.next?.token, near: near))
    }
}

/// The search-near parameters of a list: `near=LAT,LON` or `near_place=NAME`, `radius_km`
/// (1–200, default 10) and `since=YYYY-MM-DD` (the last-seen date, on or after).
struct NearQuery: Sendable {
    var search: NearSearch
    /// The place `near_place` resolved to.
    var place: ResolvedPlace?

    static let defaultRadiusKm = 10.0
    static let radiusRange = 1.0...200.0

    /// `LAT,LON` in decimal degrees within range, or `nil`.
    static func point(_ text: String) -> (latitude: Double, longitude: Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let latitude = parts[0], let longitude = parts[1], latitude.isFinite, longitude.isFinite,
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        return (latitude, longitude)
    }

    /// `nil` when the query asks for no search near a point; 400 naming the parameter for a
    /// value that cannot be one, an unknown place, or `radius_km`/`since` without a point.
    static func parse(_ query: Hummingbird.Parameters, filter: AnnouncementFilter, gazetteer: Gazetteer?) async throws -> NearQuery? {
        // Present means given: an empty value is refused below as any other value that is not one.
        let near = query["near"].map(String.init)
        let nearPlace = query["near_place"].map { String($0).replacingOccurrences(of: "+", with: " ").trimmingCharacters(in: .whitespaces) }
        let radiusText = query["radius_km"].map(String.init)
        let sinceText = query["since"].map(String.init)
        guard near != nil || nearPlace != nil else {
            if radiusText != nil { throw APIFailure.malformed("radius_km needs near=LAT,LON or near_place=NAME.", field: "radius_km") }
            if sinceText != nil { throw APIFailure.malformed("since needs near=LAT,LON or near_place=NAME.", field: "since") }
            return nil
        }
        if near != nil && nearPlace != nil {
            throw APIFailure.malformed("Give near=LAT,LON or near_place=NAME, not both.", field: "near_place")
        }
        var radius = defaultRadiusKm
        if let radiusText {
            guard let value = Double(radiusText), value.isFinite, radiusRange.contains(value) else {
                throw APIFailure.malformed("radius_km must be a number of kilometres from 1 to 200 (got \"\(radiusText.prefix(20))\").", field: "radius_km")
            }
            radius = value
        }
        var since: LocalDate?
        if let sinceText {
            guard let date = LocalDate(sinceText) else {
                throw APIFailure.malformed("since must be a date, YYYY-MM-DD (got \"\(sinceText.prefix(20))\").", field: "since")
            }
            since = date
        }
        if let near {
            guard let (latitude, longitude) = point(near) else {
                throw APIFailure.malformed("near must be LATITUDE,LONGITUDE in decimal degrees, -90…90 and -180…180 (got \"\(near.prefix(40))\").", field: "near")
            }
            return NearQuery(search: NearSearch(latitude: latitude, longitude: longitude, radiusKm: radius, filter: filter, since: since))
        }
        let name = nearPlace!
        guard !name.isEmpty, name.count <= 200, let gazetteer, let place = try await gazetteer.resolve(name) else {
            throw APIFailure.malformed("near_place \"\(name.prefix(80))\" is not a place this server knows; try the town's name with its country (\"Paris, France\"), or near=LAT,LON.", field: "near_place")
        }
        return NearQuery(search: NearSearch(latitude: place.latitude, longitude: place.longitude, radiusKm: radius, filter: filter, since: since),
                         place: place)
    }
}
