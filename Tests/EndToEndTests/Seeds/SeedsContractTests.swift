import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PetSpot
import Testing

/// The seeds' app against the built `petspot-server` (on SQLite, or PostgreSQL + S3 with
/// `PETSPOT_TEST_BACKEND=postgres-s3`): what it sends is accepted as it means it, and every
/// answer decodes with its own structs.
@Suite struct SeedsContractTests {
    let decoder = JSONDecoder()

    private func create(_ body: some Encodable, on server: ServerProcess) async throws -> HTTP.Reply {
        try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath, headers: [("Content-Type", "application/json")],
                            body: .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body))))
    }

    private func details(_ id: String, on server: ServerProcess) async throws -> SeedsApp.PetDetails {
        let reply = try await HTTP.send(.GET, server.baseURL + "/api/v1/announcements/" + id)
        #expect(reply.status == 200)
        return try decoder.decode(SeedsApp.PetDetails.self, from: Data(reply.body))
    }

    @Test func theAppsOwnRequestIsCreatedAndEveryAnswerDecodesWithItsStructs() async throws {
        let data = try makeTemporaryDirectory("seeds-decode")
        let server = try ServerProcess(dataDirectory: data)
        let warsaw = TimeZone(identifier: "Europe/Warsaw")!
        // The app's request, optional fields left out (nil), as its mapping writes it.
        let bare = SeedsApp.createRequest(pickedDay: DateComponents(year: 2024, month: 12, day: 1), phoneTimeZone: warsaw,
                                          latitude: 52.2297, longitude: 21.0122)
        let reply = try await create(bare, on: server)
        #expect(reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
        let response = try decoder.decode(SeedsApp.AnnouncementResponse.self, from: Data(reply.body))
        #expect(response.lastSeenDate == "2024-12-01" && response.photoUrl == nil && response.managementPassword.count == 6)

        let shown = try await details(response.id, on: server)
        #expect(shown.petName == "Dog" && shown.description == "" && shown.location == "52.2297, 21.0122")
        #expect(shown.status == "ACTIVE" && shown.gender == "MALE" && shown.lastSeenDate == "2024-12-01")
        #expect(shown.phone == "+48123456789" && shown.email == "owner@example.com" && shown.approximateAge == nil)

        // Every optional field, a found report with a name and an age, and a photo.
        let full = #"{"species":"CAT","sex":"FEMALE","last_seen_date":"2024-11-20","location_latitude":35.6762,"#
            + #""location_longitude":139.6503,"email":"finder@example.org","phone":"090 1234 5678","status":"FOUND","#
            + #""microchip_number":"392141000123456","description":"Grey tabby, shy","reward":"Thanks!","breed":"Mixed","#
            + #""approximate_age":3,"pet_name":"Mochi"}"#
        let fullReply = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath,
                                            headers: [("Content-Type", "application/json")], body: .bytes(ByteBuffer(string: full)))
        #expect(fullReply.status == 201)
        let fullCreated = try decoder.decode(SeedsApp.AnnouncementResponse.self, from: Data(fullReply.body))
        let ours = try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(fullReply.body))
        let upload = try await HTTP.upload(try TestImages.bytes("sample-photo.jpg"), base: server.baseURL, to: ours)
        #expect(upload.status == 201)
        let fullShown = try await details(fullCreated.id, on: server)
        #expect(fullShown.petName == "Mochi" && fullShown.status == "FOUND" && fullShown.approximateAge == "3")
        #expect(fullShown.breed == "Mixed" && fullShown.microchipNumber == "392141000123456" && fullShown.reward == "Thanks!")
        #expect(fullShown.description == "Grey tabby, shy" && fullShown.location == "35.6762, 139.6503")
        #expect(fullShown.photoUrl?.hasPrefix(server.baseURL + "/photos/") == true)

        // The list's items decode with the same struct.
        let list = try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.collectionPath)
        struct Page: Decodable { let data: [SeedsApp.PetDetails] }
        let page = try decoder.decode(Page.self, from: Data(list.body))
        #expect(Set(page.data.map(\.id)) == [response.id, fullCreated.id])

        // A closed one: phone "" (the app requires a string) and email null, alone and listed.
        let close = try await HTTP.send(.PATCH, server.baseURL + "/api/v1/announcements/" + fullCreated.id,
                                        headers: [("Content-Type", "application/merge-patch+json"), ("Authorization", ours.credentials.authorizationHeader)],
                                        body: .bytes(ByteBuffer(string: #"{"status":"CLOSED","closed_outcome":"REUNITED"}"#)))
        #expect(close.status == 200)
        let closed = try await details(fullCreated.id, on: server)
        #expect(closed.status == "CLOSED" && closed.phone == "" && closed.email == nil && closed.petName == "Mochi")
        let closedList = try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.collectionPath + "?status=closed")
        #expect(try decoder.decode(Page.self, from: Data(closedList.body)).data.map(\.id) == [fullCreated.id])
        #expect(server.stop() == 0)
    }

    /// The date picker's local midnight, as a UTC instant, is the day picked at the
    /// announcement's place: the zone from its coordinates (summer time included), not from the
    /// longitude alone and not UTC's date.
    @Test(arguments: [
        ("Europe/Warsaw", 52.2297, 21.0122, DateComponents(year: 2024, month: 12, day: 1), "2024-11-30T23:00:00Z", "2024-12-01"),
        ("Europe/Warsaw", 52.2297, 21.0122, DateComponents(year: 2024, month: 7, day: 1), "2024-06-30T22:00:00Z", "2024-07-01"),
        ("America/Los_Angeles", 34.0522, -118.2437, DateComponents(year: 2024, month: 12, day: 1), "2024-12-01T08:00:00Z", "2024-12-01"),
        ("Asia/Tokyo", 35.6762, 139.6503, DateComponents(year: 2024, month: 12, day: 1), "2024-11-30T15:00:00Z", "2024-12-01"),
        // Spain keeps Central European time at the longitude of Greenwich.
        ("Europe/Madrid", 40.4168, -3.7038, DateComponents(year: 2024, month: 12, day: 1), "2024-11-30T23:00:00Z", "2024-12-01"),
    ])
    func anInstantIsStoredAsTheDayPickedAtThePlace(zone: String, latitude: Double, longitude: Double,
                                                   picked: DateComponents, sent: String, stored: String) async throws {
        let data = try makeTemporaryDirectory("seeds-dates")
        let server = try ServerProcess(dataDirectory: data)
        let request = SeedsApp.createRequest(pickedDay: picked, phoneTimeZone: TimeZone(identifier: zone)!,
                                             latitude: latitude, longitude: longitude)
        #expect(request.lastSeenDate == sent)
        let reply = try await create(request, on: server)
        #expect(reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
        let response = try decoder.decode(SeedsApp.AnnouncementResponse.self, from: Data(reply.body))
        #expect(response.lastSeenDate == stored)
        #expect(try await details(response.id, on: server).lastSeenDate == stored)
        #expect(server.stop() == 0)
    }

    @Test func aDayThatIsStillInTheFutureThereIsRefusedAndOtherDateShapesTooByName() async throws {
        let data = try makeTemporaryDirectory("seeds-future")
        let server = try ServerProcess(dataDirectory: data)
        let tomorrow = Date().addingTimeInterval(2 * 86400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Warsaw")!
        let picked = calendar.dateComponents([.year, .month, .day], from: tomorrow)
        let future = SeedsApp.createRequest(pickedDay: picked, phoneTimeZone: calendar.timeZone, latitude: 52.2297, longitude: 21.0122)
        let refused = try await create(future, on: server)
        #expect(refused.status == 400)
        #expect(String(decoding: refused.body, as: UTF8.self).contains(#""field":"last_seen_date""#))
        for text in ["2024-13-01", "yesterday", "2024-11-30T23:00:00", "2024-11-30 23:00:00Z"] {
            let body = #"{"species":"DOG","sex":"MALE","last_seen_date":"\#(text)","location_latitude":52.2,"#
                + #""location_longitude":21.0,"email":"a@example.org","phone":"123456789","status":"MISSING"}"#
            let reply = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath,
                                            headers: [("Content-Type", "application/json")], body: .bytes(ByteBuffer(string: body)))
            #expect(reply.status == 400, "\(text)")
            #expect(String(decoding: reply.body, as: UTF8.self).contains(#""field":"last_seen_date""#), "\(text)")
        }
        #expect(server.stop() == 0)
    }

    /// The app sends `0.0, 0.0` when the person gave no location: shown as none, never as a
    /// point in the Gulf of Guinea, in the API and on the page.
    @Test func zeroZeroIsNoLocation() async throws {
        let data = try makeTemporaryDirectory("seeds-nowhere")
        let server = try ServerProcess(dataDirectory: data)
        let request = SeedsApp.createRequest(pickedDay: DateComponents(year: 2024, month: 12, day: 1),
                                             phoneTimeZone: TimeZone(identifier: "UTC")!, latitude: nil, longitude: nil)
        let reply = try await create(request, on: server)
        #expect(reply.status == 201)
        let response = try decoder.decode(SeedsApp.AnnouncementResponse.self, from: Data(reply.body))
        #expect(response.lastSeenDate == "2024-12-01")
        let shown = try await details(response.id, on: server)
        #expect(shown.location == PetDetails.noLocationText)
        let raw = try await HTTP.send(.GET, server.baseURL + "/api/v1/announcements/" + response.id)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(raw.body)) as? [String: Any])
        #expect(object["locationLatitude"] == nil && object["locationLongitude"] == nil)
        let page = String(decoding: try await HTTP.send(.GET, server.baseURL + "/pets/" + response.id).body, as: UTF8.self)
        #expect(page.contains(PetDetails.noLocationText) && !page.contains("openstreetmap") && !page.contains("Near 0"))
        #expect(server.stop() == 0)
    }
}
