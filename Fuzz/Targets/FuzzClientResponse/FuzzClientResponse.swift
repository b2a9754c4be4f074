import Foundation
import FuzzSupport
import PetSpot
@testable import PetSpotClient

/// The client's decoding of the server's answers, as `PetSpotAPIClient` does it for every route.
/// Input: one selector byte (which answer type, which status), a `Retry-After` line, the body.
///
/// Invariants: an unexpected status is always `.http` with that status, the contract's error
/// body when the body is one, and a finite, non-negative `Retry-After`; an expected status gives
/// the value or `.invalidResponse`, and a value survives encoding and decoding again.
func fuzzClientResponse(_ bytes: [UInt8]) -> Int32 {
    guard let selector = bytes.first else { return 0 }
    let (retryAfter, rest) = Fuzz.splitLine(Array(bytes.dropFirst()))
    let body = Data(rest)
    let statuses = [400, 401, 404, 413, 415, 422, 429, 503]
    let expected = selector % 4 == 2 || selector % 4 == 3 ? 200 : 201
    let status = selector & 0x10 != 0 ? expected : statuses[Int(selector >> 5)]
    switch selector % 4 {
    case 0: check(AnnouncementResponse.self, status, retryAfter, body, expected, .create)
    case 1: check(PhotoUploadResponse.self, status, retryAfter, body, expected, .photo)
    case 2: check(PetDetails.self, status, retryAfter, body, expected, .read)
    default: check(AnnouncementList.self, status, retryAfter, body, expected, .read)
    }
    return 0
}

private func check<T: Codable>(_ type: T.Type, _ status: Int, _ retryAfter: String, _ body: Data, _ expected: Int,
                               _ step: SubmissionError.Step) {
    let value: T
    do {
        value = try PetSpotAPIClient.decode(type, status: status, retryAfter: retryAfter, body: body, expecting: expected, step: step)
    } catch {
        switch error {
        case .http(let got, let apiError, let gotStep, let wait):
            Fuzz.require(status != expected && got == status && gotStep == step, "\(error) for HTTP \(status)")
            Fuzz.require(apiError == (try? PetSpotJSON.decode(APIErrorBody.self, from: body))?.error, "the error body was misread")
            if let wait { Fuzz.require(wait.isFinite && wait >= 0, "Retry-After \(retryAfter.debugDescription) read as \(wait)") }
        case .invalidResponse:
            Fuzz.require(status == expected, "invalidResponse for an unexpected status")
        default:
            Fuzz.require(false, "decoding threw \(error)")
        }
        return
    }
    Fuzz.require(status == expected, "a value from HTTP \(status)")
    do {
        let encoded = try PetSpotJSON.encode(value)
        let again = try PetSpotJSON.decode(type, from: encoded)
        let reencoded = try PetSpotJSON.encode(again)
        Fuzz.require(reencoded == encoded, "\(type) changed across encoding and decoding")
    } catch {
        Fuzz.require(false, "a decoded \(type) cannot be encoded and decoded again: \(error)")
    }
}

/// Seeds: each answer type at its expected status, and error bodies at other statuses, as the
/// server encodes them.
func writeSeeds() {
    let id = AnnouncementID(rawValue: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")!
    let created = AnnouncementResponse(announcement: Seeds.missingRequest, id: id, managementPassword: "042917")
    let details = PetDetails(id: id, petName: "Dog", photoUrl: "http://127.0.0.1:8080/photos/ab.jpg", status: .active,
                             lastSeenDate: Seeds.missingRequest.lastSeenDate, species: .dog, gender: .male,
                             description: "Brown labrador", location: "52.2297, 21.0122",
                             phone: "+48123456789", email: "owner@example.com", microchipNumber: "123456789012345",
                             createdAt: Date(timeIntervalSince1970: 1_795_000_000), updatedAt: Date(timeIntervalSince1970: 1_795_000_100),
                             locationLatitude: 52.2297, locationLongitude: 21.0122)
    let list = AnnouncementList(data: [details], nextCursor: "eyJpZCI6MX0")
    let error = APIErrorBody(error: APIError(code: .malformedRequest, message: "email is required.", field: "email"))
    func seed(_ selector: UInt8, _ retryAfter: String, _ body: Data) -> Data { Data([selector]) + Data((retryAfter + "\n").utf8) + body }
    Seeds.write([
        "created": seed(0x10, "", Seeds.json(created)),
        "photo": seed(0x11, "", Seeds.json(PhotoUploadResponse(photoURL: "http://127.0.0.1:8080/photos/ab.jpg"))),
        "details": seed(0x12, "", Seeds.json(details)),
        "list": seed(0x13, "", Seeds.json(list)),
        "error-400": seed(0x00, "", Seeds.json(error)),
        "error-429": seed(0xC1, "120", Seeds.json(error)),
        "error-503-date": seed(0xE0, "Wed, 21 Oct 2026 07:28:00 GMT", Seeds.json(error)),
    ])
}
