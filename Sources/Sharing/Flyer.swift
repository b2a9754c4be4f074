import CCairo
import PhotoPipeline

/// Paper sizes, in PostScript points (1/72 inch).
public enum Paper: String, Sendable, CaseIterable, Codable {
    case a4, letter

    var size: (width: Double, height: Double) {
        switch self {
        case .a4: (595.28, 841.89)
        case .letter: (612, 792)
        }
    }
}

/// A one-page printable flyer: the headline ("MISSING DOG"), the photo as large as the page
/// allows, the facts, the description, the phone number in large type, a QR code to the pet's
/// page with its address written under it, and tear-off strips with the phone number along the
/// bottom (a reunited pet's flyer has neither phone nor strips).
///
/// Every text sits in a box of its own, clipped and ellipsized to it, and the phone number's box
/// is laid out before the description's, so no description pushes it off the page. The PDF is
/// deterministic: no creation date, the same bytes for the same announcement.
public enum Flyer {
    /// - Parameters:
    ///   - photo: the photo as a JPEG (embedded as it is), or `nil`.
    /// - Returns: the PDF.
    public static func render(_ announcement: SharedAnnouncement, photo: [UInt8]?, paper: Paper = .a4) throws(SharingError) -> [UInt8] {
        let image: ImageSurface? = try photo.map { (bytes) throws(SharingError) in
            do {
                return try ImageSurface(try PhotoPipeline.decode(bytes), jpeg: bytes)
            } catch let error as SharingError {
                throw error
            } catch {
                throw .unreadablePhoto("\(error)")
            }
        }
        let sink = ByteSink()
        let (width, height) = paper.size
        let surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            let sink = Unmanaged<ByteSink>.fromOpaque(closure!).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque(), width, height)!
        defer { cairo_surface_destroy(surface) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE,
                                       [announcement.headline, announcement.petName?.trimmedLine].compactMap { $0 }.joined(separator: " — "))
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "PetSpot")
        do {
            let canvas = Canvas(surface: surface)
            draw(announcement, image: image, on: canvas, width: width, height: height)
            cairo_show_page(canvas.context)
        }
        cairo_surface_finish(surface)
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw .cannotRender(String(cString: cairo_status_to_string(cairo_surface_status(surface))))
        }
        return PDFDates.removed(from: sink.bytes)
    }

    static let margin = 28.0

    private static func draw(_ announcement: SharedAnnouncement, image: ImageSurface?, on canvas: Canvas, width: Double, height: Double) {
        let margin = Self.margin, inner = width - 2 * margin
        let colour = announcement.colour
        var y = margin

        // Headline, as large as the width allows.
        let headlineSize = canvas.fittingSize(announcement.headline, width: inner, size: 76, minimum: 30, bold: true)
        canvas.fill(x: 0, y: 0, width: width, height: y + headlineSize * 1.3 + 10, colour: colour)
        canvas.text(announcement.headline, x: margin, y: y, width: inner, maxHeight: headlineSize * 1.3,
                    font: .init(size: headlineSize, bold: true), colour: (1, 1, 1), alignment: .centre)
        y += headlineSize * 1.3 + 22

        // The bottom first, from the page's edge up: tear-off strips, the page's address, the QR
        // code with the phone number beside it.
        let stripHeight = announcement.phone != nil ? 118.0 : 0
        var bottom = height - margin - stripHeight
        if let phone = announcement.phone {
            drawStrips(announcement, phone: phone, on: canvas, top: bottom + 8, width: width, height: stripHeight - 8)
        }
        let urlFont = Canvas.Font(size: 8)
        let urlHeight = canvas.text(announcement.pageURL, x: 0, y: 0, width: inner, maxHeight: 8 * 1.25 * 2, font: urlFont, draw: false)
        bottom -= urlHeight + 4
        canvas.text(announcement.pageURL, x: margin, y: bottom, width: inner, maxHeight: urlHeight, font: urlFont,
                    colour: (0.2, 0.2, 0.2), alignment: .right)
        let qrSize = 112.0
        let qrTop = bottom - qrSize
        try? canvas.qrCode(announcement.pageURL, x: width - margin - qrSize, y: qrTop, size: qrSize)
        let besideQR = inner - qrSize - 16
        if let phone = announcement.phone {
            let phoneSize = canvas.fittingSize(phone, width: besideQR, size: 40, minimum: 20, bold: true)
            let phoneTop = bottom - phoneSize * 1.3 - 4
            canvas.text("Call or text", x: margin, y: phoneTop - 20, width: besideQR, maxHeight: 20,
                        font: .init(size: 13), colour: (0.25, 0.25, 0.25))
            canvas.text(phone, x: margin, y: phoneTop, width: besideQR, maxHeight: phoneSize * 1.3,
                        font: .init(size: phoneSize, bold: true), colour: colour)
        } else {
            let closing = announcement.status == .reunited ? "Back home — thank you for looking." : "This announcement is closed."
            canvas.text(closing, x: margin, y: bottom - 34, width: besideQR, maxHeight: 30,
                        font: .init(size: 18, bold: true), colour: colour)
        }
        let textBottom = qrTop - 10

        // Between the headline and the QR code: the photo, as large as what is left once the
        // name, the facts and up to six lines of description are laid out (without a photo the
        // description takes all the room).
        let name = announcement.petName?.trimmedLine ?? ""
        let facts = [announcement.traits, announcement.when, announcement.place.trimmedLine].filter { !$0.isEmpty }
        let reward = announcement.reward?.trimmedLine.nonEmpty.map { "Reward: \($0)" }
        let description = announcement.description?.trimmedParagraphs ?? ""
        let nameFont = Canvas.Font(size: 26, bold: true), factFont = Canvas.Font(size: 15)
        let rewardFont = Canvas.Font(size: 16, bold: true), descriptionFont = Canvas.Font(size: 12.5)
        let measure = { (text: String, font: Canvas.Font, lines: Double) in
            canvas.text(text, x: 0, y: 0, width: inner, maxHeight: font.size * 1.25 * lines, font: font, draw: false)
        }
        let nameHeight = name.isEmpty ? 0 : measure(name, nameFont, 1) + 4
        let factsHeight = facts.map { measure($0, factFont, 2) + 2 }.reduce(0, +)
        let rewardHeight = reward.map { measure($0, rewardFont, 2) + 4 } ?? 0
        let descriptionHeight = description.isEmpty ? 0 : measure(description, descriptionFont, 6) + 6
        if let image {
            let photoHeight = max(120, textBottom - y - nameHeight - factsHeight - rewardHeight - descriptionHeight - 12)
            let drawn = canvas.image(image, x: margin, y: y, width: inner, height: photoHeight)
            y = drawn.y + drawn.height + 12
        }
        if !name.isEmpty {
            y += canvas.text(name, x: margin, y: y, width: inner, maxHeight: nameFont.size * 1.25, font: nameFont) + 4
        }
        for fact in facts {
            y += canvas.text(fact, x: margin, y: y, width: inner, maxHeight: factFont.size * 1.25 * 2, font: factFont) + 2
        }
        if let reward {
            y += canvas.text(reward, x: margin, y: y, width: inner, maxHeight: rewardFont.size * 1.25 * 2, font: rewardFont,
                             colour: colour) + 4
        }
        let room = image == nil ? textBottom - y - 6 : min(descriptionHeight, textBottom - y - 6)
        if !description.isEmpty, room > descriptionFont.size {
            canvas.text(description, x: margin, y: y + 6, width: inner, maxHeight: room, font: descriptionFont,
                        colour: (0.1, 0.1, 0.1))
        }
    }

    /// Eight strips across the bottom, each with the phone number and the headline turned on its
    /// side, between dashed cut lines.
    private static func drawStrips(_ announcement: SharedAnnouncement, phone: String, on canvas: Canvas,
                                   top: Double, width: Double, height: Double) {
        let count = 8
        let stripWidth = (width - 2 * margin) / Double(count)
        canvas.dashedLine(from: (margin, top), to: (width - margin, top))
        for index in 0...count {
            let x = margin + Double(index) * stripWidth
            canvas.dashedLine(from: (x, top), to: (x, top + height))
        }
        let context = canvas.context
        for index in 0..<count {
            let x = margin + Double(index) * stripWidth
            cairo_save(context)
            cairo_translate(context, x + stripWidth / 2 - 12, top + height - 4)
            cairo_rotate(context, -Double.pi / 2)
            let size = canvas.fittingSize(phone, width: height - 8, size: 13, minimum: 6, bold: true)
            canvas.text(phone, x: 0, y: 0, width: height - 8, maxHeight: size * 1.3, font: .init(size: size, bold: true))
            canvas.text(announcement.headline, x: 0, y: size * 1.3, width: height - 8, maxHeight: 10, font: .init(size: 8),
                        colour: (0.3, 0.3, 0.3))
            cairo_restore(context)
        }
    }
}

final class ByteSink {
    var bytes: [UInt8] = []
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}

/// cairo 1.16 writes the moment of rendering as `/CreationDate` and `/ModDate`; a flyer is the
/// same document whenever it is made, so the dates are blanked in place (the same length, so
/// the cross-reference offsets stay right): `(D:20261127135500Z)` becomes `(                  )`.
enum PDFDates {
    static func removed(from pdf: [UInt8]) -> [UInt8] {
        var bytes = pdf
        for key in ["/CreationDate (", "/ModDate ("] {
            let pattern = Array(key.utf8)
            var index = 0
            while let found = find(pattern, in: bytes, from: index) {
                var position = found + pattern.count
                while position < bytes.count, bytes[position] != UInt8(ascii: ")") {
                    bytes[position] = UInt8(ascii: " ")
                    position += 1
                }
                index = position
            }
        }
        return bytes
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        for index in start...(bytes.count - pattern.count) where bytes[index] == pattern[0] {
            if bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
        }
        return nil
    }
}
