import PetSpot

/// A photo as `<picture>`: WebP variants for browsers that take them, JPEG for the rest, the
/// browser choosing the width from `sizes`; or a "No photo" block.
struct PhotoPicture {
    /// The variants (relative URLs), or `nil` when only the photo's own URL is known.
    var variants: [PhotoVariantLink]?
    /// The photo's own URL, when there is a photo.
    var photoURL: String?
    var alt: String
    /// The `sizes` attribute: how wide the photo is shown at each viewport width.
    var sizes: String
    /// Loaded only when scrolled near (cards below the first row).
    var lazy: Bool

    var html: HTML {
        let loading: HTML = lazy ? #" loading="lazy""# : ""
        guard let photoURL else {
            return #"<div class="no-photo" role="img" aria-label="No photo">No photo</div>"#
        }
        guard let variants, let full = variants.last else {
            return "<img src=\"\(photoURL)\" alt=\"\(alt)\"\(loading) decoding=\"async\">"
        }
        let webp = Self.srcset(variants.filter { $0.format == "webp" })
        let jpeg = variants.filter { $0.format == "jpeg" }
        // The middle JPEG for browsers without srcset; its width and height give the box its shape.
        let fallback = jpeg[jpeg.count / 2]
        return """
            <picture><source type="image/webp" srcset="\(webp)" sizes="\(sizes)"><img src="\(fallback.url)" srcset="\(Self.srcset(jpeg))" sizes="\(sizes)" width="\(full.width)" height="\(full.height)" alt="\(alt)"\(loading) decoding="async"></picture>
            """
    }

    private static func srcset(_ links: [PhotoVariantLink]) -> String {
        links.map { "\($0.url) \($0.width)w" }.joined(separator: ", ")
    }
}
