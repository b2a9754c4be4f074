import FuzzSupport
import PhotoPipeline

/// The whole `prepare` with small limits (1 MP declared, 8 MB, 256 px out), so the fuzzer explores
/// the parsers and codecs rather than huge allocations, and every input decodes in well under the
/// 2 s that count as a hang: the pixel limit bounds the work of a decode (a 45 KB HEIC declaring
/// 1600×1200 took libheif 0.69 s outside the sanitizers, and the target decodes it more than once). The input's length picks the output format,
/// the quality (or `--quality auto`'s search), one or two workers and whether a byte budget
/// applies, so every seed exercises all three encoders and both JPEG paths.
///
/// With two workers a JPEG with restart markers is decoded in two row bands, and a progressive one
/// as luma and chroma by two decompressors, whatever its size.
///
/// Invariants: a refusal is a bad-input error (never an encoder failure or an option error); a
/// success fits the size and the budget, an automatic quality lies in its range, decodes to the size it reports, carries no orientation,
/// GPS or date, and the source decodes to the size its header announced; with two workers, a JPEG
/// gives the same bytes through the single decoder (row bands and the component split change nothing).
func fuzzPrepare(_ bytes: [UInt8]) -> Int32 {
    let limits = PhotoLimits(maxInputBytes: 8 << 20, maxPixels: 1_000_000)
    let format = OutputFormat.allCases[bytes.count % 3]
    let budget: Int? = bytes.count % 5 == 0 ? 12_000 : nil
    // Two workers (odd lengths) also run the JPEG encoder alongside the resize; quality 95 gives 4:4:4.
    var options = PrepareOptions(maxDimension: 256, encoding: EncodingOptions(format: format, quality: bytes.count % 7 == 0 ? 95 : 80),
                                 maxBytes: budget, minDimension: 32, limits: limits, threads: bytes.count % 2 == 1 ? 2 : 1)
    options.twoDecoderMinimumPixels = 0
    // One length in eleven chooses the quality by butteraugli (`--quality auto`).
    if bytes.count % 11 == 0 { options.autoQuality = AutoQuality() }
    let photo: PreparedPhoto
    do {
        photo = try PhotoPipeline.prepare(bytes, options: options)
    } catch {
        Fuzz.require(error.isBadInput, "prepare failed with \(error.code): \(error)")
        if case .budgetUnreachable = error { Fuzz.require(budget != nil, "budget-unreachable without a budget") }
        return 0
    }
    let info = photo.source
    if options.threads == 2, info.type == .jpeg {
        options.twoDecoderMinimumPixels = nil
        let single = try? PhotoPipeline.prepare(bytes, options: options)
        if single?.data != photo.data {
            // Only row bands may differ: their JPEG is two halves joined at a restart marker (a DRI
            // segment the single encoder never writes), with the same pixels.
            let joined = photo.data.indices.dropLast().contains { photo.data[$0] == 0xFF && photo.data[$0 + 1] == 0xDD }
            let pixels = single.flatMap { try? PhotoPipeline.decode($0.data).pixels }
            Fuzz.require(joined && pixels != nil && pixels == (try? PhotoPipeline.decode(photo.data).pixels),
                         "row bands or the component split gave another picture than the single decoder")
        }
    }
    Fuzz.require(photo.size.longEdge <= 256 && photo.size.width >= 1 && photo.size.height >= 1, "output size \(photo.size)")
    if let auto = options.autoQuality, format != .png, budget == nil {
        Fuzz.require(auto.searched(for: format).contains(photo.quality) || photo.quality == options.encoding.quality,
                     "auto chose q\(photo.quality), outside \(auto.searched(for: format))")
        Fuzz.require(photo.estimatedDistance.map { $0.isFinite && $0 >= 0 } ?? true, "estimated distance \(photo.estimatedDistance!)")
    }
    if budget == nil {
        Fuzz.require(photo.size == info.uprightSize.fitting(longEdge: 256),
                     "\(photo.size) is not \(info.uprightSize) fitted into 256 px")
    } else {
        Fuzz.require(photo.data.count <= budget!, "\(photo.data.count) bytes over the \(budget!)-byte budget")
    }
    let output: ImageInfo
    do {
        output = try PhotoPipeline.inspect(photo.data)
    } catch {
        Fuzz.require(false, "our own output cannot be probed: \(error)")
        return 0
    }
    Fuzz.require(output.type == format.mediaType, "asked for \(format), wrote \(output.type)")
    Fuzz.require(output.storedSize == photo.size, "output header says \(output.storedSize), result says \(photo.size)")
    Fuzz.require(output.orientationTag == nil && output.gps == nil && output.capturedAt == nil, "metadata leaked into the output")
    do {
        let pixels = try PhotoPipeline.decode(photo.data)
        Fuzz.require(pixels.width == photo.size.width && pixels.height == photo.size.height,
                     "output decodes to \(pixels.width)×\(pixels.height), not \(photo.size)")
        let source = try PhotoPipeline.decode(bytes, limits: limits)
        Fuzz.require(source.width == info.uprightSize.width && source.height == info.uprightSize.height,
                     "the source decodes to \(source.width)×\(source.height) but its header announced \(info.uprightSize)")
    } catch {
        Fuzz.require(false, "decoding after a successful prepare failed: \(error)")
    }
    return 0
}
