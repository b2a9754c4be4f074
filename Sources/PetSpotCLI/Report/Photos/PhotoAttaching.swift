import PetSpot
import PhotoCache
import PhotoPipeline

/// Attaches photos to a flow's draft: prepares them into the cache and pins them as the flow's
/// photo. A protocol so the wizard can be driven in tests without a cache.
protocol PhotoAttaching {
    /// Prepares the photo at `path` and makes it the flow's photo, replacing the previous one.
    /// - Parameters:
    ///   - path: The photo file as the person named it.
    ///   - readingLocation: Also read the GPS position of the original file (only when asked:
    ///     the cached photo has none, and reading it is opt-in).
    /// - Returns: The attached photo, and its position when asked for and present.
    /// - Throws: The cache's error when the photo is refused or cannot be stored.
    func attach(path: String, readingLocation: Bool) throws(CacheError) -> AttachedPhoto

    /// Releases the flow's photo (it stays cached until eviction or `cache clear`).
    func detach() throws(CacheError)

    /// The flow's photo, the entry pinned in the cache, if any.
    func current() throws(CacheError) -> PhotoReference?
}

/// A photo prepared into the cache for a draft.
struct AttachedPhoto: Sendable, Hashable {
    /// The photo as the draft keeps it.
    var reference: PhotoReference
    /// Where the photo was taken, when asked for and the original file carries GPS tags.
    var location: GPSCoordinate?
    /// Whether the photo was already cached (nothing was prepared).
    var wasCached: Bool
}
