#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PetSpot
import PhotoPipeline

/// The submission journal: one JSON file per submission in `submissions/` of the state folder
/// (`$XDG_STATE_HOME/petspot`), mode 0600, each write atomic (temporary file, fsync, rename).
public struct SubmissionJournal: Sendable {
    public let directory: String

    /// - Parameter directory: the `submissions` folder; created (0700) on the first save.
    public init(directory: String) {
        self.directory = directory
    }

    /// Writes a record atomically.
    public func save(_ record: SubmissionRecord) throws(SubmissionError) {
        let path = self.path(for: record.id)
        guard Self.isValidID(record.id) else {
            throw .journal(path: path, reason: "the submission id \(record.id.debugDescription) is not a lower-case UUID")
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .journal(path: directory, reason: (error as NSError).localizedDescription)
        }
        var updated = record
        updated.updatedAt = Date()
        do {
            let data = try PetSpotJSON.makeEncoder(prettyPrinted: true).encode(updated)
            try FileIO.writeAtomically([UInt8](data), to: path, mode: 0o600)
        } catch let error as PhotoError {
            throw .journal(path: path, reason: error.description)
        } catch {
            throw .journal(path: path, reason: "it cannot be encoded: \(error)")
        }
    }

    /// One record by its id.
    public func record(id: String) throws(SubmissionError) -> SubmissionRecord? {
        guard Self.isValidID(id) else { return nil }
        let path = self.path(for: id)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try load(path)
    }

    /// A record by its own id, or by the id of the announcement it created (the only id a
    /// person is shown).
    public func record(matching id: String) throws(SubmissionError) -> SubmissionRecord? {
        if let record = try record(id: id) { return record }
        return try all().first { $0.announcementID?.rawValue == id }
    }

    /// A smaller photo made for a submission (after the server said its limit), kept beside
    /// its record until the record goes: `<id>.photo.jpg`, mode 0600, written atomically.
    func savePhoto(_ bytes: [UInt8], for record: SubmissionRecord) throws(SubmissionError) -> String {
        let path = directory + "/\(record.id).photo.jpg"
        do {
            try FileIO.writeAtomically(bytes, to: path, mode: 0o600)
        } catch {
            throw .journal(path: path, reason: error.description)
        }
        return path
    }

    /// Every record, newest first. Damaged files are reported, not skipped silently.
    public func all() throws(SubmissionError) -> [SubmissionRecord] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var records: [SubmissionRecord] = []
        for name in names where name.hasSuffix(".json") {
            records.append(try load(directory + "/" + name))
        }
        return records.sorted { $0.createdAt > $1.createdAt }
    }

    /// The unfinished submission of a flow, if any (the one `report submit` resumes).
    public func unfinished(flow: String) throws(SubmissionError) -> SubmissionRecord? {
        try all().first { $0.flow == flow && $0.state.isPending }
    }

    private func load(_ path: String) throws(SubmissionError) -> SubmissionRecord {
        do {
            let bytes = try FileIO.read(path, limit: 1 << 20)
            let record = try PetSpotJSON.decode(SubmissionRecord.self, from: Data(bytes))
            guard record.schema <= SubmissionRecord.currentSchema else {
                throw SubmissionError.journal(path: path, reason: "it was written by a newer petspot (schema \(record.schema))")
            }
            // Saves go to `<id>.json`: a record naming another id (edited, or copied over) would
            // be written elsewhere, or outside this folder with an id such as `../x`.
            guard path == self.path(for: record.id), Self.isValidID(record.id) else {
                throw SubmissionError.journal(path: path, reason: "it holds a submission with another id; move it aside to continue")
            }
            return record
        } catch let error as SubmissionError {
            throw error
        } catch {
            throw .journal(path: path, reason: "it is damaged (\(error)); move it aside to continue")
        }
    }

    private func path(for id: String) -> String {
        "\(directory)/\(id).json"
    }

    /// Journal ids are lower-case UUIDs; anything else never becomes a path.
    static func isValidID(_ id: String) -> Bool {
        UUID(uuidString: id) != nil && id == id.lowercased()
    }
}
