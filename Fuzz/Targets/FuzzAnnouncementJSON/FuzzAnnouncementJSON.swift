import Foundation
import FuzzSupport
import PetSpot
@testable import PetSpotServer

/// The server's intake of `POST /api/v1/announcements` bodies: JSON decoding, then the form rules.
/// A refusal is a 400 with the contract's error body; an accepted request passes the rules, and
/// encoding it and taking it in again gives the same request.
func fuzzAnnouncementJSON(_ bytes: [UInt8]) -> Int32 {
    let body = Data(bytes)
    let today = LocalDate(year: 2026, month: 11, day: 24)!
    let request: CreateAnnouncementRequest
    do {
        request = try CreateRequestIntake.decode(body, today: today)
    } catch {
        Fuzz.require(error.status == .badRequest, "a refusal with \(error.status.code): \(error)")
        Fuzz.require(!error.error.message.isEmpty, "a refusal without a message")
        return 0
    }
    Fuzz.require(request.validate(today: today).isEmpty, "an accepted request breaks a form rule")
    do {
        let again = try CreateRequestIntake.decode(PetSpotJSON.encode(request), today: today)
        Fuzz.require(again == request, "the request changed across encoding and intake")
    } catch {
        Fuzz.require(false, "an accepted request, encoded, is refused: \(error)")
    }
    return 0
}

/// Seeds: both contract examples as the client encodes them.
func writeSeeds() {
    Seeds.write(["missing.json": Seeds.json(Seeds.missingRequest), "found.json": Seeds.json(Seeds.foundRequest)])
}
