#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads orientation, GPS position and capture date from an EXIF (TIFF-structured) block.
///
/// Every read is bounds-checked, IFD chains are followed at most once per offset (no loops on
/// hostile files), and anything malformed simply yields `nil` for that value.
enum ExifReader {
    private enum Tag {
        static let orientation: UInt16 = 0x0112
        static let dateTime: UInt16 = 0x0132
        static let exifIFD: UInt16 = 0x8769
        static let gpsIFD: UInt16 = 0x8825
        static let dateTimeOriginal: UInt16 = 0x9003
        static let dateTimeDigitized: UInt16 = 0x9004
        static let offsetTimeOriginal: UInt16 = 0x9011
        static let gpsLatitudeRef: UInt16 = 1, gpsLatitude: UInt16 = 2
        static let gpsLongitudeRef: UInt16 = 3, gpsLongitude: UInt16 = 4
    }

    private struct Entry {
        let tag: UInt16, type: UInt16, count: Int
        /// Where the value starts, relative to the TIFF header.
        let valueOffset: Int
    }

    /// Parses a TIFF block (what follows "Exif\0\0" in a JPEG APP1 segment, or a PNG eXIf / WebP EXIF chunk).
    static func read(tiff bytes: [UInt8], base: Int = 0, count: Int? = nil) -> ExifMetadata? {
        var reader = ByteReader(bytes, base: base, count: count)
        switch reader.ascii(0, length: 2) {
        case "II": reader.bigEndian = false
        case "MM": reader.bigEndian = true
        default: return nil
        }
        guard reader.u16(2) == 42, let ifd0 = reader.u32(4) else { return nil }
        var visited = Set<Int>()
        let main = entries(reader, at: Int(ifd0), visited: &visited)
        var result = ExifMetadata()
        result.orientationTag = main[Tag.orientation].flatMap { integer(reader, $0) }

        let exif = main[Tag.exifIFD].flatMap { integer(reader, $0) }.map { entries(reader, at: $0, visited: &visited) } ?? [:]
        let dateText = [exif[Tag.dateTimeOriginal], exif[Tag.dateTimeDigitized], main[Tag.dateTime]]
            .lazy.compactMap { $0.flatMap { string(reader, $0) } }.first { CaptureDate(exif: $0) != nil }
        let offset = exif[Tag.offsetTimeOriginal].flatMap { string(reader, $0) }
        result.capturedAt = dateText.flatMap { CaptureDate(exif: $0, offset: offset) }

        if let gpsOffset = main[Tag.gpsIFD].flatMap({ integer(reader, $0) }) {
            result.gps = gps(reader, entries(reader, at: gpsOffset, visited: &visited))
        }
        return result
    }

    /// The entries of the IFD at `offset`, keyed by tag (first occurrence wins).
    private static func entries(_ reader: ByteReader, at offset: Int, visited: inout Set<Int>) -> [UInt16: Entry] {
        guard offset >= 8, !visited.contains(offset), let count = reader.u16(offset) else { return [:] }
        visited.insert(offset)
        var result: [UInt16: Entry] = [:]
        for index in 0..<min(Int(count), 1024) {
            let at = offset + 2 + index * 12
            guard let tag = reader.u16(at), let type = reader.u16(at + 2), let n = reader.u32(at + 4) else { break }
            let size = typeSize(type) * Int(n)
            guard size > 0 else { continue }
            let valueOffset: Int
            if size <= 4 {
                valueOffset = at + 8
            } else {
                guard let pointer = reader.u32(at + 8) else { continue }
                valueOffset = Int(pointer)
            }
            guard reader.contains(valueOffset, length: size), result[tag] == nil else { continue }
            result[tag] = Entry(tag: tag, type: type, count: Int(n), valueOffset: valueOffset)
        }
        return result
    }

    private static func typeSize(_ type: UInt16) -> Int {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11: 4
        case 5, 10, 12: 8
        default: 0
        }
    }

    private static func integer(_ reader: ByteReader, _ entry: Entry) -> Int? {
        switch entry.type {
        case 1, 7: reader.u8(entry.valueOffset).map(Int.init)
        case 3: reader.u16(entry.valueOffset).map(Int.init)
        case 4: reader.u32(entry.valueOffset).map(Int.init)
        case 9: reader.u32(entry.valueOffset).map { Int(Int32(bitPattern: $0)) }
        default: nil
        }
    }

    private static func string(_ reader: ByteReader, _ entry: Entry) -> String? {
        guard entry.type == 2 || entry.type == 7,
              let raw = reader.slice(entry.valueOffset, length: entry.count) else { return nil }
        let text = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self).trimming { $0.isWhitespace && !$0.isNewline }
        return text.isEmpty ? nil : text
    }

    private static func rationals(_ reader: ByteReader, _ entry: Entry) -> [Double]? {
        guard entry.type == 5 || entry.type == 10 else { return nil }
        var values: [Double] = []
        for i in 0..<min(entry.count, 8) {
            guard let num = reader.u32(entry.valueOffset + i * 8),
                  let den = reader.u32(entry.valueOffset + i * 8 + 4), den != 0 else { return nil }
            values.append(entry.type == 10
                ? Double(Int32(bitPattern: num)) / Double(Int32(bitPattern: den))
                : Double(num) / Double(den))
        }
        return values
    }

    /// Degrees + minutes/60 + seconds/3600, signed by the S/W reference; `nil` unless both axes are sane.
    private static func gps(_ reader: ByteReader, _ ifd: [UInt16: Entry]) -> GPSCoordinate? {
        func axis(_ valueTag: UInt16, _ refTag: UInt16, negative: String, limit: Double) -> Double? {
            guard let entry = ifd[valueTag], let parts = rationals(reader, entry), parts.count >= 1 else { return nil }
            let degrees = parts[0] + (parts.count > 1 ? parts[1] / 60 : 0) + (parts.count > 2 ? parts[2] / 3600 : 0)
            guard degrees.isFinite, abs(degrees) <= limit else { return nil }
            let ref = ifd[refTag].flatMap { string(reader, $0) }?.uppercased()
            return ref == negative ? -degrees : degrees
        }
        guard let latitude = axis(Tag.gpsLatitude, Tag.gpsLatitudeRef, negative: "S", limit: 90),
              let longitude = axis(Tag.gpsLongitude, Tag.gpsLongitudeRef, negative: "W", limit: 180) else { return nil }
        return GPSCoordinate(latitude: latitude, longitude: longitude)
    }
}
