import CCodecs
import Foundation
@testable import PhotoPipeline
import Testing

/// The distance is libjxl's own figure, though the pictures go in as linear floats and the norms
/// are taken from the distance map here; and a sample scored in two parts side by side reads what
/// it reads whole.
@Suite struct ButteraugliTests {
    /// The project's sample photo at 512 px and the same picture as a JPEG at quality 60.
    static func pair() throws -> (reference: PixelBuffer, distorted: PixelBuffer) {
        let prepared = try PhotoPipeline.prepare(try Fixtures.bytes("sample-photo.jpg"),
                                                 options: PrepareOptions(maxDimension: 512, encoding: EncodingOptions(format: .png)))
        let reference = try PhotoPipeline.decode(prepared.data)
        let jpeg = try ImageEncoders.encode(reference, options: EncodingOptions(format: .jpeg, quality: 60), iccProfile: nil, background: .white)
        return (reference, try PhotoPipeline.decode(jpeg))
    }

    /// libjxl's `JxlButteraugliResultGetDistance(result, 3)` for 8-bit sRGB pixels, called as any
    /// program would call it (opened here, not through the pipeline's forwarders).
    static func libjxlsOwnDistance(_ reference: PixelBuffer, _ distorted: PixelBuffer) throws -> Double {
        let library = try #require(dlopen("libjxl.so.0.7", RTLD_NOW))
        typealias Create = @convention(c) (OpaquePointer?) -> OpaquePointer?
        typealias Compute = @convention(c) (OpaquePointer?, UInt32, UInt32, UnsafePointer<JxlPixelFormat>, UnsafeRawPointer?, Int,
                                            UnsafePointer<JxlPixelFormat>, UnsafeRawPointer?, Int) -> OpaquePointer?
        typealias GetDistance = @convention(c) (OpaquePointer?, Float) -> Float
        typealias Destroy = @convention(c) (OpaquePointer?) -> Void
        func symbol<T>(_ name: String, as: T.Type) throws -> T { unsafeBitCast(try #require(dlsym(library, name)), to: T.self) }
        let api = try symbol("JxlButteraugliApiCreate", as: Create.self)(nil)
        defer { try? symbol("JxlButteraugliApiDestroy", as: Destroy.self)(api) }
        var format = JxlPixelFormat(num_channels: 3, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        let compute = try symbol("JxlButteraugliCompute", as: Compute.self)
        let computed: OpaquePointer? = reference.pixels.withUnsafeBytes { a in
            distorted.pixels.withUnsafeBytes { b in
                compute(api, UInt32(reference.width), UInt32(reference.height), &format, a.baseAddress, a.count, &format, b.baseAddress, b.count)
            }
        }
        let result = try #require(computed, "libjxl scored the pair")
        defer { try? symbol("JxlButteraugliResultDestroy", as: Destroy.self)(result) }
        return Double(try symbol("JxlButteraugliResultGetDistance", as: GetDistance.self)(result, 3))
    }

    @Test func theDistanceIsLibjxlsOwn() throws {
        let (reference, distorted) = try Self.pair()
        let ours = try #require(try Butteraugli.distance(reference, distorted))
        let libjxls = try Self.libjxlsOwnDistance(reference, distorted)
        #expect(ours > 0.5, "a JPEG at 60 is visibly apart: \(ours)")
        #expect(abs(ours - libjxls) <= 1e-4 * libjxls, "ours \(ours), libjxl's \(libjxls)")
    }

    @Test func grayIsScoredAsTheSameGrayInRGB() throws {
        let (reference, distorted) = try Self.pair()
        func gray(_ image: PixelBuffer) -> PixelBuffer {
            PixelBuffer(width: image.width, height: image.height, channels: 1,
                        pixels: stride(from: 0, to: image.pixels.count, by: 3).map { image.pixels[$0 + 1] })
        }
        let asGray = try #require(try Butteraugli.distance(gray(reference), gray(distorted)))
        let asRGB = try #require(try Butteraugli.distance(gray(reference).expandedToRGB(), gray(distorted).expandedToRGB()))
        #expect(asGray == asRGB)
    }

    /// The sample's halves, each scored with some of the other beside it, add up to the figure of
    /// the sample scored whole (scored bare, without the margin, three of these four differ by
    /// more than the bound).
    @Test(arguments: [(1024, 768), (768, 1024), (1200, 400), (300, 1000)])
    func halvesAddUpToTheWhole(width: Int, height: Int) throws {
        let (reference, _) = try Self.pair()
        let picture = reference.resized(to: PixelSize(width: width, height: height))
        let sample = try ComparisonSample(of: .pixels(picture), tiles: AutoQuality.sampleTiles, background: .white)
        #expect(sample.parts.count == 2)
        let jpeg = try ImageEncoders.encode(sample.reference, options: EncodingOptions(format: .jpeg, quality: 70), iccProfile: nil, background: .white)
        let whole = LinearPicture(sample.reference), decoded = LinearPicture(try PhotoPipeline.decode(jpeg))
        let distance = try #require(try Butteraugli.sums(whole, decoded)?.distance)
        var halves = Butteraugli.Sums()
        for part in sample.parts {
            halves = halves + (try #require(try Butteraugli.sums(whole.cropped(to: part.window), decoded.cropped(to: part.window), counting: part.counted)))
        }
        #expect(halves.pixels == sample.reference.width * sample.reference.height)
        #expect(abs(halves.distance - distance) <= 2e-3 * distance, "halves \(halves.distance), whole \(distance)")
    }
}
