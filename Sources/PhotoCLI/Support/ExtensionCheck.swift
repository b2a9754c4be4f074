#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoPipeline

/// Reports (never refuses) a file whose name says one type and whose bytes say another.
package enum ExtensionCheck {
    package static func mismatch(path: String, actual: MediaType) -> String? {
        let ext = PathText.pathExtension(path)
        guard !ext.isEmpty, let named = MediaType(fileExtension: ext), named != actual else { return nil }
        return "the name ends in .\(ext) but the content is \(actual.article) \(actual.displayName); the content decides"
    }
}
