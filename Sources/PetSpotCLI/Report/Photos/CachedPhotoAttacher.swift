import Foundation
import PetSpot
import PhotoCache
import PhotoPipeline

/// Attaches photos through the disk photo cache: the flow's photo is the entry pinned for it.
struct CachedPhotoAttacher: PhotoAttaching {
    /// The open cache.
    let cache: DiskPhotoCache
    /// The flow whose pin is the draft's photo.
    let flow: ReportFlow
    /// How photos are prepared (`photo add`'s options).
    let options: PrepareOptions

    /// Adds the photo to the cache pinned for the flow; reads the original's GPS when asked.
    func attach(path: String, readingLocation: Bool) throws(CacheError) -> AttachedPhoto {
        let attachment = try cache.add(fileAt: path, options: options, flow: flow.cacheFlow)
        // The original file: the cached copy is stripped of its metadata, GPS included. The photo
        // is attached already, so a file that cannot be read again just gives no position.
        let location = readingLocation
            ? (try? FileIO.read(path, limit: options.limits.maxInputBytes)).flatMap { try? PhotoPipeline.inspect($0).gps }
            : nil
        return AttachedPhoto(reference: PhotoReference(attachment), location: location, wasCached: attachment.wasHit)
    }

    /// Unpins the flow's photo.
    func detach() throws(CacheError) {
        try cache.unpin(flow: flow.cacheFlow)
    }

    /// The entry pinned for the flow.
    func current() throws(CacheError) -> PhotoReference? {
        try cache.currentAttachment(for: flow.cacheFlow).map(PhotoReference.init)
    }
}

extension ReportFlow {
    /// The cache flow whose pinned entry is this flow's photo.
    var cacheFlow: CacheFlow {
        switch self {
        case .missing: .missing
        case .found: .found
        }
    }
}

extension PhotoReference {
    /// The draft's reference to a cached photo.
    init(_ attachment: PhotoAttachment) {
        self.init(cacheKey: attachment.cacheKey, path: attachment.cachedURL.path, mimeType: attachment.mimeType,
                  byteCount: attachment.fileSize, width: attachment.width, height: attachment.height)
    }
}
