import Foundation
import PetSpot
import Testing
@testable import PetSpotCLI
@testable import PhotoCLI

/// The draft store in-process: round trips, atomic saves, damaged and foreign files.
@Suite struct ReportDraftStoreTests {
    private static let photo = PhotoReference(cacheKey: "abc123", path: "/cache/photos/ab/abc123.jpg",
                                              mimeType: "image/jpeg", byteCount: 1_234, width: 640, height: 480)

    private static let missing = MissingReportDraft(
        step: .description, microchip: MicrochipNumber("12345-67890-12345"), photo: photo,
        animal: AnimalDescriptionDetails(species: .dog, breed: "Beagle", gender: .male, age: 4,
                                         lastSeenDate: LocalDate("2025-11-18"), latitude: 52.23, longitude: -0.5,
                                         description: "Brown, red collar"),
        contact: OwnerContactDetails(phone: "+48 123 456 789", email: "a@b.co", reward: "100 PLN"))

    private static let found = FoundReportDraft(
        step: .contact, photo: photo,
        animal: AnimalDescriptionDetails(species: .cat, gender: .female, lastSeenDate: LocalDate("2025-11-17"),
                                         latitude: -33.8688, longitude: 151.2093),
        contact: OwnerContactDetails(phone: "0412345678", email: "finder@example.org"),
        caregiverPhone: "+61 298 765 432", foundAddress: "12 George St, Sydney")

    private func withStore<T>(_ body: (DraftStore, URL) async throws -> T) async throws -> T {
        try await PhotoFixtures.withScratchFolder { folder in
            try await body(DraftStore(location: StateLocation(root: folder, source: .flag)), folder)
        }
    }

    @Test func eachFlowsDraftComesBackAsSaved() async throws {
        try await withStore { store, _ in
            let savedAt = Date(timeIntervalSince1970: 1_763_460_000)
            try store.save(Self.missing, now: savedAt)
            try store.save(Self.found, now: savedAt)
            let missing = try #require(try store.load(MissingReportDraft.self))
            let found = try #require(try store.load(FoundReportDraft.self))
            #expect(missing.draft == Self.missing)
            #expect(found.draft == Self.found)
            #expect(missing.savedAt == savedAt)
            #expect(missing.url.lastPathComponent == "missing.json")
            #expect(found.url.lastPathComponent == "found.json")
        }
    }

    @Test func nothingSavedLoadsAsNoneAndDiscardsAsNothing() async throws {
        try await withStore { store, _ in
            #expect(try store.load(MissingReportDraft.self) == nil)
            #expect(try store.discard(.missing) == false)
            try store.save(Self.missing)
            #expect(try store.discard(.missing) == true)
            #expect(try store.load(MissingReportDraft.self) == nil)
        }
    }

    @Test func savesAreAtomicPrivateAndVersioned() async throws {
        try await withStore { store, folder in
            for step in MissingReportStep.allCases {
                var draft = Self.missing
                draft.step = step
                try store.save(draft)
            }
            let drafts = folder.appendingPathComponent("drafts")
            #expect(try PhotoFixtures.contents(of: drafts) == ["missing.json"])
            #expect(try PhotoFixtures.temporaryFiles(in: drafts).isEmpty)
            let attributes = try FileManager.default.attributesOfItem(atPath: drafts.appendingPathComponent("missing.json").path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let json = try CacheCLISupport.jsonObject(String(decoding: try Data(contentsOf: drafts.appendingPathComponent("missing.json")), as: UTF8.self))
            #expect(json["schema_version"] as? Int == 1)
            #expect(json["flow"] as? String == "missing")
            #expect(json.object("draft")["step"] as? Int == MissingReportStep.contact.number)
        }
    }

    @Test(arguments: [
        ("{not json", "not valid JSON"),
        (#"{"schema_version": 1, "flow": "missing", "saved_at": "2025-11-18T10:00:00Z"}"#, "draft is missing"),
        (#"{"schema_version": 1, "flow": "found", "saved_at": "2025-11-18T10:00:00Z", "draft": {}}"#, "found-pet report"),
    ])
    func aDamagedOrForeignFileIsReportedAsCorrupt(content: String, detail: String) async throws {
        try await withStore { store, folder in
            let drafts = folder.appendingPathComponent("drafts")
            try FileManager.default.createDirectory(at: drafts, withIntermediateDirectories: true)
            try Data(content.utf8).write(to: drafts.appendingPathComponent("missing.json"))
            let error = try #require(throws: DraftStoreError.self) { try store.load(MissingReportDraft.self) }
            guard case .corrupt(_, let found) = error else {
                Issue.record("expected a corrupt draft, got \(error)")
                return
            }
            #expect(found.contains(detail), "\(found)")
            #expect(error.description.contains("petspot report discard"))
            #expect(ExitStatus.of(error) == .dataError)
        }
    }

    @Test func aDraftFromANewerVersionIsNotGuessedAt() async throws {
        try await withStore { store, folder in
            let drafts = folder.appendingPathComponent("drafts")
            try FileManager.default.createDirectory(at: drafts, withIntermediateDirectories: true)
            try Data(#"{"schema_version": 2, "flow": "found", "draft": {"whatever": true}}"#.utf8)
                .write(to: drafts.appendingPathComponent("found.json"))
            #expect(throws: DraftStoreError.newerSchema(path: drafts.appendingPathComponent("found.json").path,
                                                         version: 2, supported: 1)) {
                try store.load(FoundReportDraft.self)
            }
        }
    }

    @Test func aStateFolderThatCannotBeCreatedSaysSo() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let file = folder.appendingPathComponent("not-a-folder")
            try Data("x".utf8).write(to: file)
            let store = DraftStore(location: StateLocation(root: file, source: .flag))
            let error = try #require(throws: DraftStoreError.self) { try store.save(Self.missing) }
            guard case .cannotCreateDirectory = error else {
                Issue.record("expected cannotCreateDirectory, got \(error)")
                return
            }
            #expect(ExitStatus.of(error) == .cannotCreate)
            #expect(error.description.contains("--state-dir"))
        }
    }
}
