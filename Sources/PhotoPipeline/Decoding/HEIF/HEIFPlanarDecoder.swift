internal import CHEIF
import Synchronization

/// HEIC and AVIF to JPEG or lossy WebP without RGB: the coded tiles are decoded by libde265 (HEVC)
/// or dav1d (AV1) on every worker thread, straight into one set of Y, Cb and Cr planes, which the
/// plane resizer turns into the encoder's planes (as ``JPEGDecoder`` does with a JPEG's own planes).
/// A grid's tiles are shared out between the threads; a single coded image gets the threads itself
/// (libde265's wavefront rows, dav1d's tile and filter threads).
///
/// libheif 1.15 converts each decoded tile to RGB and assembles grids in RGB; for a 12 MP iPhone
/// photo that conversion, the interleaving after it and the page faults on its 36 MB buffers were
/// a third of a prepare. Here nothing is converted: an 8-bit 4:2:0 picture whose matrix is BT.601
/// (what JPEG uses, and libheif's default when none is given) needs at most a range expansion.
///
/// Only the common case takes this path: one `hvc1` or `av01` image or a grid of them, 8-bit 4:2:0,
/// no alpha, no `clap`, BT.601 or unspecified matrix. Everything else, and anything the codec
/// reports a problem with (damaged, truncated, a tile of the wrong size), returns `nil` and goes
/// through libheif, whose strict decoding gives the same errors as before.
struct HEIFPlanarDecoder {
    /// How the primary image is coded.
    struct Layout {
        let codec: HEIFTileCodec
        /// Coded items, row by row.
        let tiles: [UInt32]
        let columns: Int
        let tileSize: PixelSize
        /// The picture as coded (before `irot`/`imir`).
        let size: PixelSize
        /// `irot`/`imir` as the equivalent EXIF orientation.
        let orientation: ExifOrientation
    }

    let container: HEIFContainer

    init(_ container: HEIFContainer) {
        self.container = container
    }

    init(_ bytes: [UInt8]) {
        self.init(HEIFContainer(bytes))
    }

    /// The resized planes, or nil when this file needs libheif.
    func decodeResized(info: ImageInfo, resize request: ResizeRequest, subsampling: ChromaSubsampling) -> DecodedImage? {
        guard !info.hasAlpha, request.orientation == .up, let layout = layout() else { return nil }
        let upright = layout.orientation.swapsDimensions ? layout.size.transposed : layout.size
        guard upright == info.storedSize, layout.codec.isAvailable else { return nil }
        guard let planes = decodeTiles(layout, threads: request.threads, on: request.workers) else { return nil }
        defer { planes.deallocate() }
        let sizes = YCbCrImage.sampledSizes(request.target, subsampling: subsampling)
        let image = try? YCbCrImage.make(size: request.target, subsampling: subsampling) { outputs in
            let resize = PlanarResize(sources: planes.sizes, uprightTargets: sizes, filter: request.filter,
                                      threads: request.threads, orientation: layout.orientation, outputs: outputs)
            let bands = resize.jobs
            request.workers.forEach(bands.count) { worker in
                for band in bands[worker] {
                    band.resizer.push(planes.base[band.plane], count: planes.sizes[band.plane].height,
                                      stride: planes.sizes[band.plane].width)
                }
            }
            precondition(resize.isComplete, "every source row was pushed")
        }
        return image.map { DecodedImage(planes: $0, decodedSize: upright) }
    }

    // MARK: - Layout

    /// The primary image's tiles and transforms, when this decoder can take it.
    func layout() -> Layout? {
        guard let primary = container.primary, let item = container.items[primary] else { return nil }
        let properties = container.properties[primary] ?? []
        guard let orientation = Self.orientation(properties) else { return nil }
        let layout: Layout
        if let codec = HEIFTileCodec(rawValue: item.type) {
            guard let size = Self.ispe(properties) else { return nil }
            layout = Layout(codec: codec, tiles: [primary], columns: 1, tileSize: size, size: size, orientation: orientation)
        } else if item.type == "grid" {
            guard let grid = container.data(of: primary), let descriptor = GridDescriptor(grid),
                  let tiles = container.inputs[primary], tiles.count == descriptor.rows * descriptor.columns,
                  let first = tiles.first, let codec = container.items[first].flatMap({ HEIFTileCodec(rawValue: $0.type) }),
                  let tileSize = Self.ispe(container.properties[first] ?? []),
                  tileSize.width % 2 == 0, tileSize.height % 2 == 0 else { return nil }
            for tile in tiles {
                guard container.items[tile]?.type == codec.rawValue, Self.ispe(container.properties[tile] ?? []) == tileSize,
                      !(container.properties[tile] ?? []).contains(where: Self.isTransform) else { return nil }
            }
            let size = descriptor.size
            // The tiles cover the picture, and no row or column of them lies wholly outside it.
            guard descriptor.columns * tileSize.width >= size.width, (descriptor.columns - 1) * tileSize.width < size.width,
                  descriptor.rows * tileSize.height >= size.height, (descriptor.rows - 1) * tileSize.height < size.height,
                  Self.ispe(properties).map({ $0 == size }) ?? true else { return nil }
            layout = Layout(codec: codec, tiles: tiles, columns: descriptor.columns, tileSize: tileSize, size: size,
                            orientation: orientation)
        } else {
            return nil
        }
        return layout.size.width > 0 && layout.size.height > 0 ? layout : nil
    }

