import Foundation
import PhotoPipeline

/// One inspected file, for people (``humanText``) and scripts (JSON).
struct InspectRecord: Encodable {
    var file: String
    var error: ErrorRecord?
    var type: String?
    var mimeType: String?
    var encoding: String?
    var storedWidth: Int?, storedHeight: Int?
    var width: Int?, height: Int?
    var orientation: Int?
    var latitude: Double?, longitude: Double?
    var capturedAt: String?
    var iccProfileBytes: Int?
    /// Why the file's profile would not be carried into a prepared photo.
    var iccProfileDropped: String?
    var hasAlpha: Bool?
    var animated: Bool?
    var frames: Int?
    var bytes: Int?
    var extensionMismatch: String?
    /// Why `photo prepare` (with its default limits) would refuse the file, judged on the header.
    var prepareRefusal: ErrorRecord?

    init(file: String, error: PhotoError) {
        self.file = file
        self.error = ErrorRecord(code: error.code, message: error.description)
    }

    init(file: String, info: ImageInfo) {
        self.file = file
        type = info.type.rawValue
        mimeType = info.type.mimeType
        encoding = info.encodingSummary
        (storedWidth, storedHeight) = (info.storedSize.width, info.storedSize.height)
        (width, height) = (info.uprightSize.width, info.uprightSize.height)
        orientation = info.orientationTag
        (latitude, longitude) = (info.gps?.latitude, info.gps?.longitude)
        capturedAt = info.capturedAt?.iso8601
        iccProfileBytes = info.iccProfile?.count
        iccProfileDropped = info.droppedICCProfile?.reason
        hasAlpha = info.hasAlpha
        animated = info.isAnimated
        frames = info.frameCount
        bytes = info.byteCount
        extensionMismatch = ExtensionCheck.mismatch(path: file, actual: info.type)
        do throws(PhotoError) {
            try PhotoLimits.default.check(info)
        } catch {
            prepareRefusal = ErrorRecord(code: error.code, message: error.description)
        }
    }

    var humanText: String {
        var lines = [file]
        func add(_ label: String, _ value: String) { lines.append("  " + (label + ":").padding(toLength: 13, withPad: " ", startingAt: 0) + value) }
        add("type", "\(type.flatMap(MediaType.init(rawValue:))?.displayName ?? "?") (\(mimeType ?? "?")), \(encoding ?? "")")
        add("stored", "\(storedWidth ?? 0)×\(storedHeight ?? 0)")
        let orientationText = orientation.map { "orientation \($0): \(ExifOrientation(tagValue: $0).summary)" } ?? "no orientation tag"
        add("upright", "\(width ?? 0)×\(height ?? 0) (\(orientationText))")
        add("GPS", latitude.map { String(format: "%.6f, %.6f", $0, longitude ?? 0) } ?? "none")
        add("captured", capturedAt ?? "unknown")
        add("ICC profile", iccProfileBytes.map { "yes (\(ByteFormat.string($0)))" }
            ?? iccProfileDropped.map { "dropped by prepare: \($0)" } ?? "none")
        add("alpha", hasAlpha == true ? "yes" : "no")
        add("animated", animated == true ? "yes, \(frames ?? 0) frames (the first is used)" : "no")
        add("size", "\(ByteFormat.string(bytes ?? 0)) (\(bytes ?? 0) bytes)")
        if let extensionMismatch { add("note", extensionMismatch) }
        if let prepareRefusal { add("prepare", "refuses it (\(prepareRefusal.code)): \(prepareRefusal.message)") }
        return lines.joined(separator: "\n")
    }
}
