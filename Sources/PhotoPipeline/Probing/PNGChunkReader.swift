
/// Walks a PNG's chunks: IHDR, transparency, colour profile, eXIf, animation control, and whether
/// the chunk sequence reaches IEND intact (the strictness rule: a missing IEND is a truncated file).
struct PNGChunkReader {
    /// The header fields of IHDR.
    struct Header: Sendable {
        var width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool
    }

    var header: Header?
    var hasTransparencyChunk = false
    /// Colour tags that decide how 16-bit samples are read (see ``PNGDecoder``).
    var hasGammaChunk = false, hasSRGBChunk = false
    /// APNG frame-control chunks, and whether one comes before the IDAT default image.
    var frameControlCount = 0
    var defaultImageIsFrame = false
    private var seenImageData = false
    /// Where the default image's compressed data (the IDAT chunks' contents) lies in the file.
    var imageData: [Range<Int>] = []
    /// The iCCP chunk's profile, inflated (when the file has one).
    var iccProfile: Zlib.Inflated?
    var exif: ExifMetadata?
    /// Whether IEND was reached with every chunk before it complete.
    var isComplete = false
    /// A chunk before the image data whose declared length runs past the end of the file (libpng
    /// would allocate that length while reading the header; after the image data, the missing
    /// IEND refuses the file first).
    var overrunningChunk: (type: String, declared: Int, available: Int)?

    init(_ bytes: [UInt8]) throws(PhotoError) {
        let reader = ByteReader(bytes)
        var offset = 8
        while let length = reader.u32(offset), let type = reader.ascii(offset + 4, length: 4) {
            let dataStart = offset + 8
            guard length <= 0x7FFF_FFFF else { throw .corrupt(.png, detail: "chunk \(type) declares \(length) bytes") }
            let dataLength = Int(length)
            guard reader.contains(dataStart, length: dataLength + 4) else {
                if !seenImageData { overrunningChunk = (type, dataLength, max(0, bytes.count - dataStart)) }
                break
            }
            switch type {
            case "IHDR" where header == nil && dataLength >= 13:
                // PNG allows at most 2^31−1 per side (libpng refuses more); a larger value is damage.
                for side in [reader.u32(dataStart)!, reader.u32(dataStart + 4)!] where side > 0x7FFF_FFFF {
                    throw .corrupt(.png, detail: "the IHDR chunk declares a side of \(side) pixels; PNG allows at most 2147483647")
                }
                header = Header(width: Int(reader.u32(dataStart)!), height: Int(reader.u32(dataStart + 4)!),
                                bitDepth: Int(bytes[dataStart + 8]), colorType: Int(bytes[dataStart + 9]),
                                interlaced: bytes[dataStart + 12] != 0)
            case "tRNS":
                hasTransparencyChunk = true
            case "gAMA":
                hasGammaChunk = true
            case "sRGB":
                hasSRGBChunk = true
            case "fcTL":
                frameControlCount += 1
                if !seenImageData { defaultImageIsFrame = true }
            case "IDAT":
                seenImageData = true
                imageData.append(dataStart..<(dataStart + dataLength))
            case "iCCP" where iccProfile == nil:
                iccProfile = Self.inflateICC(bytes[dataStart..<(dataStart + dataLength)])
            case "eXIf" where exif == nil:
                exif = ExifReader.read(tiff: bytes, base: dataStart, count: dataLength)
            case "IEND":
                isComplete = true
            default:
                break
            }
            if isComplete { break }
            offset = dataStart + dataLength + 4
        }
        if header == nil && bytes.count < 8 + 8 + 13 + 4 {
            throw .truncated(.png, detail: "the file ends before the IHDR header that gives the picture's size")
        }
        guard header != nil else { throw .corrupt(.png, detail: "the IHDR header chunk is missing") }
    }

    /// Whether decoding produces an alpha channel: colour types 4 and 6, or any tRNS chunk.
    var hasAlpha: Bool {
        guard let header else { return false }
        return header.colorType == 4 || header.colorType == 6 || hasTransparencyChunk
    }

    /// Images in the file: every fcTL frame, plus the IDAT default image when it is not one of them.
    var frameCount: Int {
        frameControlCount == 0 ? 1 : frameControlCount + (defaultImageIsFrame ? 0 : 1)
    }

    var summary: String {
        guard let header else { return "" }
        let kind: String = switch header.colorType {
        case 0: "grayscale"
        case 2: "RGB"
        case 3: "palette"
        case 4: "grayscale + alpha"
        case 6: "RGBA"
        default: "colour type \(header.colorType)"
        }
        var parts = ["\(kind) \(header.bitDepth)-bit"]
        if header.interlaced { parts.append("interlaced") }
        if hasTransparencyChunk { parts.append("tRNS") }
        if frameControlCount > 0 { parts.append("APNG, \(frameCount) images") }
        return parts.joined(separator: ", ")
    }

    /// iCCP: a Latin-1 name, a NUL, a compression-method byte (0 = zlib), then the zlib stream,
    /// inflated no further than the largest profile that could be carried.
    private static func inflateICC(_ data: ArraySlice<UInt8>) -> Zlib.Inflated {
        guard let nul = data.prefix(80).firstIndex(of: 0), nul + 2 <= data.endIndex, data[nul + 1] == 0 else { return .damaged }
        return Zlib.inflate(Array(data[(nul + 2)...]), limit: ICCProfileCheck.maximumBytes)
    }
}

extension PNGChunkReader {
    /// The probe result for a PNG file.
    func imageInfo(byteCount: Int) -> ImageInfo {
        let header = self.header!
        var info = ImageInfo(type: .png, storedSize: PixelSize(width: header.width, height: header.height),
                             hasAlpha: hasAlpha,
                             isAnimated: frameCount > 1, frameCount: frameCount,
                             byteCount: byteCount, encodingSummary: summary)
        info.apply(exif)
        switch iccProfile {
        case .complete(let profile): info.carry(profile, grayscale: header.colorType == 0 && !hasAlpha)
        case .overLimit:
            info.droppedICCProfile = ICCProfileDrop(byteCount: ICCProfileCheck.maximumBytes,
                                                    reason: "it inflates to more than \(ByteFormat.string(ICCProfileCheck.maximumBytes)), the limit for a colour profile")
        case .damaged: info.droppedICCProfile = ICCProfileDrop(byteCount: 0, reason: "its iCCP chunk does not inflate (damaged zlib data)")
        case nil: break
        }
        return info
    }
}
