internal import CCodecs

/// JPEG through TurboJPEG's `tjCompress2`, 4:2:0 chroma (4:4:4 at quality ≥ 90), optionally progressive.
/// TurboJPEG 2.1 cannot embed an ICC profile, so APP2 `ICC_PROFILE` segments are spliced in after the JFIF header.
struct JPEGEncoder: ImageEncoding {
    func encode(_ image: PixelBuffer, options: EncodingOptions, iccProfile: [UInt8]?) throws(PhotoError) -> [UInt8] {
        try CodecLibrary.turboJPEG.load()
        guard let handle = lazy_tjInitCompress() else { throw .encodingFailed(.jpeg, detail: "TurboJPEG could not start") }
        defer { lazy_tjDestroy(handle) }
        let format = image.channels == 1 ? TJPF_GRAY : TJPF_RGB
        let subsampling = image.channels == 1 ? TJSAMP_GRAY : Self.subsampling(quality: options.quality).turboJPEG
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { lazy_tjFree(output) }
        let flags = TJFLAG_ACCURATEDCT | (options.progressive ? TJFLAG_PROGRESSIVE : 0)
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            lazy_tjCompress2(handle, pixels.baseAddress, Int32(image.width), 0, Int32(image.height), format.rawValue,
                        &output, &size, Int32(subsampling.rawValue), Int32(min(100, max(1, options.quality))), flags)
        }
        guard status == 0, let output else {
            throw .encodingFailed(.jpeg, detail: String(cString: lazy_tjGetErrorStr2(handle)))
        }
        return Self.finish(output, size: size, iccProfile: iccProfile)
    }

    /// The chroma subsampling a quality gets: full chroma from 90 up, where 4:2:0 would be the
    /// largest loss left.
    static func subsampling(quality: Int) -> ChromaSubsampling { quality >= 90 ? .full : .half }

    /// Encodes planes as they are (``YCbCrImage``: the JPEG decoder's resized planes), with no
    /// colour conversion or chroma downsampling; `options.quality` must ask for the planes' subsampling.
    func encode(_ image: YCbCrImage, options: EncodingOptions, iccProfile: [UInt8]?) throws(PhotoError) -> [UInt8] {
        precondition(Self.subsampling(quality: options.quality) == image.subsampling, "the planes are subsampled for another quality")
        try CodecLibrary.turboJPEG.load()
        guard let handle = lazy_tjInitCompress() else { throw .encodingFailed(.jpeg, detail: "TurboJPEG could not start") }
        defer { lazy_tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { lazy_tjFree(output) }
        let flags = TJFLAG_ACCURATEDCT | (options.progressive ? TJFLAG_PROGRESSIVE : 0)
        let strides = image.strides.map(Int32.init)
        let status = image.planes[0].withUnsafeBufferPointer { y in
            image.planes[1].withUnsafeBufferPointer { cb in
                image.planes[2].withUnsafeBufferPointer { cr in
                    var sources: [UnsafePointer<UInt8>?] = [y.baseAddress, cb.baseAddress, cr.baseAddress]
                    return lazy_tjCompressFromYUVPlanes(handle, &sources, Int32(image.size.width), strides, Int32(image.size.height),
                                                   Int32(image.subsampling.turboJPEG.rawValue), &output, &size,
                                                   Int32(min(100, max(1, options.quality))), flags)
                }
            }
        }
        guard status == 0, let output else {
            throw .encodingFailed(.jpeg, detail: String(cString: lazy_tjGetErrorStr2(handle)))
        }
        return Self.finish(output, size: size, iccProfile: iccProfile)
    }

    /// TurboJPEG's output as bytes, with the ICC profile spliced in.
    private static func finish(_ output: UnsafeMutablePointer<UInt8>, size: UInt, iccProfile: [UInt8]?) -> [UInt8] {
        let jpeg = Array(UnsafeBufferPointer(start: output, count: Int(size)))
        guard let iccProfile, !iccProfile.isEmpty else { return jpeg }
        return embedding(iccProfile, in: jpeg)
    }

    /// Inserts the profile as APP2 "ICC_PROFILE" segments (at most 65 519 bytes each) after SOI and JFIF APP0.
    static func embedding(_ profile: [UInt8], in jpeg: [UInt8]) -> [UInt8] {
        var insertAt = 2
        if jpeg.count > 6, jpeg[2] == 0xFF, jpeg[3] == 0xE0 {
            insertAt = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
        }
        let chunkSize = 65_519
        let chunks = stride(from: 0, to: profile.count, by: chunkSize).map { Array(profile[$0..<min($0 + chunkSize, profile.count)]) }
        guard chunks.count <= 255 else { return jpeg }
        var segments: [UInt8] = []
        for (index, chunk) in chunks.enumerated() {
            let length = 2 + 12 + 2 + chunk.count
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)]
            segments += Array("ICC_PROFILE\0".utf8) + [UInt8(index + 1), UInt8(chunks.count)] + chunk
        }
        return Array(jpeg[0..<insertAt]) + segments + Array(jpeg[insertAt...])
    }
}
