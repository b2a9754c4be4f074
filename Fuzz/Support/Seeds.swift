import Foundation
import PetSpot

/// Seeds made by the real encoders at start-up, so they always follow the current formats and
/// nothing is committed: `scripts/fuzz.sh` names a folder in `PETSPOT_FUZZ_SEEDS`, and each
/// harness's `LLVMFuzzerInitialize` writes its seeds there before libFuzzer reads it.
public enum Seeds {
    /// Writes `files` (name → bytes) into the seeds folder, when one is named.
    public static func write(_ files: [String: Data]) {
        guard let folder = ProcessInfo.processInfo.environment["PETSPOT_FUZZ_SEEDS"], !folder.isEmpty else { return }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, data) in files {
            _ = FileManager.default.createFile(atPath: "\(folder)/\(name)", contents: data)
        }
    }

    /// A complete, valid missing-pet request (the contract's example).
    public static let missingRequest = CreateAnnouncementRequest(
        species: .dog, sex: .male, lastSeenDate: LocalDate(year: 2026, month: 11, day: 20)!,
        locationLatitude: 52.2297, locationLongitude: 21.0122,
        email: "owner@example.com", phone: "+48123456789", status: .missing,
        microchipNumber: "123456789012345", description: "Brown labrador, red collar", reward: "100 PLN")

    /// A found-pet request with only the required fields.
    public static let foundRequest = CreateAnnouncementRequest(
        species: .cat, sex: .unknown, lastSeenDate: LocalDate(year: 2026, month: 11, day: 24)!,
        locationLatitude: -33.8688, locationLongitude: 151.2093,
        email: "finder@example.org", phone: "+61 2 9999 0000", status: .found,
        microchipNumber: nil, description: nil, reward: nil)

    /// The encoding of `value` with the shared JSON settings.
    public static func json(_ value: some Encodable) -> Data {
        (try? PetSpotJSON.encode(value)) ?? Data()
    }
}

