/// What a file really is, decided by its first bytes, never by its name.
///
/// ``jpeg``, ``png``, ``webp``, ``heic``, ``heif`` and ``avif`` are accepted by the pipeline; every other case is a type
/// PetSpot recognises so it can refuse the file by name ("this is a HEIC photo").
public enum MediaType: String, Sendable, Codable, CaseIterable {
    case jpeg, png, webp
    case gif, heic, heif, avif, jxl, bmp, tiff, ico, psd, pdf, svg, xml, html, text
    /// An ISO base media file with a video brand (`isom`, `mp41`, `qt  `…): the movie half of a Live Photo.
    case mp4

    /// The types the pipeline decodes.
    public static let accepted: [MediaType] = [.jpeg, .png, .webp, .heic, .heif, .avif]

    /// Whether the pipeline can decode this type.
    public var isAccepted: Bool { Self.accepted.contains(self) }

    /// The IANA media type, as sent in a `Content-Type` header.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .gif: "image/gif"
        case .heic: "image/heic"
        case .heif: "image/heif"
        case .avif: "image/avif"
        case .jxl: "image/jxl"
        case .bmp: "image/bmp"
        case .tiff: "image/tiff"
        case .ico: "image/x-icon"
        case .psd: "image/vnd.adobe.photoshop"
        case .pdf: "application/pdf"
        case .svg: "image/svg+xml"
        case .xml: "application/xml"
        case .html: "text/html"
        case .text: "text/plain"
        case .mp4: "video/mp4"
        }
    }

    /// A name a person recognises, used in messages ("this is a HEIC photo").
    public var displayName: String {
        switch self {
        case .jpeg: "JPEG image"
        case .png: "PNG image"
        case .webp: "WebP image"
        case .gif: "GIF image"
        case .heic: "HEIC photo"
        case .heif: "HEIF image"
        case .avif: "AVIF image"
        case .jxl: "JPEG XL image"
        case .bmp: "BMP image"
        case .tiff: "TIFF image"
        case .ico: "Windows icon"
        case .psd: "Photoshop document"
        case .pdf: "PDF document"
        case .svg: "SVG drawing"
        case .xml: "XML document"
        case .html: "HTML page"
        case .text: "plain text file"
        case .mp4: "MP4 video"
        }
    }

    /// "a" or "an", as the ``displayName`` is said ("an HTML page", "an MP4 video").
    public var article: String {
        switch self {
        case .html, .mp4, .svg, .xml, .avif: "an"
        default: "a"
        }
    }

    /// The file extension the pipeline writes for this type.
    public var preferredExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .tiff: "tiff"
        case .text: "txt"
        default: rawValue
        }
    }

    /// File-name extensions that normally carry this type (lower case, no dot).
    public var extensions: Set<String> {
        switch self {
        case .jpeg: ["jpg", "jpeg", "jpe", "jfif"]
        case .png: ["png", "apng"]
        case .webp: ["webp"]
        case .gif: ["gif"]
        case .heic: ["heic", "heics"]
        case .heif: ["heif", "heifs", "hif"]
        case .avif: ["avif", "avifs"]
        case .jxl: ["jxl"]
        case .bmp: ["bmp", "dib"]
        case .tiff: ["tif", "tiff"]
        case .ico: ["ico", "cur"]
        case .psd: ["psd"]
        case .pdf: ["pdf"]
        case .svg: ["svg", "svgz"]
        case .xml: ["xml"]
        case .html: ["html", "htm"]
        case .text: ["txt", "text", "md", "csv"]
        case .mp4: ["mp4", "m4v", "mov"]
        }
    }

    /// The type a file-name extension suggests, if any.
    public init?(fileExtension ext: String) {
        let lower = ext.lowercased()
        guard let match = MediaType.allCases.first(where: { $0.extensions.contains(lower) }) else { return nil }
        self = match
    }
}
