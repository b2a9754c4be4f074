import ArgumentParser
import PhotoPipeline

/// Pipeline options shared by the commands that prepare photos (the output format is each
/// command's own: `prepare` takes it from the output's name, the cache from `--format` alone).
package struct PipelineOptions: ParsableArguments {
    package init() {}

    @Option(parsing: .unconditional, help: "Longest side of the output in pixels, 1–65535 (never upscaled).")
    package var maxDimension: Int = Defaults.maxDimension

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Encoder quality 1–100 (JPEG and lossy WebP; default \(Defaults.quality)), or auto: each photo's "
                               + "lowest quality that looks the same as the resized photo (butteraugli distance at most "
                               + "\(DecimalText.fixed(AutoQuality.defaultTarget, decimals: 1)); auto:DISTANCE sets another, 0.3–5).",
                               valueName: "quality|auto"),
            transform: QualityArgument.init(parsing:))
    package var quality: QualityArgument = .number(Defaults.quality)

    @Option(parsing: .unconditional,
            help: "Byte budget, e.g. 500KB or 1MiB: lower the quality, then the size, until the photo fits.",
            transform: Values.maxBytes)
    package var maxBytes: Int?

    @Flag(help: "Write progressive JPEG.")
    package var progressive = false

    @Flag(help: "Write lossless WebP.")
    package var lossless = false

    @Option(parsing: .unconditional,
            help: ArgumentHelp("normal, or max: fewer bytes for the same picture at about twice the encoder's time "
                               + "(JPEG: progressive with optimised tables; WebP: libwebp's method 6)."))
    package var effort: EncodingEffort = .normal

    @Option(help: "Colour transparent areas become when the format has no alpha: white, black or #RRGGBB.",
            transform: Values.background)
    package var background: RGBColor = Defaults.background

    @Option(parsing: .unconditional, help: "Refuse images with more megapixels than this, up to \(Int(Self.megapixelCeiling)) (checked on the header).")
    package var maxMegapixels: Double = Defaults.maxMegapixels

    @Option(parsing: .unconditional, help: "Refuse input files larger than this, e.g. 50MiB.", transform: Values.maxInputBytes)
    package var maxInputBytes: Int = Defaults.maxInputBytes

    @Option(name: .customLong("max-icc-bytes"), parsing: .unconditional,
            help: "Carry an embedded ICC colour profile only up to this size, at most and by default 1MiB (a larger one is dropped and the report says so).",
            transform: Values.maxICCBytes)
    package var maxICCBytes: Int = Defaults.maxICCBytes

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Decode at reduced scale down to this many times the target size, 1–\(Int(Self.headroomCeiling)) (0 = full decode).",
                               visibility: .hidden))
    package var decodeHeadroom: Double = Defaults.decodeHeadroom

    /// What an option left out is.
    enum Defaults {
        static let maxDimension = 2048
        static let quality = 85
        static let background = RGBColor.white
        static let maxMegapixels = 100.0
        static let maxInputBytes = 50 << 20
        static let maxICCBytes = ICCProfileCheck.maximumBytes
        static let decodeHeadroom = PrepareOptions().decodeHeadroom ?? 0
    }

    /// How the options that are not plain numbers read their text.
    enum Values {
        static func maxBytes(_ text: String) throws -> Int {
            try ByteSizeParser.argument(text, option: "--max-bytes", noun: "byte size", examples: "500KB, 1MiB or 750000")
        }

        static func maxInputBytes(_ text: String) throws -> Int {
            try ByteSizeParser.argument(text, option: "--max-input-bytes", noun: "byte size", examples: "50MB or 100MiB")
        }

        static func maxICCBytes(_ text: String) throws -> Int {
            try ByteSizeParser.argument(text, option: "--max-icc-bytes", noun: "byte size", examples: "64KiB or 1MiB")
        }

        static func background(_ text: String) throws -> RGBColor {
            guard let color = RGBColor(parsing: text) else {
                throw ValidationError("'\(text)' is not a colour; use white, black or #RRGGBB.")
            }
            return color
        }
    }

    /// The largest `--max-megapixels` (10¹¹ pixels; far beyond any photo, and `Int`-safe).
    package static let megapixelCeiling = 100_000.0
    /// The largest `--decode-headroom`.
    package static let headroomCeiling = 64.0

    package func validate() throws {
        try NumericOption.check("--max-dimension", maxDimension, in: 1...65_535)
        try NumericOption.check("--max-megapixels", maxMegapixels, in: 0.000_001...Self.megapixelCeiling, floor: "> 0")
        guard maxICCBytes <= ICCProfileCheck.maximumBytes else {
            throw ValidationError("--max-icc-bytes may only lower the 1 MiB limit for a colour profile (got \(ByteSizeParser.echo(maxICCBytes))); "
                                  + "use e.g. 64KiB, or leave it out for 1 MiB.")
        }
        if decodeHeadroom != 0 {
            try NumericOption.check("--decode-headroom", decodeHeadroom, in: 1...Self.headroomCeiling, floor: "0 or ≥ 1")
        }
    }

    /// Refuses --lossless, --progressive and --effort for a format they do not apply to.
    /// - Parameter output: what the format is for, for the message, e.g. "out.png".
    package func checkFlags(for format: OutputFormat, output: String? = nil) throws {
        let target = output.map { ", and \($0) will be \(format.rawValue.uppercased())" } ?? ", not \(format.rawValue.uppercased())"
        if lossless, format != .webp { throw ValidationError("--lossless applies to WebP output only\(target).") }
        if progressive, format != .jpeg { throw ValidationError("--progressive applies to JPEG output only\(target).") }
        if effort != .normal, format == .png { throw ValidationError("--effort applies to JPEG and WebP output only\(target).") }
    }

    /// The pipeline options for one output whose format was resolved already.
    package func prepareOptions(format: OutputFormat, threads: Int) -> PrepareOptions {
        PrepareOptions(
            maxDimension: maxDimension,
            encoding: EncodingOptions(format: format, quality: quality.encoderQuality, progressive: progressive, lossless: lossless,
                                      effort: effort),
            autoQuality: quality.autoQuality,
            maxBytes: maxBytes,
            background: background,
            limits: PhotoLimits(maxInputBytes: maxInputBytes, maxPixels: Int(maxMegapixels * 1_000_000)),
            decodeHeadroom: decodeHeadroom >= 1 ? decodeHeadroom : nil,
            threads: threads,
            maxICCProfileBytes: maxICCBytes)
    }
}

extension OutputFormat: ExpressibleByArgument {}
extension EncodingEffort: ExpressibleByArgument {}
