internal import CPNG

/// zlib (linked through libpng's module) for the compressed chunks PNG metadata uses.
enum Zlib {
    /// Inflates a zlib stream; `nil` if it is damaged or would exceed `limit` bytes.
    static func inflate(_ input: [UInt8], limit: Int) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return input.withUnsafeBufferPointer { source -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return CPNG.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return nil }
                if status == Z_STREAM_END { return output }
                if status != Z_OK || (produced == 0 && stream.avail_in == 0) { return nil }
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
        UInt32(CPNG.crc32(0, bytes, uInt(bytes.count)))
    }
}
