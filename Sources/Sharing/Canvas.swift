import CCairo
import CQREncode
import PhotoPipeline

#if canImport(Glibc)
import Glibc
#endif

/// A cairo drawing context with the few things flyers and cards draw: text through pango (any
/// script: fontconfig falls back from DejaVu to Noto for Arabic, Hebrew, CJK, …), photos, boxes
/// and a QR code. Units are the surface's: points on a PDF page, pixels on an image.
final class Canvas {
    let context: OpaquePointer

    /// The fonts tried in order for each character.
    static let fontFamilies = "DejaVu Sans, Noto Sans, Noto Sans CJK SC, Noto Sans Arabic, Noto Sans Hebrew, Noto Color Emoji"

    init(surface: OpaquePointer) {
        context = cairo_create(surface)
    }

    deinit { cairo_destroy(context) }

    struct Font {
        var size: Double
        var bold = false
    }

    enum Alignment { case left, centre, right }

    func setColour(_ colour: (red: Double, green: Double, blue: Double)) {
        cairo_set_source_rgb(context, colour.red, colour.green, colour.blue)
    }

    func fill(x: Double, y: Double, width: Double, height: Double, colour: (red: Double, green: Double, blue: Double)) {
        setColour(colour)
        cairo_rectangle(context, x, y, width, height)
        cairo_fill(context)
    }

    /// Draws `text` in a box `width` wide starting at (`x`, `y`), wrapped at words (and inside a
    /// word longer than the line), at most `maxHeight` tall: what does not fit ends in "…".
    /// - Returns: the height drawn.
    @discardableResult
    func text(_ text: String, x: Double, y: Double, width: Double, maxHeight: Double, font: Font,
              colour: (red: Double, green: Double, blue: Double) = (0, 0, 0), alignment: Alignment = .left,
              draw: Bool = true) -> Double {
        guard !text.isEmpty, width > 0, maxHeight > 0 else { return 0 }
        let layout = self.layout(text, font: font)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_width(layout, Int32(width * Double(PANGO_SCALE)))
        pango_layout_set_height(layout, Int32(maxHeight * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        pango_layout_set_alignment(layout, alignment == .left ? PANGO_ALIGN_LEFT : alignment == .centre ? PANGO_ALIGN_CENTER : PANGO_ALIGN_RIGHT)
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        let height = min(maxHeight, Double(logical.height) / Double(PANGO_SCALE))
        if draw {
            cairo_save(context)
            // Clip to the box: no glyph can reach outside it, whatever the text holds.
            cairo_rectangle(context, x, y, width, maxHeight)
            cairo_clip(context)
            setColour(colour)
            cairo_move_to(context, x, y)
            pango_cairo_show_layout(context, layout)
            cairo_restore(context)
        }
        return height
    }

    /// The width of `text` on one line.
    func lineWidth(_ text: String, font: Font) -> Double {
        let layout = self.layout(text, font: font)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        return Double(logical.width) / Double(PANGO_SCALE)
    }

    /// The largest size up to `size` at which `text` fits `width` on one line (not below `minimum`).
    func fittingSize(_ text: String, width: Double, size: Double, minimum: Double, bold: Bool) -> Double {
        let measured = lineWidth(text, font: Font(size: size, bold: bold))
        guard measured > width else { return size }
        return max(minimum, (size * width / measured * 0.98).rounded(.down))
    }

    private func layout(_ text: String, font: Font) -> OpaquePointer {
        let layout = pango_cairo_create_layout(context)!
        let description = pango_font_description_from_string(Self.fontFamilies)
        pango_font_description_set_absolute_size(description, font.size * Double(PANGO_SCALE))
        pango_font_description_set_weight(description, font.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        pango_layout_set_text(layout, text, -1)
        return layout
    }

    /// Draws `image` scaled to fit inside the box, centred.
    /// - Returns: the rectangle it took.
    @discardableResult
    func image(_ image: ImageSurface, x: Double, y: Double, width: Double, height: Double) -> (x: Double, y: Double, width: Double, height: Double) {
        let scale = min(width / Double(image.width), height / Double(image.height))
        let drawnWidth = Double(image.width) * scale, drawnHeight = Double(image.height) * scale
        let left = x + (width - drawnWidth) / 2, top = y + (height - drawnHeight) / 2
        cairo_save(context)
        cairo_translate(context, left, top)
        cairo_scale(context, scale, scale)
        cairo_set_source_surface(context, image.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_GOOD)
        cairo_paint(context)
        cairo_restore(context)
        return (left, top, drawnWidth, drawnHeight)
    }

    /// A QR code of `text` with its quiet zone, `size` square, black on white; dark modules
    /// are drawn a row's run at a time, so viewers show no seams between them.
    func qrCode(_ text: String, x: Double, y: Double, size: Double) throws(SharingError) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            throw .cannotRender("libqrencode could not encode \(text.utf8.count) bytes")
        }
        defer { QRcode_free(code) }
        let modules = Int(code.pointee.width)
        let quiet = 4
        let module = size / Double(modules + 2 * quiet)
        fill(x: x, y: y, width: size, height: size, colour: (1, 1, 1))
        setColour((0, 0, 0))
        let data = code.pointee.data!
        for row in 0..<modules {
            var column = 0
            while column < modules {
                guard data[row * modules + column] & 1 == 1 else { column += 1; continue }
                let start = column
                while column < modules && data[row * modules + column] & 1 == 1 { column += 1 }
                cairo_rectangle(context, x + Double(quiet + start) * module, y + Double(quiet + row) * module,
                                Double(column - start) * module, module)
            }
        }
        cairo_fill(context)
    }

    func dashedLine(from: (x: Double, y: Double), to: (x: Double, y: Double), width: Double = 0.6) {
        cairo_save(context)
        var dashes: [Double] = [4, 3]
        cairo_set_dash(context, &dashes, 2, 0)
        cairo_set_line_width(context, width)
        setColour((0.35, 0.35, 0.35))
        cairo_move_to(context, from.x, from.y)
        cairo_line_to(context, to.x, to.y)
        cairo_stroke(context)
        cairo_restore(context)
    }
}

/// A cairo image surface holding decoded pixels; for PDF output it also carries the JPEG they
/// came from, which cairo then embeds as it is (DCTDecode) instead of re-compressing pixels.
final class ImageSurface {
    let surface: OpaquePointer
    let width: Int
    let height: Int

