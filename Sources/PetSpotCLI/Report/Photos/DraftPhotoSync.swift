import PetSpot
import PhotoCache

/// Keeps a draft's photo equal to the flow's pinned cache entry, which is the truth: the pin
/// may have changed since the draft was saved (`photo add --flow`, `cache clear --include-pinned`).
enum DraftPhotoSync {
    /// Sets the draft's photo to the flow's pinned entry.
    /// - Returns: A note for people when the photo changed, else `nil`.
    static func sync<Draft: EditableDraft>(_ draft: inout Draft, with photos: any PhotoAttaching) throws(CacheError) -> String? {
        let pinned = try photos.current()
        guard pinned != draft.photo else { return nil }
        let before = draft.photo
        draft.photo = pinned
        let flow = Draft.flow
        if pinned == nil {
            return "The draft's photo is no longer in the photo cache (`cache clear --include-pinned` or `cache verify --repair` removed it); attach it again with --photo."
        }
        if before == nil {
            return "Using the photo pinned for the \(flow.reportName) in the cache (`photo add --flow \(flow.rawValue)`)."
        }
        return "The draft's photo was replaced by the one pinned for the \(flow.reportName) in the cache (`photo add --flow \(flow.rawValue)`)."
    }
}
