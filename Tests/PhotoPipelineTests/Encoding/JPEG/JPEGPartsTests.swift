import Foundation
@testable import PhotoPipeline
import Synchronization
import Testing

/// A JPEG is made in two parts, each encoded by the thread that has its rows, written side by side
/// and joined at a restart marker: the joined file must hold the coefficients the file made in one
/// part holds, so decode to its very pixels.
@Suite struct JPEGPartsTests {
    /// Planes with detail in every block (a different pattern per plane), `sizes[c]` samples each.
    static func planes(_ sizes: [PixelSize]) -> [[UInt8]] {
        sizes.enumerated().map { c, size in
            (0..<size.pixelCount).map { i in
                let x = i % size.width, y = i / size.width
                return UInt8(truncatingIfNeeded: (x * (3 + c)) ^ (y * 5) &+ (x * y) / 7 &+ c * 40)
            }
        }
    }

    /// Encodes `planes` the way two row bands report them: the top band's rows up to each plane's
    /// split and the bottom band's from there, each on a thread of its own, in steps, each row
    /// copied into the planes the encoder reads just before it is reported (they start poisoned: a
    /// row read early would be encoded as poison). The parts are encoded on the reporting threads:
    /// both threads encode. Once every row is reported the file must be whole (waited for at most 20 s).
    static func encodeInBands(_ planes: [[UInt8]], size: PixelSize, subsampling: ChromaSubsampling, options: EncodingOptions,
                              splits: [Int]) throws -> [UInt8] {
        let sizes = YCbCrImage.sampledSizes(size, subsampling: subsampling)
        let target = PoisonedPlanes(planes, sizes: sizes)
        let encoder = JPEGPlanesEncoder(options: options, subsampling: subsampling)
        try encoder.open(planes: target.buffers, sizes: sizes, writers: .rowBands(splits: splits), on: Workers())
        let bands = DispatchGroup()
        for band in [0, 1] {
            bands.enter()
            Thread.detachNewThread {
                var done = band == 0 ? [0, 0, 0] : splits
                for step in 1...8 {
                    for c in 0..<3 {
                        let to = band == 0 ? splits[c] * step / 8 : splits[c] + (sizes[c].height - splits[c]) * step / 8
                        target.copy(c, rows: done[c]..<to)
                        done[c] = to
                        encoder.finished(plane: c, writer: band, rows: to)
                    }
                }
                bands.leave()
            }
        }
        guard bands.wait(timeout: .now() + 20) == .success else { throw EncodersWaited() }
        return try #require(try encoder.close()).data
    }

