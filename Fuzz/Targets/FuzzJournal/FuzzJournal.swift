import Foundation
import FuzzSupport
import PetSpot
import PetSpotClient

/// A submission journal record as it may be found on disk, read by the real `SubmissionJournal`.
/// A refusal is `.journal` naming the file; a record that loads has its file's id, and survives a save and a second load
/// (apart from `updatedAt`, which a save sets).
func fuzzJournal(_ bytes: [UInt8]) -> Int32 {
    let journal = SubmissionJournal(directory: Fuzz.scratch + "/submissions")
    try? FileManager.default.createDirectory(atPath: journal.directory, withIntermediateDirectories: true)
    let id = recordID
    let path = "\(journal.directory)/\(id).json"
    Fuzz.require(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "cannot write \(path)")
    let record: SubmissionRecord?
    do {
        record = try journal.record(id: id)
    } catch {
        guard case .journal(let named, _) = error else { return refuse("record(id:) threw \(error)") }
        Fuzz.require(named == path, "the error names \(named), not \(path)")
        return 0
    }
    guard let record else { return refuse("a written record was not found") }
    // Saving writes to `<id>.json`: a record must be the one its file name says.
    Fuzz.require(record.id == id, "\(path) loaded as a record with the id \(record.id)")
    do {
        try journal.save(record)
        var again = try journal.record(id: id)
        again?.updatedAt = record.updatedAt
        // Dates are written in whole seconds, so a hand-written fraction ("…:04.9Z") is dropped on
        // the first save; what is on disk must not change after that.
        let before = try PetSpotJSON.encode(record), after = try PetSpotJSON.encode(again)
        Fuzz.require(after == before, "the record changed across a save and a load")
        let listed = try journal.all()
        Fuzz.require(listed.count == 1, "all() lists \(listed.count) records, not the one")
    } catch {
        return refuse("a loaded record could not be saved and read back: \(error)")
    }
    return 0
}

/// The id every input is stored under.
private let recordID = "5f0c3e9a-2b1d-4c6e-8f7a-9b0c1d2e3f40"

private func refuse(_ message: String) -> Int32 {
    Fuzz.require(false, message)
    return 0
}

/// Seeds: records in each state, as the journal saves them, under the harness's file name.
func writeSeeds() {
    let journal = SubmissionJournal(directory: Fuzz.scratch + "/seed-submissions")
    var files: [String: Data] = [:]
    for state in [SubmissionRecord.State.creating, .uploadingPhoto, .completed] {
        var record = SubmissionRecord(flow: "missing", server: "http://127.0.0.1:8080", request: Seeds.missingRequest, photo: nil)
        record.state = state
        if state != .creating {
            record.announcementID = AnnouncementID(rawValue: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
            record.managementPassword = "042917"
        }
        guard (try? journal.save(record)) != nil,
              let text = try? String(contentsOfFile: "\(journal.directory)/\(record.id).json", encoding: .utf8) else { continue }
        files["\(state.rawValue).json"] = Data(text.replacingOccurrences(of: record.id, with: recordID).utf8)
    }
    Seeds.write(files)
}
