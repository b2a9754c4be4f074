import FuzzSupport
@testable import PhotoPipeline

/// The header probe (JPEG markers, EXIF/TIFF IFDs, PNG chunks, WebP chunks, ISO-BMFF boxes):
/// bounded reads only, a refusal is one of the named errors, and what it reports is consistent
/// with the bytes (type, byte count, an ICC profile that fits in the file) and repeatable.
func fuzzProbe(_ bytes: [UInt8]) -> Int32 {
    let info: ImageInfo
    do {
        info = try HeaderProbe.probe(bytes)
    } catch {
        switch error {
        case .empty: Fuzz.require(bytes.isEmpty, "empty for \(bytes.count) bytes")
        case .notAnImage: Fuzz.require(MediaSniffer.sniff(bytes) == nil, "not-an-image for a sniffed type")
        case .unsupportedType(let type): Fuzz.require(!type.isAccepted, "an accepted type refused as unsupported")
        case .truncated, .corrupt, .invalidDimensions, .tooManyPixels, .tooCostlyToDecode: break
        default: Fuzz.require(false, "the probe threw \(error.code): \(error)")
        }
        Fuzz.require(!error.description.isEmpty, "an error without a message")
        return 0
    }
    Fuzz.require(info.type == MediaSniffer.sniff(bytes), "probed as \(info.type) but sniffed as \(String(describing: MediaSniffer.sniff(bytes)))")
    Fuzz.require(info.type.isAccepted, "probed an unaccepted type")
    Fuzz.require(info.byteCount == bytes.count, "byteCount \(info.byteCount) for \(bytes.count) bytes")
    Fuzz.require(info.storedSize.width >= 0 && info.storedSize.height >= 0, "negative size \(info.storedSize)")
    // A carried profile is at most 1 MiB (PNG's iCCP may inflate past the file's size, not past that),
    // and passed the checks: its header's size field is its length, it carries 'acsp'.
    if let profile = info.iccProfile {
        let bound = info.type == .png ? ICCProfileCheck.maximumBytes : min(bytes.count, ICCProfileCheck.maximumBytes)
        Fuzz.require(profile.count <= bound, "an ICC profile of \(profile.count) bytes, over \(bound)")
        Fuzz.require(profile.count >= 128 && profile[36..<40].elementsEqual("acsp".utf8), "a carried profile without 'acsp'")
        let declared = Int(profile[0]) << 24 | Int(profile[1]) << 16 | Int(profile[2]) << 8 | Int(profile[3])
        Fuzz.require(declared == profile.count, "a carried profile whose size field says \(declared) for \(profile.count) bytes")
        Fuzz.require(info.droppedICCProfile == nil, "a profile both carried and dropped")
    }
    if let dropped = info.droppedICCProfile { Fuzz.require(!dropped.reason.isEmpty, "a dropped profile without a reason") }
    Fuzz.require(info.frameCount >= 1, "\(info.frameCount) frames")
    Fuzz.require(info.uprightSize.pixelCount == info.storedSize.pixelCount, "orientation changed the pixel count")
    Fuzz.require((try? HeaderProbe.probe(bytes)) == info, "a second probe of the same bytes differs")
    return 0
}
