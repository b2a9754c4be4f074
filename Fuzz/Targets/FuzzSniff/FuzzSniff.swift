import Foundation
import FuzzSupport
import PhotoPipeline

/// `MediaSniffer` on any bytes: only the first `prefixLength` bytes decide, the answer does not
/// depend on the collection type, and an accepted type always starts with its signature.
func fuzzSniff(_ bytes: [UInt8]) -> Int32 {
    let type = MediaSniffer.sniff(bytes)
    Fuzz.require(MediaSniffer.sniff(Data(bytes)) == type, "Data and [UInt8] sniff differently")
    Fuzz.require(MediaSniffer.sniff(bytes[...]) == type, "an ArraySlice sniffs differently")
    let prefix = Array(bytes.prefix(MediaSniffer.prefixLength))
    Fuzz.require(MediaSniffer.sniff(prefix) == type, "bytes after the first \(MediaSniffer.prefixLength) changed the answer")
    if bytes.count >= MediaSniffer.prefixLength {
        Fuzz.require(MediaSniffer.sniff(prefix + [0xFF, 0x00, 0x3C]) == type, "appending bytes past the prefix changed the answer")
    }
    switch type {
    case .jpeg?: Fuzz.require(bytes.starts(with: [0xFF, 0xD8, 0xFF]), "JPEG without its SOI signature")
    case .png?: Fuzz.require(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "PNG without its signature")
    case .webp?: Fuzz.require(bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8),
                              "WebP without RIFF….WEBP")
    case .heic?, .heif?, .avif?: Fuzz.require(Array(bytes[4..<8]) == Array("ftyp".utf8), "HEIF/AVIF without an ftyp box")
    default: break
    }
    return 0
}
