import Synchronization

/// Set by the decoder that fails, so that the other stops instead of decoding on for nothing.
final class StopFlag: Sendable {
    private let flag = Atomic(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}

/// Decodes a stream's rows straight into resizers, an MCU row at a time.
enum DecodeIntoResizers {
    /// - Parameters:
    ///   - resizers: one per plane; `nil` for a plane the stream does not decode.
    ///   - mcuRows: MCU rows to read; `nil`: all, then the end of the data is checked.
    static func run(_ stream: JPEGStream, planes: [JPEGPlane], resizers: [PlaneResizer?], mcuRows: Int?,
                    stop: StopFlag) -> PhotoError? {
        let strips = planes.map { UnsafeMutablePointer<UInt8>.allocate(capacity: $0.stride * $0.rowsPerRead) }
        defer { strips.forEach { $0.deallocate() } }
        do throws(PhotoError) {
            var read = 0
            while mcuRows.map({ read < $0 }) ?? true {
                if stop.isSet { return .truncated(.jpeg, detail: "the other decompressor failed") }
                guard try stream.readPlanes(into: strips) > 0 else { break }
                for c in 0..<3 { resizers[c]?.push(strips[c], count: planes[c].rowsPerRead, stride: planes[c].stride) }
                read += 1
            }
            if mcuRows == nil { try stream.finish() }
            return nil
        } catch {
            stop.set()
            return error
        }
    }
}
