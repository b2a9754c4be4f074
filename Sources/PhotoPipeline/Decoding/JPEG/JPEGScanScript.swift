#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The scans of a progressive JPEG and where each lies in the file, found without decoding, so
/// that two decompressors can each read the scans of their own components.
///
/// Every AC scan of a progressive file holds one component, and the refinement of a component's
/// coefficients depends only on that component's earlier scans. So a stream of the file with the
/// DC scans (which interleave every component) and only the AC scans of the luma decodes the luma
/// exactly as the whole file does, and likewise for the chroma; the two run on two cores.
///
/// Only a file whose every coefficient of every component ends fully refined is split: a script
/// that leaves coefficients coarse makes libjpeg smooth the blocks, which needs every component.
struct JPEGScanScript {
    struct Scan {
        /// Indexes into the frame's components, in the scan's order.
        var components: [Int]
        var spectralStart: Int, spectralEnd: Int
        var successiveLow: Int
        var isDC: Bool { spectralStart == 0 }
    }

    /// The file's bytes in order: the segments between scans, and each scan's header and data.
    enum Piece {
        case segments(Range<Int>)
        case scan(Scan, Range<Int>)
    }

    private(set) var pieces: [Piece] = []
    /// Where the EOI marker is; the file ends with it.
    private(set) var end = 0

    var scanCount: Int { pieces.count { if case .scan = $0 { true } else { false } } }

    /// Whether the frame in `header` (the segments before the first scan) is progressive Huffman,
    /// the only kind of file whose scans may be split by component; `nil` when `header` ends
    /// before the frame header (a file's first 64 KiB can be all ICC profile and XMP).
    static func isProgressive(_ header: [UInt8]) -> Bool? {
        var progressive: Bool?
        _ = try? JPEGMarkerWalk.walk(header, mode: .tolerant) { segment in
            if (0xC0...0xCF).contains(segment.marker) && ![0xC4, 0xC8, 0xCC].contains(segment.marker) {
                progressive = segment.marker == 0xC2
            }
        }
        return progressive
    }

    /// The script of `bytes`, or `nil` unless it is a whole progressive Huffman YCbCr file of three
    /// components whose scans are all where their headers say, ending with EOI.
    init?(_ bytes: JPEGByteWindow) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var componentIDs: [UInt8] = []
        var offset = 2, segmentsStart = 2
        while true {
            // Fill bytes (0xFF runs) may precede a marker.
            guard offset + 1 < bytes.count, bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            if marker == 0xD9 {
                if segmentsStart < offset { pieces.append(.segments(segmentsStart..<offset)) }
                end = offset
                break
            }
            guard offset + 3 < bytes.count else { return nil }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            let body = offset + 4
            switch marker {
            case 0xC2:   // progressive DCT, Huffman: the only frame split
                guard componentIDs.isEmpty, length >= 8 else { return nil }
                let count = Int(bytes[body + 5])
                guard count == 3, length == 8 + 3 * count else { return nil }
                componentIDs = (0..<count).map { bytes[body + 6 + 3 * $0] }
            case 0xC0, 0xC1, 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                return nil
            case 0xDA:
                guard !componentIDs.isEmpty, length >= 6 else { return nil }
                let count = Int(bytes[body])
                guard (1...3).contains(count), length == 6 + 2 * count else { return nil }
                var components: [Int] = []
                for index in 0..<count {
                    guard let component = componentIDs.firstIndex(of: bytes[body + 1 + 2 * index]) else { return nil }
                    components.append(component)
                }
                let parameters = body + 1 + 2 * count
                let scan = Scan(components: components, spectralStart: Int(bytes[parameters]),
                                spectralEnd: Int(bytes[parameters + 1]), successiveLow: Int(bytes[parameters + 2] & 0x0F))
                guard scan.spectralStart <= scan.spectralEnd, scan.spectralEnd <= 63, scan.isDC || count == 1,
                      let next = bytes.nextMarker(from: offset + 2 + length) else { return nil }
                if segmentsStart < offset { pieces.append(.segments(segmentsStart..<offset)) }
                pieces.append(.scan(scan, offset..<next))
                offset = next
                segmentsStart = next
                continue
            default:
                break
            }
            offset += 2 + length
        }
        // More scans than the single decoder accepts (hostile files use thousands): it refuses them,
        // and split in two each stream would stay under the limit.
        guard !componentIDs.isEmpty, scanCount <= Int(JPEGStream.maxScans), isComplete else { return nil }
    }

    /// Whether every coefficient of every component ends refined to its last bit: the *last* scan
    /// covering it has a successive-approximation low bit of 0, as libjpeg tracks it (a later
    /// coarse scan of a refined band leaves it coarse, and libjpeg would smooth it).
    var isComplete: Bool {
        var low = [[Int]](repeating: [Int](repeating: -1, count: 64), count: 3)
        for case .scan(let scan, _) in pieces {
            for component in scan.components {
                for k in scan.spectralStart...scan.spectralEnd { low[component][k] = scan.successiveLow }
            }
        }
        return low.allSatisfy { $0.allSatisfy { $0 == 0 } }
    }

    /// The byte ranges of a JPEG that is this file without the AC scans of the components not in
    /// `components` (DC scans and every other segment kept), adjacent ranges merged.
    func ranges(keeping components: Set<Int>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        func add(_ range: Range<Int>) {
            if let last = ranges.last, last.upperBound == range.lowerBound {
                ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
            } else {
                ranges.append(range)
            }
        }
        add(0..<2)
        for piece in pieces {
            switch piece {
            case .segments(let range): add(range)
            case .scan(let scan, let range):
                if scan.isDC || components.contains(scan.components[0]) { add(range) }
            }
        }
        add(end..<end + 2)
        return ranges
    }
}
