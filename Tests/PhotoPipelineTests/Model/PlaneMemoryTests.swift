import Foundation
@testable import PhotoPipeline
import Testing

/// An image's planes share one mapping, asked for in 2 MiB pages when large (``PlaneMemory``).
@Suite struct PlaneMemoryTests {
    /// The /proc/self/smaps entry of the mapping that holds `address` (the kernel merges
    /// neighbouring mappings alike: other tests' planes may share it): its range and flags.
    static func mapping(holding address: UInt) throws -> (range: Range<UInt>, flags: [String])? {
        // Read to the end: /proc files say they are empty.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        let smaps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        var range: Range<UInt>?
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if let bounds = fields.first?.split(separator: "-"), bounds.count == 2,
               let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16) {
                range = start..<end
            } else if let found = range, found.contains(address), line.hasPrefix("VmFlags:") {
                return (found, fields.dropFirst().map(String.init))
            }
        }
        return nil
    }

    @Test func largePlanesAreOneAlignedMappingAdvisedForHugePages() throws {
        #if os(Linux)
        let size = PixelSize(width: 2048, height: 1536)
        let image = try YCbCrImage.make(size: size, subsampling: .half) { planes in
            for (c, plane) in planes.enumerated() { plane.update(repeating: UInt8(c), count: c == 0 ? size.pixelCount : size.pixelCount / 4) }
        }
        let memory = image.planes[0].memory
        let address = UInt(bitPattern: memory.base)
        #expect(address % UInt(PlaneMemory.hugePage) == 0, "starts on a 2 MiB boundary")
        #expect(image.planes.allSatisfy { $0.memory === memory }, "one mapping for the three planes")
        #expect(image.planes[1].offset == image.planes[0].count && image.planes[2].offset == image.planes[1].offset + image.planes[1].count)
        let entry = try #require(try Self.mapping(holding: address), "the planes are not mapped")
        #expect(entry.range.contains(address + 6 << 20 - 1), "4.7 MB in whole 2 MiB pages")
        #expect(entry.flags.contains("hg"), "asked for huge pages: \(entry.flags)")
        #expect(image.planes[2].bytes.allSatisfy { $0 == 2 })
        #endif
    }

    @Test func smallPlanesComeFromMalloc() throws {
        let image = try YCbCrImage.make(size: PixelSize(width: 64, height: 48), subsampling: .half) { planes in
            planes[0].update(repeating: 7, count: 64 * 48)
            planes[1].update(repeating: 8, count: 32 * 24)
            planes[2].update(repeating: 9, count: 32 * 24)
        }
        #expect(image.planes[0].memory.count < PlaneMemory.mappedFrom)
        #expect(try Self.mapping(holding: UInt(bitPattern: image.planes[0].memory.base))?.flags.contains("hg") != true)
        #expect(image.planes[1].bytes == [UInt8](repeating: 8, count: 32 * 24))
    }
}
