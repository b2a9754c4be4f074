#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PhotoPipeline {
    /// Whether `bytes` already are what ``prepare(_:options:)`` makes, but for their metadata: a
    /// JPEG (when the output format is JPEG) in grey or YCbCr, long edge within
    /// `options.maxDimension`, upright by construction (no EXIF at all), carrying no metadata but
    /// JFIF and a colour profile the output can carry (``ICCColourProfile``: not one to convert
    /// from), ending exactly at its EOI marker (nothing appended: a receiver that keeps the file
    /// must not keep a payload riding behind the picture), within what decoding may cost
    /// (``JPEGScanCost``), and decoding cleanly.
    ///
    /// A receiver (the server) keeps such a photo's image data byte for byte instead of
    /// re-encoding it (``preparedForm(_:options:)``): no generation loss.
    ///
    /// "Decoding cleanly" is checked at 1/8 scale: libjpeg still reads every entropy-coded
    /// coefficient (where a corrupt or truncated file shows), but runs the DC-only inverse DCT
    /// into an image 1/64 the size, so the check costs a fraction of a full decode.
    public static func isAlreadyPrepared(_ bytes: [UInt8], options: PrepareOptions) -> Bool {
        preparedForm(bytes, options: options) != nil
    }

    /// What a receiver stores for `bytes` when they are already prepared
    /// (``isAlreadyPrepared(_:options:)``), else `nil`: their metadata replaced by what the
    /// pipeline writes itself (``JPEGMetadataRewrite``: libjpeg's JFIF header and the profile's
    /// colour alone), their tables, frame and scans as they are. A photo `prepare` made comes
    /// back unchanged.
    public static func preparedForm(_ bytes: [UInt8], options: PrepareOptions) -> [UInt8]? {
        guard options.encoding.format == .jpeg, MediaSniffer.sniff(bytes) == .jpeg,
              let frame = JPEGSegments.frameIfMetadataFree(bytes),
              frame.components == 1 || frame.components == 3,
              frame.size.width >= 1, frame.size.height >= 1, frame.size.longEdge <= options.maxDimension,
              JPEGSegments.imageEnd(bytes, scanAt: frame.scanOffset) == bytes.count,
              var info = try? probe(bytes, within: options.limits)
        else { return nil }
        info.limitICCProfile(to: options.maxICCProfileBytes)
        guard info.settleColourProfile() == nil, (try? JPEGDecoder().decode(bytes, info: info, minimumLongEdge: 1)) != nil else {
            return nil
        }
        return JPEGMetadataRewrite.rewrite(bytes, carrying: info.iccProfile)
    }

    /// What a receiver stores for the file at `path` when it is already prepared (see
    /// ``preparedForm(_:options:)``), else `nil`. Only the header is read from a file that cannot
    /// qualify, so a large camera photo is left for ``prepare(contentsOf:options:)`` to stream.
    /// - Throws: ``PhotoError/unreadableFile(path:reason:)`` and
    ///   ``PhotoError/fileTooLarge(bytes:limit:)`` as ``prepare(contentsOf:options:)`` does.
    public static func alreadyPrepared(contentsOf path: String, options: PrepareOptions) throws(PhotoError) -> [UInt8]? {
        let file = try PhotoFile(path, limit: options.limits.maxInputBytes)
        guard options.encoding.format == .jpeg, let header = try JPEGFileHeader.read(file),
              let frame = JPEGSegments.frameIfMetadataFree(header),
              frame.size.longEdge <= options.maxDimension
        else { return nil }
        return preparedForm(try file.readAll(), options: options)
    }
}

/// A strict walk over a JPEG's segments before the first scan.
enum JPEGSegments {
    struct Frame {
        var size: PixelSize
        var components: Int
        /// Where the first SOS marker starts.
        var scanOffset: Int = 0
    }

    /// The frame header, when every segment before the scan is image data or JFIF/ICC and they
    /// follow one another exactly (``JPEGMarkerWalk`` in strict mode); `nil` for EXIF, XMP,
    /// comments, Adobe's marker (its colour transform flag says how to read the components, so it
    /// cannot be left out), any other application segment, or a malformed header.
    static func frameIfMetadataFree(_ bytes: [UInt8]) -> Frame? {
        var frame: Frame?
        do throws(PhotoError) {
            let end = try JPEGMarkerWalk.walk(bytes, mode: .strict) { (segment) throws(PhotoError) in
                switch segment.marker {
                case _ where segment.isFrameHeader:
                    let header = try segment.frame(in: bytes)
                    frame = Frame(size: header.size, components: header.components)
                case 0xC4, 0xDB, 0xDD:
                    break  // tables, restart interval
                case 0xE0 where segment.starts(with: "JFIF\0", in: bytes),
                     0xE2 where segment.starts(with: "ICC_PROFILE\0", in: bytes):
                    break
                default:
                    // EXIF/XMP (APP1), comments, maker data, anything unknown.
                    throw .corrupt(.jpeg, detail: "metadata segment 0x\(String(segment.marker, radix: 16))")
                }
            }
            guard case .scan(let scan) = end else { return nil }
            frame?.scanOffset = scan.start
            return frame
        } catch {
            return nil
        }
    }

    /// The offset just past the EOI marker that ends the image whose first scan starts at
    /// `scanAt`, walking entropy-coded data (stuffed `FF 00`, restart markers, fill bytes) and
    /// the table and scan segments a progressive file has between scans; `nil` when the data
    /// breaks off or holds any other marker.
    static func imageEnd(_ bytes: [UInt8], scanAt start: Int) -> Int? {
        var offset = start
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            guard [0xC4, 0xDA, 0xDB, 0xDD].contains(marker) else { return nil }
            let end = offset + 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
            guard end > offset + 3, end <= bytes.count else { return nil }
            offset = end
            guard marker == 0xDA else { continue }
            // Entropy-coded data up to the next marker that is not stuffing or a restart.
            while offset + 1 < bytes.count {
                if bytes[offset] != 0xFF {
                    offset = nextFF(in: bytes, from: offset) ?? bytes.count
                    continue
                }
                let next = bytes[offset + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) { offset += 2; continue }
                if next == 0xFF { offset += 1; continue }
                break
            }
            guard offset + 1 < bytes.count else { return nil }
            if bytes[offset + 1] == 0xD9 { return offset + 2 }
        }
        return nil
    }

    /// The offset of the next 0xFF byte at or after `start` (memchr: entropy-coded data is
    /// mostly other bytes).
    private static func nextFF(in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, start < buffer.count,
                  let found = memchr(base + start, 0xFF, buffer.count - start) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }
}
