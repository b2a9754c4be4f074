import ArgumentParser
import PhotoPipeline

/// Pipeline options shared by the commands that prepare photos.
struct PipelineOptions: ParsableArguments {
    @Option(help: "Longest side of the output in pixels (never upscaled).")
    var maxDimension: Int = 2048

    @Option(help: "Output format: jpeg, webp or png (default: the output file's extension, else jpeg).")
    var format: OutputFormat?

    @Option(help: "Encoder quality 1–100 (JPEG and lossy WebP).")
    var quality: Int = 85

    @Option(help: "Byte budget, e.g. 500KB or 1MiB: lower the quality, then the size, until the photo fits.",
            transform: { try ByteSizeParser.argument($0, option: "--max-bytes", noun: "byte size") })
    var maxBytes: Int?

    @Flag(help: "Write progressive JPEG.")
    var progressive = false

    @Flag(help: "Write lossless WebP.")
    var lossless = false

    @Option(help: "Colour transparent areas become when the format has no alpha: white, black or #RRGGBB.",
            transform: { text in
                guard let color = RGBColor(parsing: text) else {
                    throw ValidationError("'\(text)' is not a colour; use white, black or #RRGGBB.")
                }
                return color
            })
    var background: RGBColor = .white

    @Option(help: "Refuse images with more megapixels than this (checked on the header).")
    var maxMegapixels: Double = 100

    @Option(help: "Refuse input files larger than this, e.g. 50MiB.",
            transform: { try ByteSizeParser.argument($0, option: "--max-input-bytes", noun: "byte size") })
    var maxInputBytes: Int = 50 << 20

    @Option(help: ArgumentHelp("Decode at reduced scale down to this many times the target size (0 = full decode).",
                               visibility: .hidden))
    var decodeHeadroom: Double = 2

    func validate() throws {
        guard maxDimension >= 1 else { throw ValidationError("--max-dimension must be at least 1.") }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be between 1 and 100.") }
        guard maxMegapixels > 0 else { throw ValidationError("--max-megapixels must be positive.") }
        if lossless, let format, format != .webp { throw ValidationError("--lossless applies to WebP output only.") }
        if progressive, let format, format != .jpeg { throw ValidationError("--progressive applies to JPEG output only.") }
    }

    /// The pipeline options for one output whose format was resolved already.
    func prepareOptions(format: OutputFormat, threads: Int) -> PrepareOptions {
        PrepareOptions(
            maxDimension: maxDimension,
            encoding: EncodingOptions(format: format, quality: quality, progressive: progressive, lossless: lossless),
            maxBytes: maxBytes,
            background: background,
            limits: PhotoLimits(maxInputBytes: maxInputBytes, maxPixels: Int(maxMegapixels * 1_000_000)),
            decodeHeadroom: decodeHeadroom >= 1 ? decodeHeadroom : nil,
            threads: threads)
    }
}

extension OutputFormat: ExpressibleByArgument {}
