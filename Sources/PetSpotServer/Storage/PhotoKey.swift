import Crypto

/// Keys in the photo store. A photo's key is `<sha256 hex>.<jpg|png|webp>` (the digest of its
/// bytes); a variant's is `<source digest>-<size>-r<recipe>.<jpg|webp>` (see ``PhotoVariant``),
/// derived from its photo's digest and its parameters. Anything else never reaches the store.
public enum PhotoKey {
    static let extensions: Set<String> = ["jpg", "png", "webp"]

    /// Whether `key` has the shape of a photo's key (not a variant's).
    public static func isValid(_ key: String) -> Bool {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, extensions.contains(String(parts[1])) else { return false }
        return isDigest(parts[0])
    }

    /// Whether `key` names a photo or one of its variants.
    public static func isStored(_ key: String) -> Bool {
        isValid(key) || PhotoVariant.parse(storeKey: key) != nil
    }

    /// The photo whose presence keeps `key`: the key itself for a photo, the photo it was made
    /// from for a variant of the current recipe; `nil` for a variant of an earlier recipe
    /// (nothing links to it any more) or a key of neither shape.
    public static func owner(of key: String) -> String? {
        if isValid(key) { return key }
        guard let parsed = PhotoVariant.parse(storeKey: key), parsed.recipe == PhotoVariant.recipe else { return nil }
        return PhotoVariant.sourceKey(digest: parsed.digest)
    }

    /// 64 lowercase hex digits.
    static func isDigest(_ text: Substring) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The key of `data` stored as `fileExtension`: its SHA-256 in hex, a dot, the extension.
    public static func make(for data: [UInt8], fileExtension: String) -> String {
        let key = SHA256.hash(data: data).hex + "." + fileExtension
        precondition(isValid(key), "unsupported photo extension \(fileExtension)")
        return key
    }

    /// The MIME type a key's extension stands for.
    static func mimeType(of key: String) -> String {
        switch key.split(separator: ".").last {
        case "png": "image/png"
        case "webp": "image/webp"
        default: "image/jpeg"
        }
    }

    /// The content digest part of a key (used as the strong ETag).
    static func digest(of key: String) -> Substring {
        key.prefix(64)
    }
}
