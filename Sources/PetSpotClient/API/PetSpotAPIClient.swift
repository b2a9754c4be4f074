import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PetSpot

/// The announcements API over HTTP (AsyncHTTPClient): one method per route, each answer
/// decoded with the shared JSON settings, each failure turned into a ``SubmissionError``.
///
/// Ids are used exactly as the server returned them. Call ``shutdown()`` when done.
public final class PetSpotAPIClient: Sendable {
    public let configuration: ClientConfiguration
    private let http: HTTPClient

    public init(configuration: ClientConfiguration) {
        self.configuration = configuration
        var settings = HTTPClient.Configuration()
        settings.timeout = .init(connect: .nanoseconds(configuration.connectTimeout.nanoseconds),
                                 read: .nanoseconds(configuration.readTimeout.nanoseconds))
        settings.redirectConfiguration = .disallow
        // The pool would otherwise retry a refused connection silently until the connect timeout
        // (10 s to say "No connection", async-http-client #743); our RetryPolicy is the only retry
        // layer, with its attempts, backoff and progress lines.
        settings.connectionPool.retryConnectionEstablishment = false
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: settings)
    }

    public func shutdown() async {
        try? await http.shutdown()
    }

    /// ``shutdown()`` for synchronous callers.
    public func shutdownWaiting() throws {
        try http.syncShutdown()
    }

    /// `POST /api/v1/announcements` with the Idempotency-Key.
    public func createAnnouncement(_ request: CreateAnnouncementRequest, idempotencyKey: String) async throws(SubmissionError) -> AnnouncementResponse {
        let body: Data
        do { body = try PetSpotJSON.encode(request) } catch { throw .configuration("The announcement cannot be encoded: \(error)") }
        let reply = try await send(.POST, AnnouncementsAPI.collectionPath, step: .create,
                                   headers: [("Content-Type", "application/json"), ("Idempotency-Key", idempotencyKey)],
                                   body: .bytes(ByteBuffer(bytes: body)))
        return try decode(AnnouncementResponse.self, reply, expecting: 201, step: .create)
    }

    /// `POST /api/v1/announcements/{id}/photos`: the file streamed as the multipart part `photo`.
    /// - Parameter progress: told the bytes the server has taken so far and the total.
    public func uploadPhoto(_ photo: PhotoUploadBody, credentials: AnnouncementCredentials,
                            progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }) async throws(SubmissionError) -> PhotoUploadResponse {
        let reply = try await send(.POST, AnnouncementsAPI.photosPath(id: credentials.id), step: .photo,
                                   headers: [("Content-Type", photo.contentType), ("Authorization", credentials.authorizationHeader)],
                                   body: photo.requestBody(port: serverPort, progress: progress))
        return try decode(PhotoUploadResponse.self, reply, expecting: 201, step: .photo)
    }

    /// The TCP port of the server (the URL's, else its scheme's).
    private var serverPort: Int {
        let url = URL(string: configuration.server)
        return url?.port ?? (url?.scheme == "https" ? 443 : 80)
    }

    /// `GET /api/v1/announcements/{id}`.
    public func announcement(id: AnnouncementID) async throws(SubmissionError) -> PetDetails {
        let reply = try await send(.GET, AnnouncementsAPI.announcementPath(id: id), step: .read)
        return try decode(PetDetails.self, reply, expecting: 200, step: .read)
    }

    /// `GET /api/v1/announcements/{id}` with the owner's credentials: a closed one's contact
    /// details too, and the version (`ETag`) a conditional change names.
    public func announcement(_ credentials: AnnouncementCredentials) async throws(SubmissionError) -> VersionedDetails {
        let reply = try await send(.GET, AnnouncementsAPI.announcementPath(id: credentials.id), step: .change,
                                   headers: [("Authorization", credentials.authorizationHeader)])
        return VersionedDetails(details: try decode(PetDetails.self, reply, expecting: 200, step: .change),
                                etag: reply.headers.first(name: "ETag"))
    }

    /// `PATCH /api/v1/announcements/{id}`: a merge patch, conditional on `ifMatch` when given.
    public func update(_ patch: AnnouncementPatchRequest, credentials: AnnouncementCredentials,
                       ifMatch: String? = nil) async throws(SubmissionError) -> VersionedDetails {
        let body: Data
        do { body = try PetSpotJSON.encode(patch) } catch { throw .configuration("The change cannot be encoded: \(error)") }
        var headers = [("Content-Type", "application/merge-patch+json"), ("Authorization", credentials.authorizationHeader)]
        if let ifMatch { headers.append(("If-Match", ifMatch)) }
        let reply = try await send(.PATCH, AnnouncementsAPI.announcementPath(id: credentials.id), step: .change,
                                   headers: headers, body: .bytes(ByteBuffer(bytes: body)))
        return VersionedDetails(details: try decode(PetDetails.self, reply, expecting: 200, step: .change),
                                etag: reply.headers.first(name: "ETag"))
    }

    /// `DELETE /api/v1/announcements/{id}/photo`.
    public func removePhoto(_ credentials: AnnouncementCredentials) async throws(SubmissionError) {
        let reply = try await send(.DELETE, AnnouncementsAPI.announcementPath(id: credentials.id) + "/photo", step: .change,
                                   headers: [("Authorization", credentials.authorizationHeader)])
        try expectNoContent(reply)
    }

    /// `DELETE /api/v1/announcements/{id}`: taken down for good.
    public func takeDown(_ credentials: AnnouncementCredentials) async throws(SubmissionError) {
        let reply = try await send(.DELETE, AnnouncementsAPI.announcementPath(id: credentials.id), step: .change,
                                   headers: [("Authorization", credentials.authorizationHeader)])
        try expectNoContent(reply)
    }

    private func expectNoContent(_ reply: Reply) throws(SubmissionError) {
        guard reply.status == 204 else {
            let error = try? PetSpotJSON.decode(APIErrorBody.self, from: Data(reply.body.readableBytesView)).error
            throw .http(status: reply.status, error: error, step: .change,
                        retryAfter: reply.headers.first(name: "Retry-After").flatMap { RetryAfter.seconds($0) })
        }
    }

    /// `GET /api/v1/announcements/{id}/matches`.
    public func matches(of id: AnnouncementID) async throws(SubmissionError) -> [PossibleMatch] {
        let reply = try await send(.GET, AnnouncementsAPI.announcementPath(id: id) + "/matches", step: .read)
        return try decode(PossibleMatchList.self, reply, expecting: 200, step: .read).data
    }

    /// `GET /api/v1/places?q=`: the place `name` resolves to, or `nil` when the server knows none.
    public func place(named name: String) async throws(SubmissionError) -> ResolvedPlace? {
        if case .found(let place) = try await lookUpPlace(name) { return place }
        return nil
    }

    /// `GET /api/v1/places?q=NAME[&near=LAT,LON]`: the place `name` resolves to, ranked from
    /// `near` when given (the announcement's or the report's position), or the close spellings
    /// the server offers for a name it does not know.
    public func lookUpPlace(_ name: String, near: (latitude: Double, longitude: Double)? = nil) async throws(SubmissionError) -> PlaceLookup {
        let reply = try await send(.GET, Self.placePath(name, near: near), step: .read)
        return try Self.placeLookup(status: reply.status, retryAfter: reply.headers.first(name: "Retry-After"),
                                    body: Data(reply.body.readableBytesView))
    }

    /// ``lookUpPlace(_:near:)`` for synchronous callers (the report's questions): waits on the
    /// client's own event loop, never on Swift's cooperative threads.
    public func lookUpPlaceWaiting(_ name: String, near: (latitude: Double, longitude: Double)? = nil) throws(SubmissionError) -> PlaceLookup {
        let response: HTTPClient.Response
        do {
            var request = try HTTPClient.Request(url: configuration.server + Self.placePath(name, near: near), method: .GET)
            request.headers.add(name: "User-Agent", value: configuration.userAgent)
            request.headers.add(name: "Accept", value: "application/json")
            response = try http.execute(request: request, deadline: .now() + .seconds(20)).wait()
        } catch {
            throw TransportErrors.classify(error, server: configuration.server)
        }
        return try Self.placeLookup(status: Int(response.status.code), retryAfter: response.headers.first(name: "Retry-After"),
                                    body: response.body.map { Data($0.readableBytesView) } ?? Data())
    }

    static func placePath(_ name: String, near: (latitude: Double, longitude: Double)?) -> String {
        var path = "/api/v1/places?q=" + (name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        if let near { path += "&near=\(near.latitude),\(near.longitude)" }
        return path
    }

    static func placeLookup(status: Int, retryAfter: String?, body: Data) throws(SubmissionError) -> PlaceLookup {
        if status == 404 {
            let error = try? PetSpotJSON.decode(APIErrorBody.self, from: body).error
            return .unknown(closeSpellings: error?.didYouMean ?? [])
        }
        return .found(try decode(ResolvedPlace.self, status: status, retryAfter: retryAfter, body: body, expecting: 200, step: .read))
    }

    /// `GET /api/v1/announcements?limit=&cursor=`, with the search parameters (`near_place`,
    /// `radius_km`, `species`, `status`) in `search` when given.
    public func announcements(limit: Int? = nil, cursor: String? = nil,
                              search: [(name: String, value: String)] = []) async throws(SubmissionError) -> AnnouncementList {
        var query: [String] = []
        if let limit { query.append("limit=\(limit)") }
        if let cursor, let escaped = cursor.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) { query.append("cursor=\(escaped)") }
        for (name, value) in search {
            query.append("\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
        }
        let path = AnnouncementsAPI.collectionPath + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let reply = try await send(.GET, path, step: .read)
        return try decode(AnnouncementList.self, reply, expecting: 200, step: .read)
    }

    // MARK: transport

    private struct Reply {
        var status: Int
        var headers: HTTPHeaders
        var body: ByteBuffer
    }

    private func send(_ method: HTTPMethod, _ path: String, step: SubmissionError.Step, headers: [(String, String)] = [],
                      body: HTTPClientRequest.Body? = nil) async throws(SubmissionError) -> Reply {
        var request = HTTPClientRequest(url: configuration.server + path)
        request.method = method
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        request.headers.add(name: "Accept", value: "application/json")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = body }
        do {
            let response = try await http.execute(request, timeout: .hours(1))
            let bytes = try await response.body.collect(upTo: 8 << 20)
            return Reply(status: Int(response.status.code), headers: response.headers, body: bytes)
        } catch let error as SubmissionError {
            throw error
        } catch {
            throw TransportErrors.classify(error, server: configuration.server)
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ reply: Reply, expecting status: Int, step: SubmissionError.Step) throws(SubmissionError) -> T {
        try Self.decode(type, status: reply.status, retryAfter: reply.headers.first(name: "Retry-After"),
                        body: Data(reply.body.readableBytesView), expecting: status, step: step)
    }

    /// An answer's body as `type` when its status is the expected one; otherwise the `.http`
    /// error it carries (the contract's error body when it has one, and its `Retry-After`).
    /// - Throws: `.http` for another status, `.invalidResponse` for a body that is not a `type`.
    static func decode<T: Decodable>(_ type: T.Type, status: Int, retryAfter: String?, body: Data, expecting expected: Int,
                                     step: SubmissionError.Step) throws(SubmissionError) -> T {
        guard status == expected else {
            let error = try? PetSpotJSON.decode(APIErrorBody.self, from: body).error
            throw .http(status: status, error: error, step: step, retryAfter: retryAfter.flatMap { RetryAfter.seconds($0) })
        }
        do {
            return try PetSpotJSON.decode(type, from: body)
        } catch {
            throw .invalidResponse("HTTP \(status) with a body that is not a \(type): \(error)")
        }
    }
}

