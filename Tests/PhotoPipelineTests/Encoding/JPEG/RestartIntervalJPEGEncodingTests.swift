import Foundation
@testable import PhotoPipeline
import Synchronization
import Testing

/// The two row bands' JPEG is encoded as two halves at once and spliced at a restart marker: the file must be the one libjpeg itself writes with that restart interval.
@Suite struct RestartIntervalJPEGEncodingTests {
    /// Planes with detail in every block (a different pattern per plane), `sizes[c]` samples each.
    static func planes(_ sizes: [PixelSize]) -> [[UInt8]] {
        sizes.enumerated().map { c, size in
            (0..<size.pixelCount).map { i in
                let x = i % size.width, y = i / size.width
                return UInt8(truncatingIfNeeded: (x * (3 + c)) ^ (y * 5) &+ (x * y) / 7 &+ c * 40)
            }
        }
    }

    /// Encodes `planes` the way the row bands report them: the top band's rows up to each plane's
    /// split and the bottom band's from there, each on a thread of its own, in steps, each row
    /// copied into the planes the encoders read just before it is reported (they start poisoned: a
    /// row read early would be encoded as poison). The encoders work on the reporting threads
    /// (inline): both threads encode, and may race for the top half's last rows. No
    /// ``RowBandsJPEGEncoding/finishAll()``: once every row is reported, both halves must be
    /// encoded (the result is waited for at most 20 s).
    static func encodeInBands(_ planes: [[UInt8]], size: PixelSize, subsampling: ChromaSubsampling, options: EncodingOptions,
                              splits: [Int]) throws -> [UInt8] {
        let sizes = YCbCrImage.sampledSizes(size, subsampling: subsampling)
        let target = PoisonedPlanes(planes, sizes: sizes)
        let encoding = try RowBandsJPEGEncoding(size: size, subsampling: subsampling, options: options, planes: target.buffers,
                                                sizes: sizes, decodeSplits: splits)
        let bands = DispatchGroup()
        for isTop in [true, false] {
            bands.enter()
            Thread.detachNewThread {
                var done = isTop ? [0, 0, 0] : splits
                for step in 1...8 {
                    for c in 0..<3 {
                        let to = isTop ? splits[c] * step / 8 : splits[c] + (sizes[c].height - splits[c]) * step / 8
                        target.copy(c, rows: done[c]..<to)
                        done[c] = to
                        if isTop { encoding.topFinished(plane: c, rows: to) } else { encoding.bottomFinished(plane: c, rows: to) }
                    }
                }
                bands.leave()
            }
        }
        guard bands.wait(timeout: .now() + 20) == .success else { throw EncodersWaited() }
        let result = Mutex<Result<[UInt8], PhotoError>?>(nil)
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let outcome = Result { () throws(PhotoError) in try encoding.result() }
            result.withLock { $0 = outcome }
            ended.signal()
        }
        guard ended.wait(timeout: .now() + 20) == .success else {
            encoding.abandon()
            _ = ended.wait(timeout: .now() + 20)
            throw EncodersWaited()
        }
        return try result.withLock { $0! }.get()
    }

    /// The planes the encoders read, poisoned until each row is copied in from `planes`; written
    /// by the two band threads, each its own rows.
    final class PoisonedPlanes: @unchecked Sendable {
        let buffers: [UnsafeMutablePointer<UInt8>]
        let planes: [[UInt8]]
        let sizes: [PixelSize]

        init(_ planes: [[UInt8]], sizes: [PixelSize]) {
            self.planes = planes
            self.sizes = sizes
            buffers = sizes.map { size in
                let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size.pixelCount)
                buffer.initialize(repeating: 0x5A, count: size.pixelCount)
                return buffer
            }
        }

        deinit { buffers.forEach { $0.deallocate() } }

        func copy(_ c: Int, rows: Range<Int>) {
            let width = sizes[c].width
            planes[c].withUnsafeBufferPointer {
                (buffers[c] + rows.lowerBound * width).update(from: $0.baseAddress! + rows.lowerBound * width, count: rows.count * width)
            }
        }
    }

    struct EncodersWaited: Error, CustomStringConvertible {
        var description: String { "every row was reported, yet the encoders still waited for rows after 20 s" }
    }

    /// libjpeg's own file with a restart marker every `restartRows` MCU rows.
    static func encodeWithRestarts(_ planes: [[UInt8]], size: PixelSize, subsampling: ChromaSubsampling, options: EncodingOptions,
                                   restartRows: Int) throws -> [UInt8] {
        try withPointers(planes) { pointers in
            let sizes = YCbCrImage.sampledSizes(size, subsampling: subsampling)
            let encoding = try StreamedJPEGEncoding(size: size, subsampling: subsampling, options: options, planes: pointers,
                                                    sizes: sizes, bands: [1, 1, 1], restartRows: restartRows)
            encoding.start(on: Workers())
            for c in 0..<3 { encoding.finished(plane: c, band: 0, rows: sizes[c].height) }
            return try encoding.result()
        }
    }

    /// Copies of `planes` in memory of their own, for the encoders to read.
    static func withPointers<T>(_ planes: [[UInt8]], _ body: ([UnsafeMutablePointer<UInt8>]) throws -> T) throws -> T {
        let pointers = planes.map { plane in
            let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: plane.count)
            pointer.initialize(from: plane, count: plane.count)
            return pointer
        }
        defer { pointers.forEach { $0.deallocate() } }
        return try body(pointers)
    }

    @Test("the spliced file is libjpeg's own with the restart interval", arguments: [
        (2048, 1536, 85, 0.5), (2048, 1536, 85, 0.42), (1024, 768, 95, 0.55), (1023, 767, 80, 0.5), (640, 33, 85, 0.5),
        (96, 17, 90, 0.3),
    ])
    func splicedFileIsLibjpegsWithTheRestartInterval(width: Int, height: Int, quality: Int, at fraction: Double) throws {
        let size = PixelSize(width: width, height: height)
        let subsampling = JPEGEncoder.subsampling(quality: quality)
        let sizes = YCbCrImage.sampledSizes(size, subsampling: subsampling)
        let planes = Self.planes(sizes)
        let splits = sizes.map { Int(Double($0.height) * fraction) }
        let options = EncodingOptions(quality: quality)
        let spliced = try Self.encodeInBands(planes, size: size, subsampling: subsampling, options: options, splits: splits)
        let cut = try #require(RowBandsJPEGEncoding.cut(size: size, subsampling: subsampling, decodeSplits: splits))
        let mcuHeight = subsampling == .full ? 8 : 16
        #expect(cut.imageRows % mcuHeight == 0 && cut.imageRows * 2 >= height.roundedUp(to: mcuHeight))
        let reference = try Self.encodeWithRestarts(planes, size: size, subsampling: subsampling, options: options,
                                                    restartRows: cut.imageRows / mcuHeight)
        // A Bool: a failed `==` on arrays this long would have the test library diff them for minutes.
        let same = spliced == reference
        #expect(same, "\(size) q\(quality): \(spliced.count) bytes against libjpeg's \(reference.count)")
        // One restart marker, and the file decodes to the size it says.
        #expect(JPEGScanData.restartMarkers(spliced) == 1)
        let decoded = try PhotoPipeline.decode(spliced)
        #expect(decoded.width == width && decoded.height == height)
    }

    /// Not split: progressive output, a single iMCU row, and an interval past 65,535 MCUs; then
    /// the bands' rows go to one encoder, in order, and the file is the plain one.
    @Test func unsplittableOutputsAreEncodedWhole() throws {
        #expect(RowBandsJPEGEncoding.cut(size: PixelSize(width: 64, height: 16), subsampling: .half, decodeSplits: [8, 4, 4]) == nil)
        #expect(RowBandsJPEGEncoding.cut(size: PixelSize(width: 65_535, height: 4_000), subsampling: .half,
                                         decodeSplits: [2_000, 1_000, 1_000]) == nil)
        let size = PixelSize(width: 320, height: 240)
        let sizes = YCbCrImage.sampledSizes(size, subsampling: .half)
        let planes = Self.planes(sizes)
        for options in [EncodingOptions(progressive: true), EncodingOptions()] {
            let banded = try Self.encodeInBands(planes, size: size, subsampling: .half, options: options, splits: sizes.map { $0.height / 2 })
            let plain = try Self.encodeWithRestarts(planes, size: size, subsampling: .half, options: options, restartRows: 0)
            let same = banded == plain
            #expect(same == options.progressive, "progressive: \(options.progressive)")
        }
    }

    /// A file bigger than the buffer libjpeg is first given (1.5 bytes a pixel): it moves to a
    /// bigger one as it grows, and the file is still TurboJPEG's, byte for byte (noise, 4:4:4, q100).
    @Test func aFileBiggerThanItsFirstBufferIsWhole() throws {
        let size = PixelSize(width: 512, height: 512)
        var state: UInt32 = 12345
        let noise = (0..<3).map { _ in
            (0..<size.pixelCount).map { _ -> UInt8 in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24)
            }
        }
        let options = EncodingOptions(quality: 100)
        let streamed = try Self.encodeWithRestarts(noise, size: size, subsampling: .full, options: options, restartRows: 0)
        #expect(streamed.count > size.pixelCount * 3 / 2 + 65536, "\(streamed.count) bytes: the first buffer was not outgrown")
        let image = try YCbCrImage.make(size: size, subsampling: .full) { planes in
            for c in 0..<3 { planes[c].update(from: noise[c], count: size.pixelCount) }
        }
        let same = try streamed == JPEGEncoder().encode(image, options: options, iccProfile: nil)
        #expect(same)
    }

    /// Halves abandoned part-way (the decode failed): nothing waits, and rows reported after are
    /// not encoded (every row is reported then: had they been, the file would be whole and returned).
    @Test func abandonedHalvesAreRefused() throws {
        let size = PixelSize(width: 256, height: 256)
        let sizes = YCbCrImage.sampledSizes(size, subsampling: .half)
        let target = PoisonedPlanes(Self.planes(sizes), sizes: sizes)
        let splits = sizes.map { $0.height / 2 }
        let encoding = try RowBandsJPEGEncoding(size: size, subsampling: .half, options: EncodingOptions(), planes: target.buffers,
                                                sizes: sizes, decodeSplits: splits)
        for c in 0..<3 {
            target.copy(c, rows: 0..<splits[c] / 2)
            encoding.topFinished(plane: c, rows: splits[c] / 2)
        }
        encoding.abandon()
        for c in 0..<3 {
            target.copy(c, rows: 0..<sizes[c].height)
            encoding.topFinished(plane: c, rows: splits[c])
            encoding.bottomFinished(plane: c, rows: sizes[c].height)
        }
        #expect(throws: PhotoError.self) { try encoding.result() }
    }

    /// The splice refuses what it cannot join: no frame or scan header, no end marker, or a file
    /// that has a restart interval already.
    @Test func spliceRefusesFilesItCannotJoin() throws {
        let size = PixelSize(width: 64, height: 64)
        let planes = Self.planes(YCbCrImage.sampledSizes(size, subsampling: .half))
        let plain = try Self.encodeWithRestarts(planes, size: size, subsampling: .half, options: EncodingOptions(), restartRows: 0)
        let restarted = try Self.encodeWithRestarts(planes, size: size, subsampling: .half, options: EncodingOptions(), restartRows: 2)
        #expect(RowBandsJPEGEncoding.splice(top: plain, bottom: plain, height: 128, restartInterval: 16) != nil)
        #expect(RowBandsJPEGEncoding.splice(top: plain, bottom: Array(plain.dropLast(2)), height: 128, restartInterval: 16) == nil)
        #expect(RowBandsJPEGEncoding.splice(top: Array(plain.prefix(100)), bottom: plain, height: 128, restartInterval: 16) == nil)
        #expect(RowBandsJPEGEncoding.splice(top: restarted, bottom: plain, height: 128, restartInterval: 16) == nil)
    }
}

private extension Int {
    func roundedUp(to step: Int) -> Int { (self + step - 1) / step * step }
}