    init(_ pixels: PixelBuffer, jpeg: [UInt8]? = nil) throws(SharingError) {
        width = pixels.width
        height = pixels.height
        surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let base = cairo_image_surface_get_data(surface) else {
            cairo_surface_destroy(surface)
            throw .cannotRender("cairo could not make a \(width)×\(height) image")
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        for y in 0..<height {
            let row = UnsafeMutableRawPointer(base + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let (r, g, b, _) = pixels.rgba(x: x, y: y)
                row[x] = 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
            }
        }
        cairo_surface_mark_dirty(surface)
        if let jpeg, let copy = malloc(jpeg.count) {
            jpeg.withUnsafeBytes { _ = memcpy(copy, $0.baseAddress!, jpeg.count) }
            cairo_surface_set_mime_data(surface, "image/jpeg", copy.assumingMemoryBound(to: UInt8.self),
                                        UInt(jpeg.count), { free($0) }, copy)
        }
    }

    deinit { cairo_surface_destroy(surface) }
}

/// Why a flyer or card could not be made.
public enum SharingError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotRender(String)
    case unreadablePhoto(String)

    public var description: String {
        switch self {
        case .cannotRender(let reason): "The flyer or card could not be drawn: \(reason)."
        case .unreadablePhoto(let reason): "The photo could not be read for the flyer or card: \(reason)."
        }
    }
}
