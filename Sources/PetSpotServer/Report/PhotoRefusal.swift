import PetSpot
import PhotoPipeline

/// Why the pipeline refused a photo a form sent, said to the person who chose it, beside the
/// photo question: the pipeline's own reason (not an image, a type it does not take, cut short,
/// damaged, too large, a decompression bomb), without the advice for the command line.
enum PhotoRefusal {
    /// The problem for `error`, or `nil` when the failure is the server's (not the photo's).
    static func issue(for error: PhotoError) -> ValidationIssue? {
        let message: String
        switch error {
        case .empty, .notAnImage, .unsupportedType, .truncated, .corrupt, .invalidDimensions, .tooCostlyToDecode:
            message = error.description
        case .tooManyPixels(let width, let height, let limit):
            message = "The image is \(width)×\(height) pixels, more than the \(limit / 1_000_000) megapixels this site takes, so it was refused before it was opened. Choose the photo as your phone or camera took it, or a smaller copy."
        case .fileTooLarge(_, let limit):
            return tooLarge(limit: limit)
        case .budgetUnreachable, .unreadableFile, .cannotWrite, .diskFull, .encodingFailed, .invalidOption, .codecUnavailable:
            return nil
        }
        return ValidationIssue(field: .photo, message: message)
    }

    /// A photo over the upload limit.
    static func tooLarge(limit: Int) -> ValidationIssue {
        ValidationIssue(field: .photo, message:
            "The photo is larger than the \(megabytes(limit)) this site takes. Choose a smaller copy, such as the one your phone shares by message.")
    }

    /// A byte count as people read a file's size: "20 MB", "0.3 MB".
    static func megabytes(_ bytes: Int) -> String {
        let value = Double(bytes) / 1_000_000
        return value >= 10 || value == value.rounded() ? "\(Int(value.rounded())) MB" : String(format: "%.1f MB", value)
    }
}
