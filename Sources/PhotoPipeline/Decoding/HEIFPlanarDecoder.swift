internal import CHEIF
import Dispatch
import Synchronization

/// HEIC to JPEG or lossy WebP without RGB: the HEVC tiles are decoded by libde265 on every worker
/// thread, straight into one set of Y, Cb and Cr planes, which the plane resizer turns into the
/// encoder's planes (as ``JPEGDecoder`` does with a JPEG's own planes).
///
/// libheif 1.15 converts each decoded tile to RGB and assembles grids in RGB; for a 12 MP iPhone
/// photo that conversion, the interleaving after it and the page faults on its 36 MB buffers were
/// a third of a prepare. Here nothing is converted: an 8-bit 4:2:0 picture whose matrix is BT.601
/// (what JPEG uses, and libheif's default when none is given) needs at most a range expansion.
///
/// Only the common case takes this path: one `hvc1` image or a grid of them, 8-bit 4:2:0, no alpha,
/// no `clap`, BT.601 or unspecified matrix. Everything else, and anything libde265 reports a
/// problem with (damaged, truncated, a tile of the wrong size), returns `nil` and goes through
/// libheif, whose strict decoding gives the same errors as before.
struct HEIFPlanarDecoder {
    /// How the primary image is coded.
    struct Layout {
        /// Coded `hvc1` items, row by row.
        var tiles: [UInt32]
        var columns: Int
        var tileSize: PixelSize
        /// The picture as coded (before `irot`/`imir`).
        var size: PixelSize
        /// `irot`/`imir` as the equivalent EXIF orientation.
        var orientation: ExifOrientation
    }

    let container: HEIFContainer

    init(_ bytes: [UInt8]) {
        container = HEIFContainer(bytes)
    }

