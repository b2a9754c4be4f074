import Foundation
import FuzzSupport
import PetSpot
import PetSpotCLI

/// A draft file as it may be found on disk (damaged, truncated, edited by hand, from a newer
/// petspot), read by the real `DraftStore` for both flows. A refusal is one of the store's named
/// errors; a draft that loads survives a save and a second load unchanged.
func fuzzDraft(_ bytes: [UInt8]) -> Int32 {
    let store = DraftStore(location: StateLocation(root: URL(fileURLWithPath: Fuzz.scratch + "/state"), source: .flag))
    try? FileManager.default.createDirectory(at: store.location.draftsFolder, withIntermediateDirectories: true)
    check(MissingReportDraft.self, bytes, store)
    check(FoundReportDraft.self, bytes, store)
    return 0
}

private func check<Draft: FlowDraft>(_ type: Draft.Type, _ bytes: [UInt8], _ store: DraftStore) {
    let url = store.url(for: Draft.flow)
    Fuzz.require(FileManager.default.createFile(atPath: url.path, contents: Data(bytes)), "cannot write \(url.path)")
    let loaded: SavedDraft<Draft>?
    do {
        loaded = try store.load(Draft.self)
    } catch {
        switch error {
        case .corrupt, .newerSchema: break
        default: Fuzz.require(false, "load failed with \(error.code): \(error)")
        }
        Fuzz.require(error.description.contains(url.path), "the error does not name the file: \(error)")
        return
    }
    guard let loaded else { return Fuzz.require(false, "a written draft file was not found") }
    do {
        _ = try store.save(loaded.draft)
        let again = try store.load(Draft.self)
        Fuzz.require(again?.draft == loaded.draft, "the draft changed across a save and a load")
    } catch {
        Fuzz.require(false, "a loaded draft could not be saved and read back: \(error)")
    }
}

/// Seeds: an empty and a filled-in draft of each flow, as `DraftStore` saves them.
func writeSeeds() {
    let store = DraftStore(location: StateLocation(root: URL(fileURLWithPath: Fuzz.scratch + "/seed-state"), source: .flag))
    var files: [String: Data] = [:]
    func add<Draft: FlowDraft>(_ draft: Draft, as name: String) {
        guard let url = try? store.save(draft), let data = FileManager.default.contents(atPath: url.path) else { return }
        files[name] = data
    }
    add(MissingReportDraft(), as: "missing-empty.json")
    add(FoundReportDraft(), as: "found-empty.json")
    var missing = MissingReportDraft()
    missing.animal.species = .dog
    missing.animal.breed = "Labrador"
    missing.animal.gender = .male
    missing.animal.age = 4
    missing.animal.lastSeenDate = LocalDate(year: 2026, month: 11, day: 20)
    missing.animal.latitude = 52.2297
    missing.animal.longitude = 21.0122
    missing.contact = OwnerContactDetails(phone: "+48123456789", email: "owner@example.com", reward: "100 PLN")
    add(missing, as: "missing-filled.json")
    var found = FoundReportDraft()
    found.contact = OwnerContactDetails(phone: "+61 2 9999 0000", email: "finder@example.org")
    add(found, as: "found-filled.json")
    Seeds.write(files)
}
