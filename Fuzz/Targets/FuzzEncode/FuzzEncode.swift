import Foundation
import FuzzSupport
@testable import PhotoPipeline

/// Our JPEG encoder on any planes or pixels: the first five bytes choose the size (1–256 × 1–256),
/// the quality (1–100), the input (YCbCr planes at the quality's subsampling, RGB or grey pixels)
/// and progressive output; the rest are the samples, repeated to fill the picture.
///
/// Invariants: the file probes as a JPEG of that size and decodes to it (libjpeg-turbo, which
/// refuses damaged data); a baseline file in two parts, joined at a restart marker, decodes to the
/// very pixels of the file made in one part; the AVX2 transform writes the portable one's bytes;
/// and at quality 100 from 4:4:4 planes the picture is the planes' within a few levels.
func fuzzEncode(_ bytes: [UInt8]) -> Int32 {
    guard bytes.count >= 6 else { return -1 }
    let size = PixelSize(width: 1 + Int(bytes[0]), height: 1 + Int(bytes[1]))
    let quality = 1 + Int(bytes[2]) % 100
    let input = bytes[3] % 3  // 0 planes, 1 RGB pixels, 2 grey pixels
    let options = EncodingOptions(quality: quality, progressive: bytes[4] & 1 == 1)
    let samples = Array(bytes[5...])
    func fill(_ count: Int, from offset: Int) -> [UInt8] {
        (0..<count).map { samples[(offset + $0) % samples.count] }
    }
    let subsampling = JPEGEncoder.subsampling(quality: quality)
    let jpeg: [UInt8]
    var planes: YCbCrImage?
    do {
        switch input {
        case 0:
            let image = try YCbCrImage.make(size: size, subsampling: subsampling) { outputs in
                for (c, plane) in YCbCrImage.sampledSizes(size, subsampling: subsampling).enumerated() {
                    outputs[c].update(from: fill(plane.pixelCount, from: c * 7919), count: plane.pixelCount)
                }
            }
            planes = image
            jpeg = try JPEGEncoder(workers: Workers()).encode(image, options: options, iccProfile: nil)
        default:
            let channels = input == 1 ? 3 : 1
            let pixels = PixelBuffer(width: size.width, height: size.height, channels: channels,
                                     pixels: fill(size.pixelCount * channels, from: 0))
            jpeg = try JPEGEncoder(workers: Workers()).encode(pixels, options: options, iccProfile: nil)
        }
    } catch {
        Fuzz.require(false, "the encoder refused \(size) q\(quality): \(error)")
        return 0
    }
    let decoded: PixelBuffer
    do {
        let info = try PhotoPipeline.inspect(jpeg)
        Fuzz.require(info.type == .jpeg && info.storedSize == size, "wrote a \(info.type) of \(info.storedSize), not a \(size) JPEG")
        decoded = try PhotoPipeline.decode(jpeg)
    } catch {
        Fuzz.require(false, "our own \(size) q\(quality) JPEG does not decode: \(error)")
        return 0
    }
    Fuzz.require(decoded.width == size.width && decoded.height == size.height, "decodes to \(decoded.width)×\(decoded.height)")
    Fuzz.require(decoded.channels == (input == 2 ? 1 : 3), "\(decoded.channels) channels from input \(input)")
    guard let planes else { return 0 }
    do {
        let whole = try encode(planes, options: options, parts: 1, baseline: false)
        let portable = try encode(planes, options: options, parts: 2, baseline: true)
        Fuzz.require(portable == jpeg, "the portable transform wrote other bytes than the AVX2 one")
        let onePart = try PhotoPipeline.decode(whole)
        Fuzz.require(onePart == decoded, "the file in two parts decodes to other pixels than the file in one")
        if quality == 100 && subsampling == .full {
            let expected = try planes.rgb()
            let difference = zip(expected.pixels, decoded.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            Fuzz.require(difference <= 6 * expected.pixels.count, "q100 is \(Double(difference) / Double(expected.pixels.count)) levels off on average")
        }
    } catch {
        Fuzz.require(false, "encoding \(size) q\(quality) again failed: \(error)")
    }
    return 0
}

/// The planes' file, in `parts` parts, with the portable transform when `baseline`.
private func encode(_ image: YCbCrImage, options: EncodingOptions, parts: Int, baseline: Bool) throws(PhotoError) -> [UInt8] {
    let writer = try JPEGWriter(size: image.size, subsampling: image.subsampling, options: options, parts: parts,
                                baselineKernels: baseline)
    try image.planes[0].withUnsafeBufferPointer { (y) throws(PhotoError) in
        try image.planes[1].withUnsafeBufferPointer { (cb) throws(PhotoError) in
            try image.planes[2].withUnsafeBufferPointer { (cr) throws(PhotoError) in
                let pointers = [y.baseAddress!, cb.baseAddress!, cr.baseAddress!]
                for rows in [0..<writer.splitRow, writer.splitRow..<writer.imcuRows] where !rows.isEmpty {
                    try writer.encode(rows: rows, planes: pointers, sizes: image.sampledSizes)
                }
            }
        }
    }
    return try writer.finish(on: nil)
}

/// Seeds: a gradient, stripes and noise, as planes, RGB and grey, baseline and progressive.
func writeSeeds() {
    var files: [String: Data] = [:]
    var state: UInt32 = 7
    let noise = (0..<4096).map { _ -> UInt8 in
        state = state &* 1_664_525 &+ 1_013_904_223
        return UInt8(truncatingIfNeeded: state >> 24)
    }
    for (name, header, body) in [
        ("gradient-planes-q85", [UInt8]([63, 47, 84, 0, 0]), (0..<256).map { UInt8($0) }),
        ("stripes-rgb-q95", [99, 33, 94, 1, 0], (0..<64).map { UInt8($0 % 2 == 0 ? 250 : 5) }),
        ("noise-grey-q50-progressive", [40, 71, 49, 2, 1], noise),
        ("noise-planes-q100", [31, 31, 99, 0, 0], noise),
    ] {
        files[name] = Data(header + body)
    }
    Seeds.write(files)
}
