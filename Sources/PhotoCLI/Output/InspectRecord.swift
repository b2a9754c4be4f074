#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoPipeline

/// One inspected file, for people (``humanText``) and scripts (JSON).
package struct InspectRecord: Encodable {
    package var file: String
    package var error: ErrorRecord?
    package var type: String?
    package var mimeType: String?
    package var encoding: String?
    package var storedWidth: Int?, storedHeight: Int?
    package var width: Int?, height: Int?
    package var orientation: Int?
    package var latitude: Double?, longitude: Double?
    package var capturedAt: String?
    package var iccProfileBytes: Int?
    /// Why the file's profile would not be carried into a prepared photo.
    package var iccProfileDropped: String?
    package var hasAlpha: Bool?
    package var animated: Bool?
    package var frames: Int?
    package var bytes: Int?
    package var extensionMismatch: String?
    /// Why `photo prepare` (with its default limits) would refuse the file, judged on the header.
    package var prepareRefusal: ErrorRecord?

    package init(file: String, error: PhotoError) {
        self.file = file
        self.error = ErrorRecord(code: error.code, message: error.description)
    }

    package init(file: String, info: ImageInfo) {
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

    package var humanText: String {
        var lines = [file]
        func add(_ label: String, _ value: String) { lines.append("  " + Column.padded(label + ":", to: 13) + value) }
        add("type", "\(type.flatMap(MediaType.init(rawValue:))?.displayName ?? "?") (\(mimeType ?? "?")), \(encoding ?? "")")
        add("stored", "\(storedWidth ?? 0)×\(storedHeight ?? 0)")
        let orientationText = orientation.map { "orientation \($0): \(ExifOrientation(tagValue: $0).summary)" } ?? "no orientation tag"
        add("upright", "\(width ?? 0)×\(height ?? 0) (\(orientationText))")
        add("GPS", latitude.map { DecimalText.fixed($0, decimals: 6) + ", " + DecimalText.fixed(longitude ?? 0, decimals: 6) } ?? "none")
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