/// An announcement and its version, the `ETag` a conditional change names.
public struct VersionedDetails: Sendable {
    public var details: PetDetails
    public var etag: String?
}

/// `GET /api/v1/announcements`: one page and where the next starts.
public struct AnnouncementList: Codable, Sendable {
    public var data: [PetDetails]
    public var nextCursor: String?
    /// The place a search near a place's name used.
    public var near: NearPlace?

    enum CodingKeys: String, CodingKey {
        case data
        case nextCursor = "next_cursor"
        case near
    }
}

extension Duration {
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}

extension PetSpotAPIClient {
    /// What a share download is: the printable flyer or the share card.
    public enum ShareDownload: Sendable {
        /// `GET /pets/{id}/flyer.pdf?paper=a4|letter`.
        case flyer(paper: String)
        /// `GET /pets/{id}/card.jpg`.
        case card

        var suffix: String {
            switch self {
            case .flyer(let paper): "/flyer.pdf?paper=\(paper)"
            case .card: "/card.jpg"
            }
        }

        var mediaType: String {
            switch self {
            case .flyer: "application/pdf"
            case .card: "image/jpeg"
            }
        }
    }

    /// The flyer or card of announcement `id`, as the server makes it.
    public func download(_ what: ShareDownload, of id: AnnouncementID) async throws(SubmissionError) -> [UInt8] {
        var request = HTTPClientRequest(url: configuration.server + "/pets/\(id.rawValue)" + what.suffix)
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        request.headers.add(name: "Accept", value: what.mediaType)
        let status: Int, headers: HTTPHeaders, body: ByteBuffer
        do {
            let response = try await http.execute(request, timeout: .minutes(2))
            body = try await response.body.collect(upTo: 32 << 20)
            status = Int(response.status.code)
            headers = response.headers
        } catch {
            throw TransportErrors.classify(error, server: configuration.server)
        }
        guard status == 200 else {
            let error = try? PetSpotJSON.decode(APIErrorBody.self, from: Data(body.readableBytesView)).error
            throw .http(status: status, error: error, step: .read, retryAfter: headers.first(name: "Retry-After").flatMap { RetryAfter.seconds($0) })
        }
        guard headers.first(name: "Content-Type") == what.mediaType else {
            throw .invalidResponse("HTTP 200 with \(headers.first(name: "Content-Type") ?? "no Content-Type") where \(what.mediaType) was expected")
        }
        return [UInt8](buffer: body)
    }
}
