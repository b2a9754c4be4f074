#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpot
import PhotoPipeline

/// Keeps one draft per report flow under `<state>/drafts/` (`missing.json`, `found.json`), so a
/// report can be filled in over several commands and survives clearing the photo cache.
///
/// Saves are atomic (temporary file in the same folder, fsync, rename): a crash or a full disk
/// leaves the previous draft, never half of a new one. The file is JSON with a schema version
/// (see ``DraftFile``). Depends only on the domain and `FileIO`, so the upload module can own it later.
public struct DraftStore: Sendable {
    /// Where the state lives.
    public let location: StateLocation

    /// Creates a store over `location`; nothing is touched on disk until a save.
    public init(location: StateLocation) {
        self.location = location
    }

    /// The file that holds `flow`'s draft (it may not exist yet).
    public func url(for flow: ReportFlow) -> URL {
        location.draftsFolder.appendingPathComponent("\(flow.rawValue).json")
    }

    /// Reads the saved draft of `Draft`'s flow.
    /// - Returns: The draft, or `nil` when none was saved (or it was discarded).
    /// - Throws: ``DraftStoreError/unreadable(path:reason:)``, ``DraftStoreError/corrupt(path:detail:)``
    ///   or ``DraftStoreError/newerSchema(path:version:supported:)``.
    public func load<Draft: FlowDraft>(_ type: Draft.Type) throws(DraftStoreError) -> SavedDraft<Draft>? {
        let url = url(for: Draft.flow)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(url.path, limit: 4 << 20)
        } catch {
            throw .unreadable(path: url.path, reason: Self.reason(error))
        }
        let data = Data(bytes)
        let decoder = PetSpotJSON.makeDecoder()
        let header: DraftFileHeader
        do {
            header = try decoder.decode(DraftFileHeader.self, from: data)
        } catch {
            throw .corrupt(path: url.path, detail: Self.detail(error))
        }
        guard header.schemaVersion <= DraftFileHeader.currentSchemaVersion else {
            throw .newerSchema(path: url.path, version: header.schemaVersion,
                               supported: DraftFileHeader.currentSchemaVersion)
        }
        guard header.flow == Draft.flow else {
            throw .corrupt(path: url.path, detail: "it holds a \(header.flow.reportName), not a \(Draft.flow.reportName)")
        }
        do {
            let file = try decoder.decode(DraftFile<Draft>.self, from: data)
            return SavedDraft(draft: file.draft, savedAt: file.savedAt, url: url)
        } catch {
            throw .corrupt(path: url.path, detail: Self.detail(error))
        }
    }

    /// Takes `flow`'s draft lock until the returned lock is released, so that a load, change and
    /// save made meanwhile is not interleaved with another process's (creating the drafts folder
    /// when needed). Waits while another command holds it for a moment.
    /// - Parameter use: A command's load-change-save, or the wizard, which holds the lock for as
    ///   long as it asks questions (another command is then refused rather than kept waiting).
    /// - Throws: ``DraftStoreError/openElsewhere(path:holder:)`` when another process's wizard
    ///   has the draft open, or another ``DraftStoreError`` when the folder or the lock cannot be made.
    func acquireLock(_ flow: ReportFlow, for use: DraftLock.Holder.Use) throws(DraftStoreError) -> HeldDraftLock {
        try createFolder()
        return try lock(for: flow).acquire(for: use)
    }

    private func lock(for flow: ReportFlow) -> DraftLock {
        DraftLock(path: location.draftsFolder.appendingPathComponent("\(flow.rawValue).lock").path,
                  draftPath: url(for: flow).path)
    }

    /// Creates the drafts folder (0700 like the cache: a draft holds the reporter's phone number
    /// and address) if it is not there.
    private func createFolder() throws(DraftStoreError) {
        let folder = location.draftsFolder
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotCreateDirectory(path: folder.path, reason: Self.reason(error))
        }
    }

    /// Saves `draft` as its flow's draft, replacing the previous one atomically.
    /// - Parameters:
    ///   - draft: The draft to keep.
    ///   - now: The save time recorded in the file.
    /// - Returns: The file written.
    /// - Throws: ``DraftStoreError/cannotCreateDirectory(path:reason:)`` or
    ///   ``DraftStoreError/cannotWrite(path:reason:)``; the previous draft is then unchanged.
    @discardableResult
    public func save<Draft: FlowDraft>(_ draft: Draft, now: Date = Date()) throws(DraftStoreError) -> URL {
        try createFolder()
        let url = url(for: Draft.flow)
        let file = DraftFile(schemaVersion: DraftFileHeader.currentSchemaVersion, flow: Draft.flow,
                             savedAt: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)),
                             draft: draft)
        let data: Data
        do {
            data = try PetSpotJSON.makeEncoder(prettyPrinted: true).encode(file)
        } catch {
            throw .cannotWrite(path: url.path, reason: "the draft cannot be written as JSON (\(Self.detail(error)))")
        }
        do throws(PhotoError) {
            try FileIO.writeAtomically(Array(data) + [0x0A], to: url.path, mode: 0o600)
        } catch .diskFull {
            throw .diskFull(path: url.path)
        } catch {
            throw .cannotWrite(path: url.path, reason: Self.reason(error))
        }
        return url
    }

    /// Removes `flow`'s draft.
    /// - Returns: Whether there was a draft to remove.
    /// - Throws: ``DraftStoreError/cannotRemove(path:reason:)``.
    @discardableResult
    public func discard(_ flow: ReportFlow) throws(DraftStoreError) -> Bool {
        let path = url(for: flow).path
        guard unlink(path) == 0 else {
            if errno == ENOENT { return false }
            throw .cannotRemove(path: path, reason: String(cString: strerror(errno)))
        }
        return true
    }

    /// The short reason inside a file-system error, e.g. "Permission denied".
    private static func reason(_ error: any Error) -> String {
        switch error {
        case PhotoError.unreadableFile(_, let reason), PhotoError.cannotWrite(_, let reason):
            reason
        case PhotoError.fileTooLarge(let bytes, let limit):
            "it is \(bytes) bytes, larger than any draft (\(limit) bytes)"
        case let error as CocoaError:
            (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription ?? error.localizedDescription
        default:
            "\(error)"
        }
    }

    /// What a JSON decoder or encoder found wrong, in one line.
    private static func detail(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            Self.describe(context)
        case DecodingError.keyNotFound(let key, let context):
            "\(Self.path(context.codingPath + [key])) is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            Self.describe(context)
        case EncodingError.invalidValue(_, let context):
            "\(Self.path(context.codingPath)): \(context.debugDescription)"
        default:
            "\(error)"
        }
    }

    private static func describe(_ context: DecodingError.Context) -> String {
        context.codingPath.isEmpty
            ? "not valid JSON"
            : "\(path(context.codingPath)): \(context.debugDescription)"
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
