internal import CCodecs

/// Pixels converted from an embedded colour profile to sRGB with Little CMS (perceptual intent),
/// for a profile the photo cannot carry (``ICCColourProfile/convert(reason:)``): the photo then
/// looks as its profile said, with no profile at all. Grey stays grey (sRGB's tone curve, D50),
/// alpha is copied as it is.
///
/// See https://www.littlecms.com/color-engine/documentation/ (the API's tutorial, `cmsCreateTransform`).
enum ColourConversion {
    /// `pixels` (in `profile`'s colour space) in sRGB.
    /// - Throws: ``PhotoError/corrupt(_:detail:)`` when Little CMS cannot read the profile or make
    ///   a transform from it; ``PhotoError/codecUnavailable(_:)`` without Little CMS.
    static func toSRGB(_ pixels: PixelBuffer, from profile: [UInt8], type: MediaType) throws(PhotoError) -> PixelBuffer {
        try CodecLibrary.lcms.load()
        let grey = pixels.channels <= 2
        guard let source = profile.withUnsafeBytes({ lazy_cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else {
            throw .corrupt(type, detail: "its colour profile cannot be read to convert the photo to sRGB")
        }
        defer { _ = lazy_cmsCloseProfile(source) }
        guard let target = grey ? greyTarget() : lazy_cmsCreate_sRGBProfile() else {
            throw .encodingFailed(type, detail: "Little CMS could not make an sRGB profile")
        }
        defer { _ = lazy_cmsCloseProfile(target) }
        let format: cmsUInt32Number = switch pixels.channels {
        case 1: codecs_lcms_gray_8
        case 2: codecs_lcms_graya_8
        case 3: codecs_lcms_rgb_8
        default: codecs_lcms_rgba_8
        }
        // A finer precalculated table than the default: a lookup-table profile's conversion is
        // otherwise off by several levels in dark, saturated colours.
        let flags = codecs_lcms_high_resolution | (pixels.channels == 2 || pixels.channels == 4 ? codecs_lcms_copy_alpha : 0)
        guard let transform = lazy_cmsCreateTransform(source, format, target, format, codecs_lcms_perceptual, flags) else {
            throw .corrupt(type, detail: "its colour profile does not describe its \(grey ? "grey" : "RGB") pixels")
        }
        defer { lazy_cmsDeleteTransform(transform) }
        var output = pixels
        let rowBytes = pixels.width * pixels.channels
        pixels.pixels.withUnsafeBytes { input in
            output.pixels.withUnsafeMutableBytes { result in
                // Row by row: a transform's pixel count is 32-bit.
                for row in 0..<pixels.height {
                    lazy_cmsDoTransform(transform, input.baseAddress! + row * rowBytes, result.baseAddress! + row * rowBytes,
                                        cmsUInt32Number(pixels.width))
                }
            }
        }
        return output
    }

    /// Whether Little CMS reads `profile` and can convert from it to sRGB (`false` as well when
    /// Little CMS cannot be loaded: the photo is then prepared without the profile).
    static func canRead(_ profile: [UInt8]) -> Bool {
        guard (try? CodecLibrary.lcms.load()) != nil,
              let source = profile.withUnsafeBytes({ lazy_cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else {
            return false
        }
        defer { _ = lazy_cmsCloseProfile(source) }
        let grey = lazy_cmsGetColorSpace(source) == cmsSigGrayData
        guard let target = grey ? greyTarget() : lazy_cmsCreate_sRGBProfile() else { return false }
        defer { _ = lazy_cmsCloseProfile(target) }
        let format = grey ? codecs_lcms_gray_8 : codecs_lcms_rgb_8
        guard let transform = lazy_cmsCreateTransform(source, format, target, format, codecs_lcms_perceptual, 0) else { return false }
        lazy_cmsDeleteTransform(transform)
        return true
    }

    /// Grey with sRGB's tone curve and white: what a grey photo without a profile is taken to be.
    private static func greyTarget() -> cmsHPROFILE? {
        let parameters: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        guard let curve = parameters.withUnsafeBufferPointer({ lazy_cmsBuildParametricToneCurve(nil, 4, $0.baseAddress) }) else { return nil }
        defer { lazy_cmsFreeToneCurve(curve) }
        return lazy_cmsCreateGrayProfile(lazy_cmsD50_xyY(), curve)
    }
}
