import PetSpot
import PhotoPipeline

extension EditableDraft {
    /// Makes `attached` the draft's photo and, when asked, takes the location from its GPS position.
    /// - Parameters:
    ///   - attached: The photo just prepared into the cache.
    ///   - locationFromPhoto: Whether the person asked for the photo's position to be used.
    /// - Returns: What happened, for people: the photo attached, the location taken or missing.
    mutating func attach(_ attached: AttachedPhoto, locationFromPhoto: Bool) -> [String] {
        photo = attached.reference
        let reference = attached.reference
        var notes = ["Attached the photo: \(reference.mimeType), \(reference.width) × \(reference.height)"
            + (attached.wasCached ? " (already in the cache)." : ", prepared into the cache.")]
        guard locationFromPhoto else { return notes }
        if let position = attached.location {
            // Six decimals (about 10 cm) drop the float noise of degrees-minutes-seconds arithmetic.
            let latitude = (position.latitude * 1e6).rounded() / 1e6
            let longitude = (position.longitude * 1e6).rounded() / 1e6
            animal.latitude = latitude
            animal.longitude = longitude
            notes.append("Took the location \(latitude), \(longitude) from the photo's GPS position.")
        } else {
            notes.append("The photo has no GPS position, so the location was not changed.")
        }
        return notes
    }
}
