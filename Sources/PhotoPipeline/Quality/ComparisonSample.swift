/// Tiles of a rendered picture side by side in one small picture: what the quality search encodes,
/// decodes and scores at each quality, instead of the whole picture.
///
/// The tiles sit at the centres of a grid over the picture, on 16-pixel boundaries, so each holds
/// the same 8×8 blocks (and 16×16 macroblocks, chroma included) the whole picture's encoding has:
/// a JPEG encoder whose blocks do not depend on their neighbours makes them exactly as in the
/// whole picture. A picture with no more pixels than a sample would have is its own sample.
struct ComparisonSample: Sendable {
    /// The tiles as one picture, in the source's form (planes stay planes).
    let image: RenderedImage
    /// Its pixels, alpha flattened: what a decoded encoding of ``image`` is scored against.
    let reference: PixelBuffer
    /// The sample cut in two along a line between tiles (one part when it cannot be): what two
    /// threads score side by side when one quality is measured.
    let parts: [Part]

    /// One part of the sample, scored with some of its neighbour beyond the cut: butteraugli's
    /// distance at a pixel depends on the pixels around it (blurs some pixels wide, and a
    /// half-resolution pass), and at a picture's edge it has none. Scored without them, a corpus
    /// photo's halves read up to a tenth further than its whole sample.
    struct Part: Sendable {
        /// What is scored, in the sample.
        let window: PixelRect
        /// What is counted, in the window.
        let counted: PixelRect
    }

    /// Pixels of the neighbouring part scored beside each part.
    static let partMargin = 32

    /// Tiles of this side, in pixels: a multiple of 16, so a tile's blocks and macroblocks are the
    /// whole picture's.
    static let tileSide = 64

    /// - Parameters:
    ///   - image: the picture at its output size, upright.
    ///   - tiles: at most this many tiles (the grid follows the picture's aspect ratio).
    ///   - background: what transparent pixels become before scoring.
    init(of image: RenderedImage, tiles: Int, background: RGBColor) throws(PhotoError) {
        let size = image.size
        let side = Self.tileSide
        // About as many rows to columns as the picture's height to width.
        let gridRows = min(tiles, max(1, Int((Double(tiles * size.height) / Double(size.width)).squareRoot().rounded())))
        let down = min(size.height / side, gridRows)
        let across = min(size.width / side, tiles / gridRows)
        if across < 1 || down < 1 || across * down * side * side * 2 >= size.pixelCount {
            // Small: the whole picture.
            self.image = image
            reference = try image.rgb().flattened(onto: background)
            parts = [Self.whole(size)]
            return
        }
        parts = Self.halves(across: across, down: down, side: side)
        let origins = Self.origins(size: size, across: across, down: down, side: side)
        switch image {
        case .planes(let planes, _):
            let mosaic = try planes.tiles(origins, side: side, columns: across)
            self.image = .planes(mosaic, encoded: nil)
            reference = try mosaic.rgb()
        case .pixels(let pixels):
            let mosaic = pixels.tiles(origins, side: side, columns: across)
            self.image = .pixels(mosaic)
            reference = mosaic.flattened(onto: background)
        }
    }

    /// The whole of a sample of `size` as its one part.
    static func whole(_ size: PixelSize) -> Part {
        let all = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
        return Part(window: all, counted: all)
    }

    /// A mosaic of `across` × `down` tiles cut in two: between columns of tiles when it has two
    /// or more, else between rows; each half with ``partMargin`` pixels of the other.
    static func halves(across: Int, down: Int, side: Int) -> [Part] {
        let size = PixelSize(width: across * side, height: down * side)
        guard across >= 2 || down >= 2 else { return [whole(size)] }
        let betweenColumns = across >= 2
        let length = betweenColumns ? size.width : size.height
        let cut = (betweenColumns ? across : down) / 2 * side, margin = partMargin
        /// The band from `start` to `end` along the cut's axis, whole across the other.
        func band(_ start: Int, _ end: Int) -> PixelRect {
            betweenColumns ? PixelRect(x: start, y: 0, width: end - start, height: size.height)
                : PixelRect(x: 0, y: start, width: size.width, height: end - start)
        }
        return [Part(window: band(0, cut + margin), counted: band(0, cut)),
                Part(window: band(cut - margin, length), counted: band(margin, length - cut + margin))]
    }

    /// The top-left corners of the tiles, row by row: the centres of an `across` × `down` grid,
    /// moved to the 16-pixel boundary at or before them.
    static func origins(size: PixelSize, across: Int, down: Int, side: Int) -> [(x: Int, y: Int)] {
        (0..<down).flatMap { row in
            (0..<across).map { column in
                let x = (size.width * (2 * column + 1) / (2 * across) - side / 2) / 16 * 16
                let y = (size.height * (2 * row + 1) / (2 * down) - side / 2) / 16 * 16
                return (min(max(0, x), (size.width - side) / 16 * 16), min(max(0, y), (size.height - side) / 16 * 16))
            }
        }
    }
}

extension PixelBuffer {
    /// The `side` × `side` tiles at `origins`, laid out `columns` to a row.
    func tiles(_ origins: [(x: Int, y: Int)], side: Int, columns: Int) -> PixelBuffer {
        let rows = (origins.count + columns - 1) / columns
        var mosaic = PixelBuffer(width: side * columns, height: side * rows, channels: channels)
        mosaic.pixels.withUnsafeMutableBufferPointer { target in
            pixels.withUnsafeBufferPointer { source in
                for (index, origin) in origins.enumerated() {
                    let left = index % columns * side, top = index / columns * side
                    for row in 0..<side {
                        let from = ((origin.y + row) * width + origin.x) * channels
                        let to = ((top + row) * mosaic.width + left) * channels
                        (target.baseAddress! + to).update(from: source.baseAddress! + from, count: side * channels)
                    }
                }
            }
        }
        return mosaic
    }
}

extension YCbCrImage {
    /// The `side` × `side` tiles at `origins` (on 16-pixel boundaries), laid out `columns` to a
    /// row, chroma with them at its own resolution.
    func tiles(_ origins: [(x: Int, y: Int)], side: Int, columns: Int) throws(PhotoError) -> YCbCrImage {
        let rows = (origins.count + columns - 1) / columns
        let size = PixelSize(width: side * columns, height: side * rows)
        let scale = subsampling == .half ? 2 : 1
        let sourceStrides = strides
        return try YCbCrImage.make(size: size, subsampling: subsampling) { targets throws(PhotoError) in
            let targetStrides = YCbCrImage.sampledSizes(size, subsampling: subsampling).map(\.width)
            for plane in 0..<3 {
                let factor = plane == 0 ? 1 : scale, tileSide = side / factor
                planes[plane].withUnsafeBufferPointer { source in
                    for (index, origin) in origins.enumerated() {
                        let left = index % columns * tileSide, top = index / columns * tileSide
                        for row in 0..<tileSide {
                            let from = source.baseAddress! + (origin.y / factor + row) * sourceStrides[plane] + origin.x / factor
                            (targets[plane] + (top + row) * targetStrides[plane] + left).update(from: from, count: tileSide)
                        }
                    }
                }
            }
        }
    }
}
