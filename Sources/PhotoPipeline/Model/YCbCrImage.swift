internal import CCodecs

/// How a JPEG stores chroma: at full resolution, or at half width and height.
enum ChromaSubsampling: Sendable, Hashable {
    case full     // 4:4:4
    case half     // 4:2:0

    var turboJPEG: TJSAMP { self == .full ? TJSAMP_444 : TJSAMP_420 }
}

/// An upright image as the JPEG encoder takes it: Y, Cb and Cr planes, chroma subsampled.
///
/// A JPEG resized in its own colour space (``JPEGDecoder``) stays in it up to the encoder: no
/// chroma upsampling and YCbCr → RGB conversion after decoding, no RGB → YCbCr and downsampling
/// before encoding, and the chroma planes resized at a quarter of the samples.
struct YCbCrImage: Sendable {
    /// The image's size (the Y plane's valid samples).
    let size: PixelSize
    let subsampling: ChromaSubsampling
    /// Y, Cb, Cr; rows of `strides[c]` bytes, `sizes[c].height` rows. The Y plane holds one more row
    /// and sample than that: TurboJPEG reads 4:2:0 luma in whole 2 × 2 blocks (odd sizes) and the
    /// extra bytes repeat the edge. The three share one ``PlaneMemory``.
    var planes: [Plane]

    /// The sizes TurboJPEG expects of each plane of an image of `size` (its tjPlaneWidth and
    /// tjPlaneHeight): 4:4:4 planes are `size`; at 4:2:0 luma is padded to even sizes and chroma
    /// is half of that.
    static func planeSizes(_ size: PixelSize, subsampling: ChromaSubsampling) -> [PixelSize] {
        switch subsampling {
        case .full:
            return [size, size, size]
        case .half:
            let luma = PixelSize(width: (size.width + 1) & ~1, height: (size.height + 1) & ~1)
            let chroma = PixelSize(width: luma.width / 2, height: luma.height / 2)
            return [luma, chroma, chroma]
        }
    }

    /// The sizes of the sampled part of each plane: the Y plane is `size` (TurboJPEG pads it to whole
    /// chroma blocks), chroma as TurboJPEG sizes it.
    static func sampledSizes(_ size: PixelSize, subsampling: ChromaSubsampling) -> [PixelSize] {
        var sizes = planeSizes(size, subsampling: subsampling)
        sizes[0] = size
        return sizes
    }

    var sampledSizes: [PixelSize] { Self.sampledSizes(size, subsampling: subsampling) }

    var strides: [Int] { sampledSizes.map(\.width) }

    /// Makes the planes for `size`, filled by `fill` (one buffer per plane, upright, `sampledSizes[c]`
    /// samples, rows packed; not zeroed first); then the Y plane's extra row and sample are set to
    /// repeat the edge.
    static func make(size: PixelSize, subsampling: ChromaSubsampling,
                     fill: ([UnsafeMutablePointer<UInt8>]) throws(PhotoError) -> Void) throws(PhotoError) -> YCbCrImage {
        let sizes = sampledSizes(size, subsampling: subsampling)
        let lengths = [sizes[0].pixelCount + sizes[0].width + 1, sizes[1].pixelCount, sizes[2].pixelCount]
        let offsets = [0, lengths[0], lengths[0] + lengths[1]]
        let memory = PlaneMemory(count: lengths.reduce(0, +))
        try fill(offsets.map { memory.base + $0 })
        // The padding row repeats the last row; the sample after it, the last sample.
        let width = sizes[0].width
        let last = memory.base + sizes[0].pixelCount - width
        (last + width).update(from: last, count: width)
        memory.base[lengths[0] - 1] = memory.base[lengths[0] - 2]
        return YCbCrImage(size: size, subsampling: subsampling,
                          planes: (0..<3).map { Plane(memory: memory, offset: offsets[$0], count: lengths[$0]) })
    }

    /// The pixels as RGB, through TurboJPEG's own chroma upsampling and colour conversion (for the
    /// rare paths that need pixels: a byte budget that shrinks the photo, a quality that changes
    /// the subsampling).
    func rgb() throws(PhotoError) -> PixelBuffer {
        try CodecLibrary.turboJPEG.load()
        guard let handle = lazy_tjInitDecompress() else { throw .encodingFailed(.jpeg, detail: "TurboJPEG could not start") }
        defer { lazy_tjDestroy(handle) }
        let strides = self.strides.map(Int32.init)
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: size.pixelCount * 3) { buffer, count in
            count = buffer.count
            status = planes[0].withUnsafeBufferPointer { y in
                planes[1].withUnsafeBufferPointer { cb in
                    planes[2].withUnsafeBufferPointer { cr in
                        var sources: [UnsafePointer<UInt8>?] = [y.baseAddress, cb.baseAddress, cr.baseAddress]
                        return lazy_tjDecodeYUVPlanes(handle, &sources, strides, Int32(subsampling.turboJPEG.rawValue),
                                                 buffer.baseAddress, Int32(size.width), 0, Int32(size.height),
                                                 Int32(TJPF_RGB.rawValue), 0)
                    }
                }
            }
        }
        guard status == 0 else { throw .encodingFailed(.jpeg, detail: String(cString: lazy_tjGetErrorStr2(handle))) }
        return PixelBuffer(width: size.width, height: size.height, channels: 3, pixels: pixels)
    }
}