    /// The resized planes, or nil when this file needs libheif.
    func decodeResized(info: ImageInfo, request: DecodeRequest, subsampling: ChromaSubsampling) -> DecodedImage? {
        guard !info.hasAlpha, request.orientation == .up, let layout = layout() else { return nil }
        let upright = layout.orientation.swapsDimensions ? layout.size.transposed : layout.size
        guard upright == info.storedSize, pj_hevc_load() != 0 else { return nil }
        guard let planes = decodeTiles(layout, threads: request.threads) else { return nil }
        defer { planes.deallocate() }
        let sizes = YCbCrImage.sampledSizes(request.target, subsampling: subsampling)
        let image = try? YCbCrImage.make(size: request.target, subsampling: subsampling) { outputs in
            let resize = PlanarResize(sources: planes.sizes, uprightTargets: sizes, filter: request.filter,
                                      threads: request.threads, orientation: layout.orientation, outputs: outputs)
            let workers = resize.workers
            DispatchQueue.concurrentPerform(iterations: workers.count) { worker in
                for band in workers[worker] {
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
        var layout: Layout
        switch item.type {
        case "hvc1":
            guard let size = Self.ispe(properties) else { return nil }
            layout = Layout(tiles: [primary], columns: 1, tileSize: size, size: size, orientation: .up)
        case "grid":
            guard let grid = container.data(of: primary), let descriptor = GridDescriptor(grid),
                  let tiles = container.inputs[primary], tiles.count == descriptor.rows * descriptor.columns,
                  let first = tiles.first, let tileSize = Self.ispe(container.properties[first] ?? []),
                  tileSize.width % 2 == 0, tileSize.height % 2 == 0 else { return nil }
            for tile in tiles {
                guard container.items[tile]?.type == "hvc1", Self.ispe(container.properties[tile] ?? []) == tileSize,
                      !(container.properties[tile] ?? []).contains(where: Self.isTransform) else { return nil }
            }
            let size = descriptor.size
            // The tiles cover the picture, and no row or column of them lies wholly outside it.
            guard descriptor.columns * tileSize.width >= size.width, (descriptor.columns - 1) * tileSize.width < size.width,
                  descriptor.rows * tileSize.height >= size.height, (descriptor.rows - 1) * tileSize.height < size.height,
                  Self.ispe(properties).map({ $0 == size }) ?? true else { return nil }
            layout = Layout(tiles: tiles, columns: descriptor.columns, tileSize: tileSize, size: size, orientation: .up)
        default:
            return nil
        }
        guard layout.size.width > 0, layout.size.height > 0, let orientation = Self.orientation(properties) else { return nil }
        layout.orientation = orientation
        return layout
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

    /// A decoded tile's place and what libde265 said about its colours.
    private struct TileColour: Equatable {
        let matrix: Int
        let fullRange: Bool
    }

    /// Every tile decoded into full planes, on `threads` threads; nil on anything unexpected.
    private func decodeTiles(_ layout: Layout, threads: Int) -> Planes? {
        let chroma = PixelSize(width: (layout.size.width + 1) / 2, height: (layout.size.height + 1) / 2)
        let sizes = [layout.size, chroma, chroma]
        let planes = Planes(base: sizes.map { .allocate(capacity: $0.pixelCount) }, sizes: sizes)
        // Each tile's NAL units: the parameter sets of its hvcC, then its data, each after a 4-byte length.
        let streams = layout.tiles.map { Self.stream(container, $0) }
        let colours = layout.tiles.map { Self.nclx(container.properties[$0] ?? []) }
        guard !streams.contains(where: { $0 == nil }) else { planes.deallocate(); return nil }
        let next = Atomic(0)
        let outcome = Mutex<(failed: Bool, colour: TileColour?)>((false, nil))
        let workers = max(1, min(threads, layout.tiles.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while case let index = next.add(1, ordering: .relaxed).oldValue, index < streams.count,
                  !outcome.withLock({ $0.failed }) {
                let colour = Self.decodeTile(streams[index]!, index: index, layout: layout, nclx: colours[index], into: planes)
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
    private static func decodeTile(_ stream: [UInt8], index: Int, layout: Layout, nclx: TileColour?, into planes: Planes) -> TileColour? {
        var picture = pj_hevc_picture()
        var message = [CChar](repeating: 0, count: 256)
        let status = stream.withUnsafeBufferPointer { pj_hevc_decode($0.baseAddress, $0.count, &picture, &message, message.count) }
        guard status == 0 else { return nil }
        defer { pj_hevc_release(&picture) }
        guard picture.width == layout.tileSize.width, picture.height == layout.tileSize.height,
              picture.chroma_format == 1, picture.bits_per_sample == 8 else { return nil }
        let column = index % layout.columns, row = index / layout.columns
        let sources = [picture.planes.0, picture.planes.1, picture.planes.2]
        let strides = [Int(picture.strides.0), Int(picture.strides.1), Int(picture.strides.2)]
        for plane in 0..<3 {
            guard let source = sources[plane] else { return nil }
            let divisor = plane == 0 ? 1 : 2
            let size = planes.sizes[plane]
            let x = column * layout.tileSize.width / divisor, y = row * layout.tileSize.height / divisor
            let width = min(layout.tileSize.width / divisor, size.width - x)
            let height = min(layout.tileSize.height / divisor, size.height - y)
            for r in 0..<height {
                (planes.base[plane] + (y + r) * size.width + x).update(from: source + r * strides[plane], count: width)
            }
        }
        // libheif's rule: the item's own nclx, else the bitstream's VUI.
        return nclx ?? TileColour(matrix: Int(picture.matrix_coefficients), fullRange: picture.full_range != 0)
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

    /// The tile's parameter sets (from `hvcC`) and its data, as 4-byte-length NAL units.
    static func stream(_ container: HEIFContainer, _ item: UInt32) -> [UInt8]? {
        var config: ArraySlice<UInt8>?
        for case .hvcC(let bytes) in container.properties[item] ?? [] { config = bytes }
        guard let config, config.count >= 23, let data = container.data(of: item) else { return nil }
        let c = config.startIndex
        let lengthSize = Int(config[c + 21] & 3) + 1
        var stream: [UInt8] = []
        stream.reserveCapacity(data.count + config.count + 64)
        func append(_ unit: ArraySlice<UInt8>) {
            let n = unit.count
            stream += [UInt8(n >> 24 & 255), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)]
            stream += unit
        }
        var at = c + 23
        for _ in 0..<Int(config[c + 22]) {
            guard at + 3 <= config.endIndex else { return nil }
            let units = Int(config[at + 1]) << 8 | Int(config[at + 2])
            at += 3
            for _ in 0..<units {
                guard at + 2 <= config.endIndex else { return nil }
                let length = Int(config[at]) << 8 | Int(config[at + 1])
                at += 2
                guard length <= config.endIndex - at else { return nil }
                append(config[at..<(at + length)])
                at += length
            }
        }
        var offset = 0
        while offset < data.count {
            guard data.count - offset >= lengthSize else { return nil }
            var length = 0
            for i in 0..<lengthSize { length = length << 8 | Int(data[offset + i]) }
            offset += lengthSize
            guard length <= data.count - offset else { return nil }
            append(data[offset..<(offset + length)])
            offset += length
        }
        return stream
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