    /// The planes the encoder reads, poisoned until each row is copied in from `planes`; written by
    /// the two band threads, each its own rows.
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
        var description: String { "the bands still had not reported every row after 20 s" }
    }

    /// The file made in one part, on the calling thread.
    static func encodeWhole(_ planes: [[UInt8]], size: PixelSize, subsampling: ChromaSubsampling?,
                            options: EncodingOptions) throws -> [UInt8] {
        let sizes = subsampling.map { YCbCrImage.sampledSizes(size, subsampling: $0) } ?? [size]
        let writer = try JPEGWriter(size: size, subsampling: subsampling, options: options, parts: 1)
        #expect(writer.splitRow == writer.imcuRows)
        try withPointers(planes) { pointers in
            try writer.encode(rows: 0..<writer.imcuRows, planes: pointers.map { UnsafePointer($0) }, sizes: sizes)
        }
        return try writer.finish(on: nil)
    }

    /// Copies of `planes` in memory of their own, for the encoder to read.
    static func withPointers<T>(_ planes: [[UInt8]], _ body: ([UnsafeMutablePointer<UInt8>]) throws -> T) throws -> T {
        let pointers = planes.map { plane in
            let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: plane.count)
            pointer.initialize(from: plane, count: plane.count)
            return pointer
        }
        defer { pointers.forEach { $0.deallocate() } }
        return try body(pointers)
    }

    @Test("the joined file decodes to the one-part file's pixels", arguments: [
        (2048, 1536, 85, 0.5), (2048, 1536, 85, 0.42), (1024, 768, 95, 0.55), (1023, 767, 80, 0.5), (640, 33, 85, 0.5),
        (96, 17, 90, 0.3),
    ])
    func joinedFileDecodesToTheOnePartPixels(width: Int, height: Int, quality: Int, at fraction: Double) throws {
        let size = PixelSize(width: width, height: height)
        let subsampling = JPEGEncoder.subsampling(quality: quality)
        let sizes = YCbCrImage.sampledSizes(size, subsampling: subsampling)
        let planes = Self.planes(sizes)
        let splits = sizes.map { Int(Double($0.height) * fraction) }
        let options = EncodingOptions(quality: quality)
        let joined = try Self.encodeInBands(planes, size: size, subsampling: subsampling, options: options, splits: splits)
        let split = try #require(JPEGPlanesEncoder.splitRow(size: size, subsampling: subsampling, decodeSplits: splits))
        let rowsPerIMCU = subsampling == .full ? [8, 8, 8] : [16, 8, 8]
        #expect((0..<3).allSatisfy { split * rowsPerIMCU[$0] >= splits[$0] }, "the bottom part waits on the bottom band alone")
        #expect(split * rowsPerIMCU[0] * 2 >= height)
        let whole = try Self.encodeWhole(planes, size: size, subsampling: subsampling, options: options)
        #expect(JPEGScanData.restartMarkers(joined) == 1)
        #expect(JPEGScanData.restartMarkers(whole) == 0)
        let a = try PhotoPipeline.decode(joined), b = try PhotoPipeline.decode(whole)
        #expect(a.width == width && a.height == height)
        // A Bool: a failed `==` on arrays this long would have the test library diff them for minutes.
        let same = a == b
        #expect(same, "\(size) q\(quality): the joined file's pixels differ from the one-part file's")
    }

    /// One part, and no restart marker: progressive output, a single iMCU row, and an interval past
    /// 65,535 MCUs.
    @Test func unsplittableOutputsAreOnePart() throws {
        #expect(JPEGPlanesEncoder.splitRow(size: PixelSize(width: 64, height: 16), subsampling: .half, decodeSplits: [8, 4, 4]) == nil)
        #expect(try JPEGWriter(size: PixelSize(width: 65_500, height: 136), subsampling: .full, options: EncodingOptions()).splitRow == 17)
        #expect(try JPEGWriter(size: PixelSize(width: 320, height: 240), subsampling: .half,
                               options: EncodingOptions(progressive: true)).splitRow == 15)
        let size = PixelSize(width: 320, height: 240)
        let sizes = YCbCrImage.sampledSizes(size, subsampling: .half)
        let planes = Self.planes(sizes)
        for options in [EncodingOptions(progressive: true), EncodingOptions()] {
            let banded = try Self.encodeInBands(planes, size: size, subsampling: .half, options: options, splits: sizes.map { $0.height / 2 })
            #expect(JPEGScanData.restartMarkers(banded) == (options.progressive ? 0 : 1), "progressive: \(options.progressive)")
            let whole = try Self.encodeWhole(planes, size: size, subsampling: .half, options: options)
            #expect(try PhotoPipeline.decode(banded) == PhotoPipeline.decode(whole), "progressive: \(options.progressive)")
        }
    }

    /// A file bigger than the buffer libjpeg is first given (1.5 bytes a pixel): it moves to a
    /// bigger one as it grows, and the file is still whole (noise, 4:4:4, q100), in one part and in two.
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
        let whole = try Self.encodeWhole(noise, size: size, subsampling: .full, options: options)
        #expect(whole.count > size.pixelCount * 3 / 2 + 65536, "\(whole.count) bytes: the first buffer was not outgrown")
        let image = try YCbCrImage.make(size: size, subsampling: .full) { planes in
            for c in 0..<3 { planes[c].update(from: noise[c], count: size.pixelCount) }
        }
        let parts = try JPEGEncoder(workers: Workers()).encode(image, options: options, iccProfile: nil)
        #expect(JPEGScanData.restartMarkers(parts) == 1)
        #expect(try PhotoPipeline.decode(parts) == PhotoPipeline.decode(whole))
    }

    /// An encoder abandoned part-way (the decode failed): nothing waits, rows reported after are
    /// not encoded, and closing it makes nothing.
    @Test func anAbandonedEncoderMakesNothing() throws {
        let size = PixelSize(width: 256, height: 256)
        let sizes = YCbCrImage.sampledSizes(size, subsampling: .half)
        let target = PoisonedPlanes(Self.planes(sizes), sizes: sizes)
        let splits = sizes.map { $0.height / 2 }
        let encoder = JPEGPlanesEncoder(options: EncodingOptions(), subsampling: .half)
        try encoder.open(planes: target.buffers, sizes: sizes, writers: .rowBands(splits: splits), on: Workers())
        for c in 0..<3 {
            target.copy(c, rows: 0..<splits[c] / 2)
            encoder.finished(plane: c, writer: 0, rows: splits[c] / 2)
        }
        encoder.abandon()
        for c in 0..<3 {
            target.copy(c, rows: 0..<sizes[c].height)
            encoder.finished(plane: c, writer: 0, rows: splits[c])
            encoder.finished(plane: c, writer: 1, rows: sizes[c].height)
        }
        #expect(try encoder.close() == nil)
    }

    /// The join refuses what it cannot join: no frame or scan header, no end marker, or a file
    /// that has a restart interval already.
    @Test func joinRefusesFilesItCannotJoin() throws {
        let size = PixelSize(width: 64, height: 64)
        let planes = Self.planes(YCbCrImage.sampledSizes(size, subsampling: .half))
        let plain = try Self.encodeWhole(planes, size: size, subsampling: .half, options: EncodingOptions())
        let joined = try #require(JPEGSplice.join(top: plain, bottom: plain, height: 128, restartInterval: 16))
        #expect(try PhotoPipeline.decode(joined).height == 128)
        #expect(JPEGSplice.join(top: plain, bottom: Array(plain.dropLast(2)), height: 128, restartInterval: 16) == nil)
        #expect(JPEGSplice.join(top: Array(plain.prefix(100)), bottom: plain, height: 128, restartInterval: 16) == nil)
        #expect(JPEGSplice.join(top: joined, bottom: plain, height: 192, restartInterval: 16) == nil)
    }

    /// A grey image is one component, in one part or two.
    @Test func greyPixelsMakeAGreyJPEG() throws {
        let size = PixelSize(width: 300, height: 200)
        let grey = PixelBuffer(width: size.width, height: size.height, channels: 1,
                               pixels: (0..<size.pixelCount).map { UInt8(truncatingIfNeeded: ($0 % 300) ^ ($0 / 300)) })
        let jpeg = try JPEGEncoder(workers: Workers()).encode(grey, options: EncodingOptions(), iccProfile: nil)
        let info = try PhotoPipeline.inspect(jpeg)
        #expect(info.storedSize == size)
        let decoded = try PhotoPipeline.decode(jpeg)
        #expect(decoded.channels == 1)
        #expect(PixelMetrics.meanAbsoluteDifference(decoded, grey) < 3)
    }
}
