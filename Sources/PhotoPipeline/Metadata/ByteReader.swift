/// Bounds-checked reads from a byte array: every accessor returns `nil` instead of reading past the end.
struct ByteReader {
    let bytes: [UInt8]
    let base: Int
    let count: Int
    var bigEndian: Bool

    /// A reader over `bytes[base ..< base + count]`.
    init(_ bytes: [UInt8], base: Int = 0, count: Int? = nil, bigEndian: Bool = true) {
        self.bytes = bytes
        self.base = max(0, min(base, bytes.count))
        self.count = max(0, min(count ?? bytes.count - self.base, bytes.count - self.base))
        self.bigEndian = bigEndian
    }

    func contains(_ offset: Int, length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= count - length
    }

    func u8(_ offset: Int) -> UInt8? {
        contains(offset, length: 1) ? bytes[base + offset] : nil
    }

    func u16(_ offset: Int) -> UInt16? {
        guard contains(offset, length: 2) else { return nil }
        let a = UInt16(bytes[base + offset]), b = UInt16(bytes[base + offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ offset: Int) -> UInt32? {
        guard contains(offset, length: 4) else { return nil }
        var value: UInt32 = 0
        for i in 0..<4 {
            let byte = UInt32(bytes[base + offset + (bigEndian ? i : 3 - i)])
            value = value << 8 | byte
        }
        return value
    }

    func slice(_ offset: Int, length: Int) -> ArraySlice<UInt8>? {
        guard contains(offset, length: length) else { return nil }
        return bytes[(base + offset)..<(base + offset + length)]
    }

    func ascii(_ offset: Int, length: Int) -> String? {
        slice(offset, length: length).map { String(decoding: $0, as: UTF8.self) }
    }
}
