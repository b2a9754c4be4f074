@testable import PhotoPipeline

/// A prepare with two decoders on one JPEG (row bands, component split) and with the single one,
/// for tests that check the two give the same outcome.
enum TwoDecoderParity {
    /// The prepared bytes or the error, with two decoders allowed at any size, then with one.
    static func outcomes(_ bytes: [UInt8], maxDimension: Int = 1024)
        -> (twoDecoders: Result<[UInt8], PhotoError>, single: Result<[UInt8], PhotoError>) {
        var options = PrepareOptions(maxDimension: maxDimension, threads: 2)
        let two = Result { () throws(PhotoError) in try PhotoPipeline.prepare(bytes, options: options).data }
        options.twoDecoderMinimumPixels = nil
        let single = Result { () throws(PhotoError) in try PhotoPipeline.prepare(bytes, options: options).data }
        return (two, single)
    }
}

extension PrepareOptions {
    /// The same options, resizing a JPEG's RGB pixels instead of its own YCbCr planes.
    var resizingRGB: PrepareOptions {
        var options = self
        options.jpegInYCbCr = false
        return options
    }
}
