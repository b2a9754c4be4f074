import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PetSpot
import Testing

/// After posting, through real HTTP against the built `petspot-server` (SQLite, or PostgreSQL +
/// S3 with `PETSPOT_TEST_BACKEND=postgres-s3`): the owner edits, closes, reopens, removes the
/// photo and takes the announcement down; strangers and wrong passwords get nothing.
@Suite struct AnnouncementLifecycleTests {
    struct Owner {
        let server: ServerProcess
        let created: AnnouncementResponse
        var url: String { server.baseURL + AnnouncementsAPI.announcementPath(id: created.id) }
        var auth: (String, String) { ("Authorization", created.credentials.authorizationHeader) }

        func patch(_ json: String, headers: [(String, String)] = [], contentType: String = "application/merge-patch+json",
                   auth: Bool = true) async throws -> HTTP.Reply {
            try await HTTP.send(.PATCH, url, headers: [("Content-Type", contentType)] + (auth ? [self.auth] : []) + headers,
                                body: .bytes(ByteBuffer(string: json)))
        }

        func get(auth: Bool = false) async throws -> (reply: HTTP.Reply, details: PetDetails?) {
            let reply = try await HTTP.send(.GET, url, headers: auth ? [self.auth] : [])
            return (reply, reply.status == 200 ? try PetSpotJSON.decode(PetDetails.self, from: Data(reply.body)) : nil)
        }
    }

