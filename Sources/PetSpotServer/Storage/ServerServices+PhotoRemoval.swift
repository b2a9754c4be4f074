import Logging

extension ServerServices {
    /// Removes a photo no longer attached (replaced, detached, or its announcement taken down)
    /// and its stored sizes, unless another announcement or a form's pending upload holds the
    /// same content; a failure only leaves it for the sweep.
    func removePhotoIfUnreferenced(_ key: String, logger: Logger) async {
        let photos = self.photos
        do {
            _ = try await store.removePhotoIfUnreferenced(key) { try await photos.removeWithSizes(key) }
        } catch {
            logger.warning("the photo \(key), no longer attached, stays until the sweep: \(error)")
        }
    }
}
