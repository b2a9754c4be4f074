import PhotoCache
import PhotoPipeline
import PhotoCLI

/// One `photo add` result, for people (``humanText``) and scripts (JSON).
struct AttachmentRecord: Encodable {
    var file: String
    var error: ErrorRecord?
    var cachedPath: String?
    var mimeType: String?
    var bytes: Int?
    var width: Int?
    var height: Int?
    var capturedAt: String?
    var cacheHit: Bool?
    var cacheKey: String?
    var pinnedFor: String?

    init(file: String, attachment: PhotoAttachment, flow: CacheFlow?) {
        self.file = file
        cachedPath = attachment.cachedURL.path
        mimeType = attachment.mimeType
        bytes = attachment.fileSize
        width = attachment.width
        height = attachment.height
        capturedAt = attachment.capturedAt?.iso8601
        cacheHit = attachment.wasHit
        cacheKey = attachment.cacheKey
        pinnedFor = flow?.rawValue
    }

    init(file: String, error: CacheError) {
        self.file = file
        self.error = ErrorRecord(code: error.code, message: error.description)
    }

    var humanText: String {
        var lines = [cachedPath ?? file]
        func add(_ label: String, _ value: String) {
            lines.append("  " + (label + ":").padding(toLength: 10, withPad: " ", startingAt: 0) + value)
        }
        add("source", file)
        add("type", mimeType ?? "?")
        add("size", "\(ByteFormat.string(bytes ?? 0)) (\(bytes ?? 0) bytes)")
        add("pixels", "\(width ?? 0) × \(height ?? 0)")
        add("captured", capturedAt ?? "unknown")
        add("cache", cacheHit == true ? "hit (already prepared; nothing decoded)" : "miss (prepared and stored)")
        if let pinnedFor { add("pinned", "current photo of the \(pinnedFor) report") }
        return lines.joined(separator: "\n")
    }
}
