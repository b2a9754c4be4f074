internal import CZlib

/// zlib (linked through libpng's module) for the compressed chunks PNG metadata uses.
enum Zlib {
    enum Inflated: Equatable {
        case complete([UInt8])
        /// The stream inflates to more than the limit (it was stopped there).
        case overLimit
        case damaged
    }

    /// Inflates a zlib stream, stopping once the output passes `limit` bytes.
    static func inflate(_ input: [UInt8], limit: Int) -> Inflated {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return .damaged }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return input.withUnsafeBufferPointer { source -> Inflated in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return .overLimit }
                if status == Z_STREAM_END { return .complete(output) }
                if status != Z_OK || (produced == 0 && stream.avail_in == 0) { return .damaged }
            }
        }
    }

    /// How many bytes the zlib stream split over `ranges` of `bytes` inflates to, up to `limit`;
    /// the output goes through a 64 KiB scratch buffer and is discarded. Stops early at the
    /// stream's end or at damage.
    static func inflatedSize(of ranges: [Range<Int>], in bytes: [UInt8], limit: Int) -> Int {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return 0 }
        defer { inflateEnd(&stream) }
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        return bytes.withUnsafeBufferPointer { source in
            scratch.withUnsafeMutableBufferPointer { buffer in
                for range in ranges {
                    stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress! + range.lowerBound)
                    stream.avail_in = uInt(range.count)
                    // Until this range is consumed and inflate has nothing more to give for it.
                    while true {
                        stream.next_out = buffer.baseAddress
                        stream.avail_out = uInt(buffer.count)
                        let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                        total += buffer.count - Int(stream.avail_out)
                        if status != Z_OK || total >= limit { return total }
                        if stream.avail_in == 0 && stream.avail_out > 0 { break }
                    }
                }
                return total
            }
        }
    }

    /// Compresses with zlib at the default level.
    static func deflate(_ input: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = compress2(&output, &length, input, uLong(input.count), Z_DEFAULT_COMPRESSION)
        precondition(status == Z_OK, "zlib compress2 failed with \(status)")
        return Array(output[0..<Int(length)])
    }

    /// CRC-32 as PNG chunks use it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        UInt32(CZlib.crc32(0, bytes, uInt(bytes.count)))
    }
}
