import PetSpot

/// A report's photo as mail shows it: a thumbnail linked to the report's page, never an
/// attachment. The 320 px JPEG (every mail program shows JPEG; WebP not all), or the photo
/// itself when it is narrower; without a photo, a grey box that says so.
struct MailPhoto {
    let details: PetDetails
    /// Where the thumbnail links to.
    let href: String
    /// The width it is shown at, in CSS pixels.
    var shownWidth = 260

    var html: HTML {
        let alt = PetPage.altText(details)
        guard let (url, width, height) = source else {
            return """
                <a href="\(href)" style="display:block;width:\(shownWidth)px;max-width:100%;height:\(shownWidth * 3 / 4)px;background:#dee0e2;\
                color:#505a5f;text-align:center;line-height:\(shownWidth * 3 / 4)px;text-decoration:none">No photo</a>
                """
        }
        let shownHeight = width > 0 ? Int((Double(height) * Double(shownWidth) / Double(width)).rounded()) : shownWidth * 3 / 4
        return """
            <a href="\(href)"><img src="\(url)" width="\(shownWidth)" height="\(shownHeight)" alt="\(alt)" \
            style="display:block;width:\(shownWidth)px;max-width:100%;height:auto;border:0"></a>
            """
    }

    /// The JPEG closest to 320 px wide and its size.
    private var source: (String, Int, Int)? {
        let jpegs = (details.photoVariants ?? []).filter { $0.format == "jpeg" }
        if let best = jpegs.min(by: { abs($0.width - 320) < abs($1.width - 320) }) { return (best.url, best.width, best.height) }
        return details.photoUrl.map { ($0, 0, 0) }
    }
}
