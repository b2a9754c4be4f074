/// Joins the two parts of a baseline JPEG (``JPEGWriter``) at a restart marker.
///
/// Each part is a file of its own, with the same tables: the top one `k` iMCU rows high, the
/// bottom one the rest. The joined file is the top's headers with the full height in the frame
/// header and a restart interval of the top's MCUs (DRI, where libjpeg writes it: after the
/// tables, before the scan header), the top's scan, RST0, then the bottom's scan data and the end
/// marker. A restart marker ends the top's data padded with 1-bits as the end of a scan does, and
/// restarts the DC predictions at 0 as a new image does (the bottom part was encoded so), so the
/// joined file decodes to the coefficients of the two parts, one under the other.
enum JPEGSplice {
    /// The joined file, or `nil` when either part is not a baseline JPEG of one scan without a
    /// restart interval, ending with EOI.
    static func join(top: UnsafeBufferPointer<UInt8>, bottom: UnsafeBufferPointer<UInt8>, height: Int,
                     restartInterval: Int) -> [UInt8]? {
        guard let upper = scanLayout(top), let lower = scanLayout(bottom), height <= 0xFFFF, (1...0xFFFF).contains(restartInterval)
        else { return nil }
        let restart: [UInt8] = [0xFF, 0xDD, 0x00, 0x04, UInt8(restartInterval >> 8), UInt8(restartInterval & 0xFF)]
        let count = upper.scan + restart.count + (top.count - 2 - upper.scan) + 2 + (bottom.count - 2 - lower.data) + 2
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var at = 0
            func append(_ bytes: UnsafeBufferPointer<UInt8>) {
                guard let source = bytes.baseAddress else { return }
                (buffer.baseAddress! + at).update(from: source, count: bytes.count)
                at += bytes.count
            }
            append(UnsafeBufferPointer(rebasing: top[..<upper.scan]))
            buffer[upper.frame + 5] = UInt8(height >> 8)
            buffer[upper.frame + 6] = UInt8(height & 0xFF)
            restart.withUnsafeBufferPointer { append($0) }
            append(UnsafeBufferPointer(rebasing: top[upper.scan..<(top.count - 2)]))
            [0xFF, 0xD0].withUnsafeBufferPointer { append($0) }
            append(UnsafeBufferPointer(rebasing: bottom[lower.data..<(bottom.count - 2)]))
            [0xFF, 0xD9].withUnsafeBufferPointer { append($0) }
            initialized = at
        }
    }

    /// The join above, of two arrays (for the tests).
    static func join(top: [UInt8], bottom: [UInt8], height: Int, restartInterval: Int) -> [UInt8]? {
        top.withUnsafeBufferPointer { top in
            bottom.withUnsafeBufferPointer { bottom in join(top: top, bottom: bottom, height: height, restartInterval: restartInterval) }
        }
    }

    /// Where a baseline JPEG's frame header (SOF0) and scan header (SOS) begin and its scan data
    /// starts (through ``JPEGMarkerWalk``, over the headers: libjpeg's come to about 600 bytes);
    /// `nil` unless it has one of each, no restart interval, and ends with EOI.
    static func scanLayout(_ jpeg: UnsafeBufferPointer<UInt8>) -> (frame: Int, scan: Int, data: Int)? {
        guard jpeg.count >= 6, jpeg.starts(with: [0xFF, 0xD8]), jpeg.suffix(2).elementsEqual([0xFF, 0xD9]) else { return nil }
        for headers in [min(jpeg.count, 4096), jpeg.count] {
            var frame: Int?, restarts = false
            let end = try? JPEGMarkerWalk.walk(Array(jpeg.prefix(headers)), mode: .strict) { segment in
                if segment.marker == 0xC0 { frame = segment.start }
                if segment.marker == 0xDD { restarts = true }
            }
            guard case .scan(let scan)? = end, let frame else { continue }
            return restarts ? nil : (frame, scan.start, scan.body.upperBound)
        }
        return nil
    }
}
