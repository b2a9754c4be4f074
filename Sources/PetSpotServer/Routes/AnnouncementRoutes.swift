import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PetSpot

/// `POST /api/v1/announcements` (create, idempotent with a key), `GET …/{id}`, `GET …?limit&cursor`.
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
        let keyDigest = key.map(IdempotencyVault.digest(ofKey:))
        let liveSince = now.addingTimeInterval(-services.idempotencyWindow)

        if let key, let keyDigest,
           let record = try await services.store.idempotencyRecord(keyDigest: keyDigest, notBefore: liveSince) {
            return try await replay(record, key: key, requestDigest: requestDigest)
        }

        var generator = SystemRandomNumberGenerator()
        let password = AnnouncementCredentials.makePassword(using: &generator)
        let id = AnnouncementID.random()
        let stored = StoredAnnouncement(id: id, request: announcement,
                                        passwordHash: services.keyring.seal(id: id.rawValue, password: password),
                                        createdAt: now, updatedAt: now,
                                        placeText: await services.placeText(for: announcement, logger: context.logger))
        let responseBody = try PetSpotJSON.encode(
            AnnouncementResponse(announcement: announcement, id: stored.id, managementPassword: password))
        var record: IdempotencyRecord?
        if let key, let keyDigest {
            record = IdempotencyRecord(keyDigest: keyDigest, requestDigest: requestDigest, announcementID: stored.id,
                                       sealedResponse: try IdempotencyVault.seal(responseBody, key: key, keyring: services.keyring), createdAt: now)
        }
        // A concurrent request with the same key stored first: answer as it was answered.
        // The creator's address knows the password: the per-announcement ceiling never holds it
        // (trusted in the same transaction, so a replayed create can never lack it).
        if let winner = try await services.store.insert(stored, idempotency: record, trusting: client, expiringBefore: liveSince),
           let key {
            return try await replay(winner, key: key, requestDigest: requestDigest)
        }
        return created(responseBody, id: stored.id, replayed: false)
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
        var cursor: PageCursor?
        // An empty cursor is no cursor: the first page.
        if let token = query["cursor"], !token.isEmpty {
            guard let parsed = PageCursor(token: String(token)) else {
                throw APIFailure.malformed("cursor must be a next_cursor value from an earlier page.", field: "cursor")
            }
            cursor = parsed
        }
        let filter = try AnnouncementFilter.parse(species: query["species"].map(String.init), status: query["status"].map(String.init))
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
}