    private static func ispe(_ properties: [HEIFContainer.Property]) -> PixelSize? {
        for case .ispe(let width, let height) in properties { return PixelSize(width: width, height: height) }
        return nil
    }

    private static func isTransform(_ property: HEIFContainer.Property) -> Bool {
        switch property {
        case .irot, .imir, .clap: true
        default: false
        }
    }

    /// The `irot`/`imir` properties, in the order libheif 1.15 applies them, as one EXIF orientation;
    /// nil with a `clap` (crops are left to libheif).
    static func orientation(_ properties: [HEIFContainer.Property]) -> ExifOrientation? {
        var transform = PlaneTransform.identity
        for property in properties {
            switch property {
            case .irot(let turns): for _ in 0..<turns { transform = transform.then(.counterClockwise) }
            // libheif 1.15 reads axis 1 as a left-right mirror and axis 0 as top-bottom.
            case .imir(let axis): transform = transform.then(axis == 1 ? .mirrorLeftRight : .mirrorTopBottom)
            case .clap: return nil
            default: break
            }
        }
        return transform.exifOrientation
    }

    // MARK: - Decoding

    /// The picture's three planes, owned by the caller (deallocate them).
    struct Planes: @unchecked Sendable {
        let base: [UnsafeMutablePointer<UInt8>]
        let sizes: [PixelSize]

        func deallocate() { base.forEach { $0.deallocate() } }
    }

    /// How a tile's samples encode colour: its `colr` nclx, else what its bitstream says.
    private struct TileColour: Equatable {
        let matrix: Int
        let fullRange: Bool
    }

    /// Every tile decoded into full planes, by `threads` jobs on `workers`; nil on anything unexpected.
    private func decodeTiles(_ layout: Layout, threads: Int, on workers: Workers) -> Planes? {
        let chroma = PixelSize(width: (layout.size.width + 1) / 2, height: (layout.size.height + 1) / 2)
        let sizes = [layout.size, chroma, chroma]
        let container = self.container
        // A grid may name one tile many times; its tiles together never hold more than the file.
        // Each tile's stream (its configuration, then its data) is made when it is decoded.
        guard layout.tiles.reduce(0, { $0 + container.dataLength(of: $1) }) <= container.bytes.count else { return nil }
        let planes = Planes(base: sizes.map { .allocate(capacity: $0.pixelCount) }, sizes: sizes)
        let colours = layout.tiles.map { Self.nclx(container.properties[$0] ?? []) }
        let next = Atomic(0)
        let outcome = Mutex<(failed: Bool, colour: TileColour?)>((false, nil))
        // Tiles are shared out between the jobs; a lone image gets the threads inside the codec.
        let jobs = max(1, min(threads, layout.tiles.count))
        let codecThreads = layout.tiles.count == 1 && threads > 1 ? threads : 0
        workers.forEach(jobs) { _ in
            while case let index = next.add(1, ordering: .relaxed).oldValue, index < layout.tiles.count,
                  !outcome.withLock({ $0.failed }) {
                let colour = layout.codec.stream(container, layout.tiles[index]).flatMap { stream in
                    Self.decodeTile(stream, index: index, threads: codecThreads, layout: layout, nclx: colours[index], into: planes)
                }
                outcome.withLock { state in
                    guard let colour, state.colour == nil || state.colour == colour else { state.failed = true; return }
                    state.colour = colour
                }
            }
        }
        let result = outcome.withLock { $0 }
        guard !result.failed, let colour = result.colour, [2, 5, 6].contains(colour.matrix) else {
            planes.deallocate()
            return nil
        }
        if !colour.fullRange { Self.expandRange(planes) }
        return planes
    }

