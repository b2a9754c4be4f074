import Foundation
import Testing
@testable import PhotoPipeline

/// Limits are enforced on the header, before any pixel buffer; the byte budget is met or refused clearly.
@Suite struct LimitsAndBudgetTests {
    /// A PNG that is only a signature and an IHDR declaring `width × height`.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        var ihdr: [UInt8] = Array("IHDR".utf8)
        for v in [width, height] { ihdr += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        ihdr += [8, 2, 0, 0, 0]
        let crc = Zlib.crc32(ihdr)
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + ihdr
            + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }

    @Test func hugeHeaderIsRefusedBeforeDecoding() throws {
        let bomb = Self.pngHeader(width: 50_000, height: 50_000)
        let start = ContinuousClock.now
        #expect(throws: PhotoError.tooManyPixels(width: 50_000, height: 50_000, limit: 100_000_000)) {
            try PhotoPipeline.prepare(bomb)
        }
        // Allocating 7.5 GB of pixels would take far longer than this (and likely fail).
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    @Test func pixelLimitIsInclusiveAndConfigurable() throws {
        let options = PrepareOptions(limits: PhotoLimits(maxPixels: 640 * 480))
        #expect(throws: Never.self) { try PhotoPipeline.prepare(try Fixtures.bytes("jpeg-baseline.jpg"), options: options) }
        let tight = PrepareOptions(limits: PhotoLimits(maxPixels: 640 * 480 - 1))
        #expect(throws: PhotoError.tooManyPixels(width: 640, height: 480, limit: 640 * 480 - 1)) {
            try PhotoPipeline.prepare(try Fixtures.bytes("jpeg-baseline.jpg"), options: tight)
        }
    }

    @Test func zeroSizedHeaderIsInvalidDimensions() {
        #expect(throws: PhotoError.invalidDimensions(width: 0, height: 10)) {
            try PhotoPipeline.prepare(Self.pngHeader(width: 0, height: 10))
        }
    }

    @Test func oversizedFileIsRefusedWithoutReadingIt() throws {
        let path = Fixtures.url("jpeg-baseline.jpg").path
        #expect(throws: PhotoError.fileTooLarge(bytes: 36_657, limit: 10_000)) { try FileIO.read(path, limit: 10_000) }
        #expect(throws: PhotoError.fileTooLarge(bytes: 36_657, limit: 10_000)) {
            try PhotoPipeline.prepare(try Fixtures.bytes("jpeg-baseline.jpg"), options: PrepareOptions(limits: PhotoLimits(maxInputBytes: 10_000)))
        }
    }

    @Test func budgetLowersQualityFirst() throws {
        let source = try Fixtures.bytes("sample-photo.jpg")
        let free = try PhotoPipeline.prepare(source, options: PrepareOptions(encoding: EncodingOptions(quality: 90)))
        let budget = free.byteCount * 2 / 3
        let fitted = try PhotoPipeline.prepare(source, options: PrepareOptions(encoding: EncodingOptions(quality: 90), maxBytes: budget))
        #expect(fitted.byteCount <= budget)
        #expect(fitted.quality < 90 && fitted.quality >= 40)
        #expect(fitted.size == free.size, "quality alone was enough, so the size is kept")
    }

    @Test func budgetThenShrinksTheImage() throws {
        let source = try Fixtures.bytes("sample-photo.jpg")
        let fitted = try PhotoPipeline.prepare(source, options: PrepareOptions(maxBytes: 12_000))
        #expect(fitted.byteCount <= 12_000)
        #expect(fitted.quality == 40)
        #expect(fitted.size.longEdge < 1600 && fitted.size.longEdge >= 256)
        #expect(fitted.size.width < fitted.size.height, "still upright")
    }

    @Test func unreachableBudgetIsAClearError() throws {
        do {
            _ = try PhotoPipeline.prepare(try Fixtures.bytes("sample-photo.jpg"), options: PrepareOptions(maxBytes: 500))
            Issue.record("a 500-byte budget was met")
        } catch let error as PhotoError {
            guard case .budgetUnreachable(let maxBytes, let smallest, let format) = error else {
                Issue.record("unexpected \(error)"); return
            }
            #expect(maxBytes == 500 && smallest > 500)
            #expect(format == .jpeg)
            #expect(error.description.contains("--max-bytes"))
            #expect(!error.description.contains("PNG"), "JPEG output is not told to avoid PNG: \(error.description)")
        }
    }

    @Test func losslessPNGBudgetShrinksOnly() throws {
        let source = try Fixtures.bytes("sample-photo.jpg")
        let free = try PhotoPipeline.prepare(source, options: PrepareOptions(encoding: EncodingOptions(format: .png)))
        let fitted = try PhotoPipeline.prepare(source, options: PrepareOptions(encoding: EncodingOptions(format: .png), maxBytes: free.byteCount / 2))
        #expect(fitted.byteCount <= free.byteCount / 2)
        #expect(fitted.size.longEdge < free.size.longEdge)
    }

    @Test(arguments: [
        PrepareOptions(maxDimension: 0), PrepareOptions(encoding: EncodingOptions(quality: 0)),
        PrepareOptions(encoding: EncodingOptions(quality: 101)), PrepareOptions(maxBytes: 0),
    ])
    func invalidOptionsAreRefused(_ options: PrepareOptions) throws {
        #expect(throws: PhotoError.self) { try PhotoPipeline.prepare(try Fixtures.bytes("jpeg-baseline.jpg"), options: options) }
    }
}

/// Every error says what happened, why, and what to do.
@Suite struct ErrorMessageTests {
    @Test(arguments: [
        PhotoError.empty, .notAnImage, .unsupportedType(.gif), .truncated(.jpeg, detail: "x"), .corrupt(.png, detail: "x"),
        .invalidDimensions(width: 0, height: 1), .tooManyPixels(width: 20000, height: 20000, limit: 100_000_000),
        .fileTooLarge(bytes: 60 << 20, limit: 50 << 20), .unreadableFile(path: "/x", reason: "No such file or directory"),
        .cannotWrite(path: "/y", reason: "Permission denied"), .budgetUnreachable(maxBytes: 100, smallestBytes: 900),
        .budgetUnreachable(maxBytes: 100, smallestBytes: 900, format: .png), .diskFull(path: "/z/out.jpg"),
    ])
    func messageIsAFullSentenceWithAnAction(_ error: PhotoError) {
        let text = error.description
        #expect(text.hasSuffix(".") && text.count > 60, "\(text)")
        let actions = ["choose", "Choose", "copy", "Copy", "Check", "Resize", "Export", "Allow", "Save", "export", "raise", "Open"]
        #expect(actions.contains { text.contains($0) }, "no action in: \(text)")
    }
}