    private func owner(_ label: String, key: String? = nil) async throws -> (Owner, String) {
        let data = try makeTemporaryDirectory(label)
        let server = try ServerProcess(dataDirectory: data)
        var headers = [("Content-Type", "application/json")]
        if let key { headers.append(("Idempotency-Key", key)) }
        let reply = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath, headers: headers,
                                        body: .bytes(ByteBuffer(string: HTTP.announcementJSON)))
        #expect(reply.status == 201)
        return (Owner(server: server, created: try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(reply.body))), data)
    }

    private static func text(_ reply: HTTP.Reply) -> String { String(decoding: reply.body, as: UTF8.self) }

    @Test func theOwnerEditsFieldsUnderTheCreateRulesAndStrangersCannot() async throws {
        let (owner, _) = try await owner("life-edit")
        // Without credentials, with a wrong password, with another id's: 401; an unknown id: 404.
        #expect(try await owner.patch(#"{"description":"x"}"#, auth: false).status == 401)
        let wrong = AnnouncementCredentials(id: owner.created.id, managementPassword: owner.created.managementPassword == "000000" ? "111111" : "000000")
        #expect(try await owner.patch(#"{"description":"x"}"#, headers: [("Authorization", wrong.authorizationHeader)], auth: false).status == 401)
        // Credentials that name another id are 401 whatever else holds; an unknown id named by its own is 404.
        let unknownID = "0b1c2d3e-0000-4000-8000-000000000000"
        let elsewhere = try await HTTP.send(.PATCH, owner.server.baseURL + "/api/v1/announcements/" + unknownID,
                                            headers: [("Content-Type", "application/json"), owner.auth], body: .bytes(ByteBuffer(string: "{}")))
        #expect(elsewhere.status == 401)
        let guessed = AnnouncementCredentials(id: AnnouncementID(rawValue: unknownID)!, managementPassword: "123456")
        let unknown = try await HTTP.send(.PATCH, owner.server.baseURL + "/api/v1/announcements/" + unknownID,
                                          headers: [("Content-Type", "application/json"), ("Authorization", guessed.authorizationHeader)],
                                          body: .bytes(ByteBuffer(string: "{}")))
        #expect(unknown.status == 404)

        let before = try await owner.get()
        // The wire's times are whole seconds: an edit in the second the report was made shows the same time.
        let editedFrom = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let edited = try await owner.patch(#"{"description":"Black cat, white paws","phone":"020 7946 0958","reward":null,"pet_name":"Kitty"}"#)
        #expect(edited.status == 200, "\(Self.text(edited))")
        let details = try PetSpotJSON.decode(PetDetails.self, from: Data(edited.body))
        #expect(details.description == "Black cat, white paws" && details.petName == "Kitty" && details.reward == nil)
        #expect(details.phone == "02079460958", "stored in its normal form")
        let after = try await owner.get()
        #expect(after.details?.description == "Black cat, white paws" && after.details?.reward == nil)
        #expect(after.details!.updatedAt >= editedFrom && after.details!.updatedAt >= before.details!.updatedAt)
        #expect(after.reply.headers["ETag"].first != before.reply.headers["ETag"].first)

        // The create rules and messages; null for a required field; unknown fields; the media type.
        let refused: [(String, String)] = [
            (#"{"email":"not-an-email"}"#, "email"), (#"{"phone":null}"#, "phone"), (#"{"approximate_age":41}"#, "approximate_age"),
            (#"{"last_seen_date":"2999-01-01"}"#, "last_seen_date"), (#"{"location_latitude":91}"#, "location_latitude"),
            (#"{"id":"other"}"#, "id"), (#"{"management_password":"123456"}"#, "management_password"),
            (#"{"status":"MISSING"}"#, "status"), (#"{"status":"CLOSED"}"#, "closed_outcome"),
            (#"{"closed_outcome":"REUNITED"}"#, "closed_outcome"),
        ]
        for (body, field) in refused {
            let reply = try await owner.patch(body)
            #expect(reply.status == 400, "\(body) → \(reply.status)")
            #expect(Self.text(reply).contains(#""field":"\#(field)""#), "\(body) → \(Self.text(reply))")
        }
        #expect(try await owner.patch("[1]").status == 400)
        #expect(try await owner.patch("{", contentType: "application/json").status == 400)
        #expect(try await owner.patch(#"{"description":"x"}"#, contentType: "text/plain").status == 415)
        #expect(try await owner.get().details?.description == "Black cat, white paws")
        #expect(owner.server.stop() == 0)
    }

    @Test func everyChangeGetsANewETagAndIfMatchRefusesAStaleOne() async throws {
        let (owner, _) = try await owner("life-etag")
        let first = try #require(try await owner.get().reply.headers["ETag"].first)
        let one = try await owner.patch(#"{"description":"one"}"#, headers: [("If-Match", first)])
        #expect(one.status == 200)
        let second = try #require(one.headers["ETag"].first)
        // Two changes within the same second still differ.
        let two = try await owner.patch(#"{"description":"two"}"#, headers: [("If-Match", second)])
        let third = try #require(two.headers["ETag"].first)
        #expect(Set([first, second, third]).count == 3)
        // The other device's edit, based on what it read first: 412, nothing overwritten.
        let stale = try await owner.patch(#"{"description":"stale"}"#, headers: [("If-Match", first)])
        #expect(stale.status == 412, "\(Self.text(stale))")
        #expect(try await owner.get().details?.description == "two")
        #expect(try await owner.patch(#"{"description":"any"}"#, headers: [("If-Match", "*")]).status == 200)
        // A patch the rules refuse is 400 whatever version it names.
        #expect(try await owner.patch(#"{"closed_outcome":"AAA"}"#, headers: [("If-Match", first)]).status == 400)
        #expect(owner.server.stop() == 0)
    }

    @Test func closingHidesTheContactsAndTheListingsAndReopeningBringsThemBack() async throws {
        let (owner, _) = try await owner("life-close")
        let base = owner.server.baseURL
        let closed = try await owner.patch(#"{"status":"closed","closed_outcome":"reunited"}"#)
        #expect(closed.status == 200, "\(Self.text(closed))")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(closed.body)) as? [String: Any])
        #expect(object["status"] as? String == "CLOSED" && object["closedOutcome"] as? String == "REUNITED")
        #expect(object["reportKind"] as? String == "FOUND" && object["closedAt"] is String)

        // Strangers: phone "" and email null, in the details and everywhere else.
        let public_ = try await owner.get()
        #expect(public_.details?.phone == "" && public_.details?.email == nil && public_.details?.status == .closed)
        let raw = try #require(try JSONSerialization.jsonObject(with: Data(public_.reply.body)) as? [String: Any])
        #expect(raw["email"] is NSNull)
        #expect(try await owner.get(auth: true).details?.phone == "0412345678")
        let listed = Self.text(try await HTTP.send(.GET, base + AnnouncementsAPI.collectionPath))
        #expect(!listed.contains(owner.created.id.rawValue))
        let closedList = Self.text(try await HTTP.send(.GET, base + AnnouncementsAPI.collectionPath + "?status=closed"))
        #expect(closedList.contains(owner.created.id.rawValue) && !closedList.contains("0412345678"))
        let page = Self.text(try await HTTP.send(.GET, base + "/pets/" + owner.created.id.rawValue))
        #expect(page.contains("Reunited") && !page.contains("0412345678") && !page.contains("finder@example.org"))
        let home = Self.text(try await HTTP.send(.GET, base + "/"))
        #expect(!home.contains(owner.created.id.rawValue))

        // It reopens as what it was filed as, never as the other kind.
        #expect(try await owner.patch(#"{"status":"MISSING"}"#).status == 400)
        let reopened = try await owner.patch(#"{"status":"found"}"#)
        #expect(reopened.status == 200)
        let open = try await owner.get()
        #expect(open.details?.status == .found && open.details?.phone == "0412345678" && open.details?.closedOutcome == nil)
        #expect(Self.text(try await HTTP.send(.GET, base + AnnouncementsAPI.collectionPath)).contains(owner.created.id.rawValue))
        #expect(owner.server.stop() == 0)
    }

    @Test func theOwnerRemovesThePhotoAndItsSizes() async throws {
        let (owner, data) = try await owner("life-photo")
        let upload = try await HTTP.upload(try TestImages.bytes("sample-photo.jpg"), base: owner.server.baseURL, to: owner.created)
        #expect(upload.status == 201)
        let details = try #require(try await owner.get().details)
        let photoURL = try #require(details.photoUrl)
        let variant = try #require(details.photoVariants?.first?.url)
        #expect(try await HTTP.send(.GET, variant).status == 200)
        #expect(try await HTTP.send(.DELETE, owner.url + "/photo").status == 401)
        let removed = try await HTTP.send(.DELETE, owner.url + "/photo", headers: [owner.auth])
        #expect(removed.status == 204 && removed.headers["ETag"].first != nil)
        #expect(try await owner.get().details?.photoUrl == nil)
        #expect(try await HTTP.send(.GET, photoURL).status == 404)
        #expect(try await HTTP.send(.GET, variant).status == 404)
        #expect(try await TestBackend.configured.storedPhotos(dataDirectory: data).isEmpty)
        #expect(owner.server.stop() == 0)
    }

    @Test func aTakenDownAnnouncementIsGoneAndErasedAndAReplayDoesNotBringItBack() async throws {
        let key = UUID().uuidString
        let (owner, data) = try await owner("life-delete", key: key)
        let upload = try await HTTP.upload(try TestImages.bytes("sample-photo.jpg"), base: owner.server.baseURL, to: owner.created)
        #expect(upload.status == 201)
        #expect(try await HTTP.send(.DELETE, owner.url).status == 401)
        let deleted = try await HTTP.send(.DELETE, owner.url, headers: [owner.auth])
        #expect(deleted.status == 204)
        #expect(try await owner.get().reply.status == 410)
        let page = try await HTTP.send(.GET, owner.server.baseURL + "/pets/" + owner.created.id.rawValue)
        #expect(page.status == 410 && page.headers["Content-Type"].first?.hasPrefix("text/html") == true)
        #expect(try await owner.patch(#"{"description":"back"}"#).status == 410)
        #expect(try await HTTP.send(.DELETE, owner.url, headers: [owner.auth]).status == 410)
        // Without credentials it is 401 even now: nothing tells a stranger what became of it.
        #expect(try await HTTP.send(.DELETE, owner.url).status == 401)
        let replay = try await HTTP.send(.POST, owner.server.baseURL + AnnouncementsAPI.collectionPath,
                                         headers: [("Content-Type", "application/json"), ("Idempotency-Key", key)],
                                         body: .bytes(ByteBuffer(string: HTTP.announcementJSON)))
        #expect(replay.status == 410, "\(Self.text(replay))")
        #expect(!Self.text(replay).contains("0412345678"))
        #expect(Self.text(try await HTTP.send(.GET, owner.server.baseURL + AnnouncementsAPI.collectionPath)).contains(#""data":[]"#))
        // Erased from the store: no row or object holds its contact details or its photo.
        #expect(try await TestBackend.configured.storedPhotos(dataDirectory: data).isEmpty)
        #expect(owner.server.stop() == 0)
        let dump = String(decoding: try await TestBackend.configured.storeDump(dataDirectory: data), as: UTF8.self)
        #expect(!dump.isEmpty)
        #expect(!dump.contains("0412345678") && !dump.contains("finder@example.org"))
    }

    /// Changes count password attempts with uploads: past the per-address limit, 429 with
    /// Retry-After and no check, even for the right password.
    @Test func wrongPasswordsOnChangesAreThrottledLikeUploads() async throws {
        let (owner, _) = try await owner("life-throttle")
        let wrong = AnnouncementCredentials(id: owner.created.id, managementPassword: owner.created.managementPassword == "000000" ? "111111" : "000000")
        var statuses: [Int] = []
        for attempt in 0..<11 {
            let method: HTTPMethod = attempt % 2 == 0 ? .PATCH : .DELETE
            let reply = try await HTTP.send(method, owner.url, headers: [("Content-Type", "application/json"), ("Authorization", wrong.authorizationHeader)],
                                            body: .bytes(ByteBuffer(string: #"{"description":"x"}"#)))
            statuses.append(reply.status)
        }
        #expect(statuses.prefix(10).allSatisfy { $0 == 401 } && statuses.last == 429, "\(statuses)")
        let locked = try await owner.patch(#"{"description":"mine"}"#)
        #expect(locked.status == 429 && locked.headers["Retry-After"].first != nil)
        #expect(try await owner.get().details?.description != "mine")
        #expect(owner.server.stop() == 0)
    }

    /// Two announcements with the same photo: taking one down leaves the other's photo served.
    @Test func aPhotoAnotherAnnouncementHoldsStays() async throws {
        let (owner, _) = try await owner("life-shared")
        let other = try await HTTP.create(owner.server.baseURL)
        let photo = try TestImages.bytes("sample-photo.jpg")
        #expect(try await HTTP.upload(photo, base: owner.server.baseURL, to: owner.created).status == 201)
        #expect(try await HTTP.upload(photo, base: owner.server.baseURL, to: other).status == 201)
        let url = try #require(try await owner.get().details?.photoUrl)
        #expect(try await HTTP.send(.DELETE, owner.url, headers: [owner.auth]).status == 204)
        #expect(try await HTTP.send(.GET, url).status == 200)
        let theirs = try await HTTP.send(.GET, owner.server.baseURL + AnnouncementsAPI.announcementPath(id: other.id))
        #expect(try PetSpotJSON.decode(PetDetails.self, from: Data(theirs.body)).photoUrl == url)
        #expect(owner.server.stop() == 0)
    }

    @Test func robotsTxtAndUnknownPagesAreTheSitesNotJSON() async throws {
        let data = try makeTemporaryDirectory("life-robots")
        let server = try ServerProcess(dataDirectory: data)
        let robots = try await HTTP.send(.GET, server.baseURL + "/robots.txt")
        #expect(robots.status == 200 && robots.headers["Content-Type"].first?.hasPrefix("text/plain") == true)
        #expect(Self.text(robots).contains("Disallow: /api/") && Self.text(robots).contains("Allow: /"))
        for path in ["/reports", "/report/lost", "/pets", "/petz/1", "/static/nope.css"] {
            let reply = try await HTTP.send(.GET, server.baseURL + path)
            #expect(reply.status == 404, "\(path)")
            #expect(reply.headers["Content-Type"].first?.hasPrefix("text/html") == true, "\(path)")
            #expect(Self.text(reply).contains("See all announcements"), "\(path)")
        }
        let api = try await HTTP.send(.GET, server.baseURL + "/api/v1/nothing")
        #expect(api.status == 404 && api.headers["Content-Type"].first?.hasPrefix("application/json") == true)
        #expect(server.stop() == 0)
    }
}