    /// Decodes one tile and copies its visible part into place; its colour description, or nil.
    private static func decodeTile(_ stream: [UInt8], index: Int, threads: Int, layout: Layout, nclx: TileColour?,
                                   into planes: Planes) -> TileColour? {
        layout.codec.decode(stream, threads: threads, maxPixels: layout.tileSize.pixelCount) { picture -> TileColour? in
            guard picture.width == layout.tileSize.width, picture.height == layout.tileSize.height, picture.isEightBit420,
                  picture.coloursKnownToLibheif else { return nil }
            let column = index % layout.columns, row = index / layout.columns
            for plane in 0..<3 {
                let divisor = plane == 0 ? 1 : 2
                let size = planes.sizes[plane]
                // Grid tiles have even sizes; a lone image's chroma rounds up.
                let tileWidth = (layout.tileSize.width + divisor - 1) / divisor, tileHeight = (layout.tileSize.height + divisor - 1) / divisor
                let x = column * tileWidth, y = row * tileHeight
                let width = min(tileWidth, size.width - x), height = min(tileHeight, size.height - y)
                for r in 0..<height {
                    (planes.base[plane] + (y + r) * size.width + x).update(from: picture.planes[plane] + r * picture.strides[plane], count: width)
                }
            }
            // libheif's rule: the item's own nclx, else the bitstream's.
            return nclx ?? TileColour(matrix: picture.matrix, fullRange: picture.fullRange)
        }
    }

    /// Limited range (Y 16…235, chroma 16…240) to JPEG's full range, as libheif converts it.
    private static func expandRange(_ planes: Planes) {
        let luma = (0..<256).map { UInt8(clamping: Int(((Double($0) - 16) * 255 / 219).rounded())) }
        let chroma = (0..<256).map { UInt8(clamping: Int(((Double($0) - 128) * 255 / 224 + 128).rounded())) }
        for plane in 0..<3 {
            let table = plane == 0 ? luma : chroma
            let base = planes.base[plane]
            for i in 0..<planes.sizes[plane].pixelCount { base[i] = table[Int(base[i])] }
        }
    }

    private static func nclx(_ properties: [HEIFContainer.Property]) -> TileColour? {
        for case .nclx(_, let matrix, let fullRange) in properties { return TileColour(matrix: matrix, fullRange: fullRange) }
        return nil
    }
}

/// A grid's descriptor (the grid item's data): rows, columns and the output size.
struct GridDescriptor {
    let rows: Int
    let columns: Int
    let size: PixelSize

    init?(_ data: [UInt8]) {
        guard data.count >= 8, data[0] == 0 else { return nil }
        let wide = data[1] & 1 != 0
        rows = Int(data[2]) + 1
        columns = Int(data[3]) + 1
        let reader = ByteReader(data)
        if wide {
            guard let width = reader.u32(4), let height = reader.u32(8) else { return nil }
            size = PixelSize(width: Int(width), height: Int(height))
        } else {
            guard let width = reader.u16(4), let height = reader.u16(6) else { return nil }
            size = PixelSize(width: Int(width), height: Int(height))
        }
    }
}

/// One of the eight ways to turn and mirror a picture, as where the stored picture's top-left
/// corner and x axis end up; composed step by step and named as an EXIF orientation at the end.
struct PlaneTransform: Equatable {
    /// Unit vectors of the stored x and y axes in the upright picture.
    var x: (Int, Int)
    var y: (Int, Int)

    static let identity = PlaneTransform(x: (1, 0), y: (0, 1))
    /// Rotate 90° counter-clockwise (y points down): (1, 0) → (0, -1).
    static let counterClockwise = PlaneTransform(x: (0, -1), y: (1, 0))
    static let mirrorLeftRight = PlaneTransform(x: (-1, 0), y: (0, 1))
    static let mirrorTopBottom = PlaneTransform(x: (1, 0), y: (0, -1))

    /// This, then `next`.
    func then(_ next: PlaneTransform) -> PlaneTransform {
        func apply(_ v: (Int, Int)) -> (Int, Int) { (v.0 * next.x.0 + v.1 * next.y.0, v.0 * next.x.1 + v.1 * next.y.1) }
        return PlaneTransform(x: apply(x), y: apply(y))
    }

    static func == (a: PlaneTransform, b: PlaneTransform) -> Bool { a.x == b.x && a.y == b.y }

    /// The EXIF orientation that turns stored pixels the same way.
    var exifOrientation: ExifOrientation {
        switch (x, y) {
        case ((1, 0), (0, 1)): .up
        case ((-1, 0), (0, 1)): .upMirrored
        case ((-1, 0), (0, -1)): .down
        case ((1, 0), (0, -1)): .downMirrored
        case ((0, 1), (1, 0)): .leftMirrored     // transpose
        case ((0, 1), (-1, 0)): .right           // 90° clockwise
        case ((0, -1), (-1, 0)): .rightMirrored  // transverse
        default: .left                           // ((0, -1), (1, 0)): 90° counter-clockwise
        }
    }
}
