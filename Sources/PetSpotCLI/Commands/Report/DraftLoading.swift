import Foundation
import PetSpot
import PhotoCache
import PhotoCLI

/// Reads a flow's draft for the commands that only look at it (`show`, `validate`).
enum DraftLoading {
    /// The flow's saved draft, or an empty one, with its photo set to the flow's pinned cache
    /// entry. The cache is only read (it needs no write access); one that does not exist is not
    /// created: the draft then has no photo.
    /// - Returns: The draft, and what the store found (`nil` when nothing was saved).
    static func load<Draft: EditableDraft>(_ type: Draft.Type, store: DraftStore,
                                           cache: CacheOptions) throws -> (draft: Draft, saved: SavedDraft<Draft>?) {
        let saved = try DraftFailure.run { () throws(DraftStoreError) in try store.load(Draft.self) }
        var draft = saved?.draft ?? Draft()
        let note: String?
        if let photoCache = try cache.openReadOnly() {
            let photos = CachedPhotoAttacher(cache: photoCache, flow: Draft.flow, options: .init())
            note = try CacheFailure.run { () throws(CacheError) in try DraftPhotoSync.sync(&draft, with: photos) }
        } else {
            note = try CacheFailure.run { () throws(CacheError) in try DraftPhotoSync.sync(&draft, with: NoPhotoCache()) }
        }
        if let note { Terminal.error("note: \(note)") }
        return (draft, saved)
    }
}

extension DraftLoading {
    /// The problem of a draft whose saved photo is gone from the photo cache (cleared with
    /// `--include-pinned`, or repaired away): never silently sent without it. In the found flow
    /// the photo is mandatory anyway; in the missing flow `report submit --without-photo` sends
    /// it without one on purpose.
    static func lostPhoto<Draft: EditableDraft>(_ draft: Draft, saved: SavedDraft<Draft>?, allowMissing: Bool = false) -> ValidationIssue? {
        guard saved?.draft.photo != nil, draft.photo == nil, !(allowMissing && Draft.flow == .missing) else { return nil }
        let way = Draft.flow == .missing ? ", or send the report without a photo with `petspot report submit --without-photo`" : ""
        return ValidationIssue(field: .photo, message: "The draft's photo is gone from the photo cache; attach it again with --photo\(way).")
    }
}

/// A cache that does not exist: no photo is pinned, and none can be attached.
private struct NoPhotoCache: PhotoAttaching {
    func attach(path: String, readingLocation: Bool) throws(CacheError) -> AttachedPhoto {
        throw .cannotCreateDirectory(path: path, reason: "the photo cache is not open")
    }

    func detach() throws(CacheError) {}

    func current() throws(CacheError) -> PhotoReference? { nil }
}
