import Foundation
import FuzzSupport
import PetSpot

/// The `Authorization` header parser the server uses on photo uploads. Whatever it accepts is
/// Basic with a usable announcement id, and the credentials written back as a header parse to
/// the same credentials (the id is compared exactly, as the server compares it).
func fuzzBasicAuth(_ bytes: [UInt8]) -> Int32 {
    // Both the raw header and, so the fuzzer reaches the decoded side quickly, `Basic base64(bytes)`.
    for header in [String(decoding: bytes, as: UTF8.self), "Basic " + Data(bytes).base64EncodedString()] {
        guard let credentials = AnnouncementCredentials(authorizationHeader: header) else { continue }
        Fuzz.require(header.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("basic "), "accepted a header that is not Basic: \(header.debugDescription)")
        Fuzz.require(AnnouncementID(rawValue: credentials.id.rawValue) == credentials.id, "the id does not survive its own raw value")
        Fuzz.require(!credentials.id.rawValue.contains(":"), "an id with a colon: \(credentials.id.rawValue.debugDescription)")
        let again = AnnouncementCredentials(authorizationHeader: credentials.authorizationHeader)
        Fuzz.require(again == credentials, "credentials do not survive being written as a header")
    }
    return 0
}
