/// An embedded ICC profile that was not carried into the output, and why.
public struct ICCProfileDrop: Sendable, Hashable, Codable {
    /// The profile's size in the file (for PNG, as far as it was inflated).
    public var byteCount: Int
    /// Why it was dropped, as a clause: "it is 8 MB, over the 1 MiB limit".
    public var reason: String

    public init(byteCount: Int, reason: String) {
        self.byteCount = byteCount
        self.reason = reason
    }

    /// "ICC profile dropped: it is 8 MB, over the 1 MiB limit".
    public var message: String { "ICC profile dropped: \(reason)" }
}

/// Decides whether an embedded ICC profile may be carried into a prepared photo.
///
/// Real photo profiles (sRGB, Display P3, Adobe RGB) are 0.5–4 KB and camera profiles rarely pass
/// 1 MB, while a few hundred bytes of zlib can inflate to megabytes that every viewer would then
/// download. A profile is kept only when it is at most ``maximumBytes`` (an option may lower that),
/// its header's size field matches its length, it carries the `acsp` signature, and its data
/// colour space is the output's: `GRAY` for a grey photo written as grey, `RGB ` for the rest (a
/// CMYK JPEG is decoded to RGB; grey with alpha, WebP and HEIF are written in RGB) (ICC.1:2022, section 7.2).
public enum ICCProfileCheck {
    /// The most any profile may be: 1 MiB.
    public static let maximumBytes = 1 << 20
    /// The fixed ICC header every profile starts with.
    static let headerBytes = 128

    /// The profile to carry (or `nil`) and, when there was one that cannot be carried, why.
    static func vet(_ profile: [UInt8]?, grayscale: Bool) -> (profile: [UInt8]?, drop: ICCProfileDrop?) {
        guard let profile, !profile.isEmpty else { return (nil, nil) }
        if let reason = problem(with: profile, grayscale: grayscale, limit: maximumBytes) {
            return (nil, ICCProfileDrop(byteCount: profile.count, reason: reason))
        }
        return (profile, nil)
    }

    /// Why `profile` cannot be carried, or `nil` when it can.
    static func problem(with profile: [UInt8], grayscale: Bool, limit: Int) -> String? {
        if let reason = oversize(profile.count, limit: limit) { return reason }
        guard profile.count >= headerBytes else {
            return "it is \(profile.count) bytes, shorter than the \(headerBytes)-byte header every ICC profile starts with"
        }
        let declared = Int(profile[0]) << 24 | Int(profile[1]) << 16 | Int(profile[2]) << 8 | Int(profile[3])
        guard declared == profile.count else {
            return "its header says it is \(declared) bytes, but it holds \(profile.count)"
        }
        guard profile[36..<40].elementsEqual("acsp".utf8) else {
            return "it lacks the 'acsp' signature every ICC profile carries"
        }
        let space = colourSpace(of: profile)
        let expected = grayscale ? "GRAY" : "RGB "
        guard space == expected else {
            let shown = space.trimmingTrailingSpaces.isEmpty ? "blank" : space.trimmingTrailingSpaces.printable
            return "its colour space is \(shown), but the photo is \(grayscale ? "grey" : "written in RGB")"
        }
        return nil
    }

    /// Why a profile that passed ``vet(_:grayscale:)`` for a grey photo cannot go into `format`:
    /// WebP has no grey mode, so a GRAY profile would describe RGB pixels. `nil` when it can.
    static func problem(with profile: [UInt8], in format: OutputFormat) -> String? {
        guard format == .webp, profile.count >= headerBytes, colourSpace(of: profile) == "GRAY" else { return nil }
        return "its colour space is GRAY, but WebP stores the photo in RGB"
    }

    /// The header's data colour space signature, e.g. "RGB " or "GRAY".
    private static func colourSpace(of profile: [UInt8]) -> String {
        String(decoding: profile[16..<20], as: UTF8.self)
    }

    /// Why a profile of `count` bytes is too large, or `nil`.
    static func oversize(_ count: Int, limit: Int) -> String? {
        count > limit ? "it is \(ByteFormat.string(count)), over the \(ByteFormat.string(limit)) limit for a colour profile" : nil
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Control and non-ASCII characters shown as `?`, so a hostile header cannot reach a terminal.
    var printable: String {
        String(unicodeScalars.map { (0x20..<0x7F).contains($0.value) ? Character($0) : "?" })
    }
}
