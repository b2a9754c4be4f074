/// The items of a HEIF/AVIF file and how they reference each other (`meta` → `pitm`, `iinf`, `iref`),
/// read from the boxes directly, to refuse item graphs libheif 1.15 would decode without end.
///
/// A 5 KB HEIC found by the `prepare` fuzzer made libheif decode for minutes and grow without
/// bound: its primary grid's alpha is a grid whose tile is the primary grid itself (a cycle through
/// `auxl` and `dimg`). libheif 1.15 follows such references blindly; so would a grid repeating one
/// tiny tile tens of thousands of times. Before decoding, the references are expanded from the
/// primary image the way libheif follows them (a derived image's `dimg` inputs, an image's `auxl`
/// alpha/depth images): a cycle is refused, and so is more than ``maxDecodes`` coded images.
struct HEIFItemGraph {
    /// Coded images decoded for one picture, at most: a 48 MP iPhone photo is 192 tiles of 512 × 512,
    /// and 100 MP (the pixel limit) of 512 × 512 tiles is 382. Every tile costs its decoder's set-up
    /// (about 0.6 ms for a 64 × 64 one), so 4096 tiny tiles in a 170 KB file took 2.4 s.
    static let maxDecodes = 1024

    var primary: UInt32?
    var types: [UInt32: String] = [:]
    /// `dimg` inputs of each derived image, in order (an input may repeat).
    var inputs: [UInt32: [UInt32]] = [:]
    /// Auxiliary images (alpha, depth) of each image.
    var auxiliaries: [UInt32: [UInt32]] = [:]

    static let derivedTypes: Set<String> = ["grid", "iovl", "iden"]

    /// Reads the graph from the first top-level `meta` box; an unreadable box leaves parts empty
    /// (libheif has already accepted the container when this runs).
    init(_ bytes: [UInt8]) {
        let file = ByteReader(bytes)
        guard let meta = Self.boxes(file, from: 0, to: file.count).first(where: { $0.type == "meta" }) else { return }
        for box in Self.boxes(file, from: meta.content + 4, to: meta.end) {
            let version = file.u8(box.content) ?? 0
            switch box.type {
            case "pitm":
                primary = version == 0 ? file.u16(box.content + 4).map(UInt32.init) : file.u32(box.content + 4)
            case "iinf":
                let first = box.content + 4 + (version == 0 ? 2 : 4)
                for entry in Self.boxes(file, from: first, to: box.end) where entry.type == "infe" {
                    let entryVersion = file.u8(entry.content) ?? 0
                    if entryVersion == 2, let id = file.u16(entry.content + 4), let type = file.ascii(entry.content + 8, length: 4) {
                        types[UInt32(id)] = type
                    } else if entryVersion >= 3, let id = file.u32(entry.content + 4), let type = file.ascii(entry.content + 10, length: 4) {
                        types[id] = type
                    }
                }
            case "iref":
                // Each reference is a box, but libheif 1.15 reads them one after another and
                // ignores their sizes; a reference whose size is wrong still counts there. The
                // references of both readings are followed, so a cycle hidden from one is found.
                let idSize = version == 0 ? 2 : 4
                let sized = Self.boxes(file, from: box.content + 4, to: box.end).compactMap {
                    Self.reference(file, type: $0.type, at: $0.content, end: $0.end, idSize: idSize)?.reference
                }
                let sequential = Self.sequentialReferences(file, from: box.content + 4, to: box.end, idSize: idSize)
                for reference in sized + sequential.filter({ !sized.contains($0) }) { record(reference) }
            default: break
            }
        }
    }

    /// One item reference: `from` is of kind `type` for (or, `dimg`, built from) `targets`.
    struct Reference: Equatable {
        let type: String
        let from: UInt32
        let targets: [UInt32]
    }

    private mutating func record(_ reference: Reference) {
        switch reference.type {
        case "dimg": inputs[reference.from, default: []] += reference.targets
        case "auxl": for target in reference.targets { auxiliaries[target, default: []].append(reference.from) }
        default: break
        }
    }

    /// The reference whose `from` field is at `offset` (targets up to `end`), and where it ends.
    private static func reference(_ file: ByteReader, type: String, at offset: Int, end: Int,
                                  idSize: Int) -> (reference: Reference, end: Int)? {
        func id(_ offset: Int) -> UInt32? { idSize == 2 ? file.u16(offset).map(UInt32.init) : file.u32(offset) }
        guard offset + idSize + 2 <= end, let from = id(offset), let count = file.u16(offset + idSize) else { return nil }
        var targets: [UInt32] = [], next = offset + idSize + 2
        for _ in 0..<Int(count) {
            guard next + idSize <= end, let target = id(next) else { break }
            targets.append(target)
            next += idSize
        }
        return (Reference(type: type, from: from, targets: targets), next)
    }

    /// The references as libheif 1.15 reads them: a box header (size, type, a 64-bit size when the
    /// size is 1, 16 bytes more for `uuid`) whose size is not used, then the reference, and the
    /// next header right after it.
    static func sequentialReferences(_ file: ByteReader, from start: Int, to end: Int, idSize: Int) -> [Reference] {
        var result: [Reference] = []
        var offset = start
        while offset + 8 <= end, let size = file.u32(offset), let type = file.ascii(offset + 4, length: 4) {
            offset += 8 + (size == 1 ? 8 : 0) + (type == "uuid" ? 16 : 0)
            guard let (reference, next) = reference(file, type: type, at: offset, end: end, idSize: idSize) else { break }
            result.append(reference)
            offset = next
        }
        return result
    }

    /// Throws when decoding the primary image would follow a cycle or decode too many coded images.
    func check(_ type: MediaType) throws(PhotoError) {
        guard let primary else { return }
        var path: Set<UInt32> = []
        var decodes = 0, steps = 0
        func visit(_ item: UInt32) throws(PhotoError) {
            steps += 1
            guard steps <= 16 * Self.maxDecodes else {
                throw .corrupt(type, detail: "its images reference other images more than \(16 * Self.maxDecodes) times")
            }
            guard path.insert(item).inserted else {
                throw .corrupt(type, detail: "its images reference each other in a cycle (item \(item) is built from itself), "
                               + "which would never finish decoding")
            }
            defer { path.remove(item) }
            if Self.derivedTypes.contains(types[item] ?? "") {
                for input in inputs[item] ?? [] { try visit(input) }
            } else {
                decodes += 1
                guard decodes <= Self.maxDecodes else {
                    throw .tooCostlyToDecode(type, detail: "its picture is assembled from more than \(Self.maxDecodes) coded images, "
                                             + "where a camera's largest photos have a few hundred")
                }
            }
            for auxiliary in auxiliaries[item] ?? [] { try visit(auxiliary) }
        }
        try visit(primary)
    }

    struct Box {
        let type: String
        /// Offset of the box's content (after its header), and of its end.
        let content: Int
        let end: Int
    }

    /// The boxes in `file[from ..< to]`, stopping at the first malformed one.
    static func boxes(_ file: ByteReader, from start: Int, to end: Int) -> [Box] {
        var result: [Box] = []
        var offset = start
        while offset + 8 <= end, let size32 = file.u32(offset), let type = file.ascii(offset + 4, length: 4) {
            var size = Int(size32), header = 8
            if size32 == 1 {
                guard let high = file.u32(offset + 8), let low = file.u32(offset + 12), high == 0 else { break }
                size = Int(low)
                header = 16
            } else if size32 == 0 {
                size = end - offset
            }
            guard size >= header, size <= end - offset else { break }
            result.append(Box(type: type, content: offset + header, end: offset + size))
            offset += size
        }
        return result
    }
}
