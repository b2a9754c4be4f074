@testable import PhotoPipeline

/// PNG files built by the tests, chunk by chunk: any bit depth and colour type, with or without
/// the chunks that tag its colour (gAMA, sRGB, iCCP).
enum PNGBuilder {
    /// A PNG from its IHDR fields and IDAT contents (with IEND unless `complete` is false);
    /// `extra` chunks go between IHDR and IDAT.
    static func png(width: Int, height: Int, bitDepth: UInt8 = 8, colorType: UInt8, idat: [UInt8],
                    extra: [(type: String, data: [UInt8])] = [], complete: Bool = true) -> [UInt8] {
        let ihdr = be32(width) + be32(height) + [bitDepth, colorType, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr)
            + extra.flatMap { chunk($0.type, $0.data) } + chunk("IDAT", idat) + (complete ? chunk("IEND", []) : [])
    }

    /// A 16-bit PNG of `samples` (row-major, `channels` per pixel: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA).
    static func png16(width: Int, height: Int, channels: Int, samples: [UInt16],
                      extra: [(type: String, data: [UInt8])] = []) -> [UInt8] {
        let colorType: UInt8 = [1: 0, 2: 4, 3: 2, 4: 6][channels]!
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (1 + width * channels * 2))
        for y in 0..<height {
            raw.append(0)  // filter: none
            for sample in samples[(y * width * channels)..<((y + 1) * width * channels)] {
                raw += [UInt8(sample >> 8), UInt8(sample & 0xFF)]
            }
        }
        return png(width: width, height: height, bitDepth: 16, colorType: colorType, idat: Zlib.deflate(raw), extra: extra)
    }

    /// An `iCCP` chunk carrying `profile`.
    static func iccpChunk(_ profile: [UInt8]) -> (type: String, data: [UInt8]) {
        ("iCCP", Array("ICC Profile".utf8) + [0, 0] + Zlib.deflate(profile))
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(Zlib.crc32(body)))
    }

    static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }
}
