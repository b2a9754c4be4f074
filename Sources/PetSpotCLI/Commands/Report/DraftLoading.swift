import Foundation
import PetSpot
import PhotoCache

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

/// A cache that does not exist: no photo is pinned, and none can be attached.
private struct NoPhotoCache: PhotoAttaching {
    func attach(path: String, readingLocation: Bool) throws(CacheError) -> AttachedPhoto {
        throw .cannotCreateDirectory(path: path, reason: "the photo cache is not open")
    }

    func detach() throws(CacheError) {}

    func current() throws(CacheError) -> PhotoReference? { nil }
}
