import CCairo
import PhotoPipeline

/// The picture a shared link previews as (`og:image`): 1200 × 630, the photo cropped to where the
/// animal is (``PhotoPipeline/attentionCrop(_:aspect:)``) on the left, and a band in the status's
/// colour on the right saying "MISSING", the species and the place or date in type large enough
/// to read at a timeline's thumbnail size. Without a photo, the band's words stand on a plain
/// background with the species.
public enum ShareCard {
    public static let width = 1200
    public static let height = 630
    /// The photo's part of the card.
    static let photoWidth = 740

    /// - Parameter photo: the photo as stored (an upright JPEG), or `nil`.
    /// - Returns: the card as a JPEG, drawn from ``SharedAnnouncement/shownOnCard`` alone.
    public static func render(_ announcement: SharedAnnouncement, photo: [UInt8]?) throws(SharingError) -> [UInt8] {
        let announcement = announcement.shownOnCard
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { throw .cannotRender("no image surface") }
        do {
            let canvas = Canvas(surface: surface)
            let colour = announcement.colour
            canvas.fill(x: 0, y: 0, width: Double(width), height: Double(height), colour: (0.93, 0.92, 0.90))
            if let photo {
                let cropped = try crop(photo)
                canvas.image(try ImageSurface(cropped), x: 0, y: 0, width: Double(photoWidth), height: Double(height))
            } else {
                let size = canvas.fittingSize(announcement.species, width: Double(photoWidth) - 80, size: 150, minimum: 40, bold: true)
                canvas.text(announcement.species, x: 40, y: (Double(height) - size * 1.3) / 2, width: Double(photoWidth) - 80,
                            maxHeight: size * 1.3, font: .init(size: size, bold: true), colour: (0.38, 0.37, 0.35), alignment: .centre)
            }
            let bandX = Double(photoWidth), bandWidth = Double(width - photoWidth), inner = bandWidth - 70
            canvas.fill(x: bandX, y: 0, width: bandWidth, height: Double(height), colour: colour)
            let word = announcement.statusWord
            let wordSize = canvas.fittingSize(word, width: inner, size: 104, minimum: 48, bold: true)
            var y = 70.0
            y += canvas.text(word, x: bandX + 35, y: y, width: inner, maxHeight: wordSize * 1.3,
                             font: .init(size: wordSize, bold: true), colour: (1, 1, 1)) + 18
            y += canvas.text(announcement.species.trimmedLine, x: bandX + 35, y: y, width: inner, maxHeight: 64 * 1.3,
                             font: .init(size: 64, bold: true), colour: (1, 1, 1)) + 14
            let place = announcement.place.trimmedLine
            y += canvas.text(place, x: bandX + 35, y: y, width: inner, maxHeight: 44 * 1.25 * 2,
                             font: .init(size: 44), colour: (1, 1, 1)) + 10
            canvas.text(announcement.when, x: bandX + 35, y: min(y, Double(height) - 110), width: inner, maxHeight: 34 * 1.25 * 2,
                        font: .init(size: 32), colour: (1, 1, 1))
            canvas.text("PetSpot", x: bandX + 35, y: Double(height) - 58, width: inner, maxHeight: 40,
                        font: .init(size: 26, bold: true), colour: (1, 1, 1), alignment: .right)
        }
        cairo_surface_flush(surface)
        guard let base = cairo_image_surface_get_data(surface) else { throw .cannotRender("no pixels") }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            let row = UnsafeRawPointer(base + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let pixel = row[x]
                let i = (y * width + x) * 3
                rgb[i] = UInt8(truncatingIfNeeded: pixel >> 16)
                rgb[i + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
                rgb[i + 2] = UInt8(truncatingIfNeeded: pixel)
            }
        }
        do {
            return try PipelineStages.encode(PixelBuffer(width: width, height: height, channels: 3, pixels: rgb),
                                             options: EncodingOptions(quality: 85), iccProfile: nil)
        } catch {
            throw .cannotRender("\(error)")
        }
    }

    /// The photo's part of the card: the attention crop of the photo at the card's aspect,
    /// resized to fill it.
    static func crop(_ photo: [UInt8]) throws(SharingError) -> PixelBuffer {
        let pixels: PixelBuffer
        do {
            pixels = try PhotoPipeline.decode(photo)
        } catch {
            throw .unreadablePhoto("\(error)")
        }
        let rect = PhotoPipeline.attentionCrop(pixels, aspect: Double(photoWidth) / Double(height))
        return pixels.cropped(to: rect).resized(to: PixelSize(width: photoWidth, height: height))
    }

    /// Where the crop of `photo` lies in it (for tests and the note's measurements).
    public static func cropRectangle(of photo: PixelBuffer) -> PixelRect {
        PhotoPipeline.attentionCrop(photo, aspect: Double(photoWidth) / Double(height))
    }
}

extension PixelBuffer {
    /// The pixels inside `rect`.
    func cropped(to rect: PixelRect) -> PixelBuffer {
        var out = [UInt8](repeating: 0, count: rect.width * rect.height * channels)
        for row in 0..<rect.height {
            let from = ((rect.y + row) * width + rect.x) * channels
            let to = row * rect.width * channels
            out[to..<(to + rect.width * channels)] = pixels[from..<(from + rect.width * channels)]
        }
        return PixelBuffer(width: rect.width, height: rect.height, channels: channels, pixels: out)
    }
}
