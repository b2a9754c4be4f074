#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything that can go wrong between a file and an upload-ready photo.
///
/// Each case carries its context; ``description`` is a full sentence saying what happened,
/// why, and what the person can do about it.
public enum PhotoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file holds no bytes at all.
    case empty
    /// The bytes are not any image or document type PetSpot recognises.
    case notAnImage
    /// A recognised type the pipeline does not accept (GIF, TIFF, PDF, …).
    case unsupportedType(MediaType)
    /// The file ends before the image does.
    case truncated(MediaType, detail: String)
    /// The image data is damaged; `detail` is the codec's own message.
    case corrupt(MediaType, detail: String)
    /// The header declares a width or height of zero.
    case invalidDimensions(width: Int, height: Int)
    /// The header declares more pixels than the limit (a decompression bomb or a huge scan).
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The file's structure would make decoding cost far more than a photo of its size (hundreds of
    /// progressive scans over the same coefficients); `detail` gives the counts.
    case tooCostlyToDecode(MediaType, detail: String)
    /// The file is bigger than the input limit.
    case fileTooLarge(bytes: Int, limit: Int)
    /// The file could not be opened or read.
    case unreadableFile(path: String, reason: String)
    /// The output could not be written.
    case cannotWrite(path: String, reason: String)
    /// The output could not be written because the file system is full.
    case diskFull(path: String)
    /// The encoder refused the pixels (should not happen with valid options).
    case encodingFailed(MediaType, detail: String)
    /// Even at the lowest quality and the smallest allowed size the photo does not fit the byte budget.
    /// `format` is the output format, when known, so the advice fits it.
    case budgetUnreachable(maxBytes: Int, smallestBytes: Int, format: OutputFormat? = nil)
    /// An option is out of its range.
    case invalidOption(String)
    /// A codec library this photo needs cannot be loaded: which one, why, and the package to install.
    case codecUnavailable(String)

    /// A stable machine-readable code, matching the corpus's error vocabulary where there is one.
    public var code: String {
        switch self {
        case .empty: "empty"
        case .notAnImage: "not-an-image"
        case .unsupportedType(let type): "unsupported:\(type.mimeType)"
        case .truncated: "truncated"
        case .corrupt: "corrupt"
        case .invalidDimensions: "invalid-dimensions"
        case .tooManyPixels: "too-many-pixels"
        case .tooCostlyToDecode: "too-costly-to-decode"
        case .fileTooLarge: "file-too-large"
        case .unreadableFile: "unreadable-file"
        case .cannotWrite: "cannot-write"
        case .diskFull: "disk-full"
        case .encodingFailed: "encoding-failed"
        case .budgetUnreachable: "budget-unreachable"
        case .invalidOption: "invalid-option"
        case .codecUnavailable: "codec-unavailable"
        }
    }

    /// Whether the failure is in the input data (as opposed to I/O or options).
    public var isBadInput: Bool {
        switch self {
        case .empty, .notAnImage, .unsupportedType, .truncated, .corrupt, .invalidDimensions,
             .tooManyPixels, .tooCostlyToDecode, .fileTooLarge, .budgetUnreachable:
            true
        case .unreadableFile, .cannotWrite, .diskFull, .encodingFailed, .invalidOption, .codecUnavailable:
            false
        }
    }

    private static let accepts = "PetSpot accepts JPEG, PNG, WebP, HEIC or AVIF"

    public var description: String {
        switch self {
        case .empty:
            return "The file is empty (0 bytes), so there is no photo in it. Choose the photo file again; if it came from a download or a transfer, copy it once more."
        case .notAnImage:
            return "This file is not an image. \(Self.accepts) photos; choose a photo file."
        case .unsupportedType(let type):
            let hint: String = switch type {
            case .gif, .bmp, .tiff, .jxl, .ico, .psd: " Save or export it as JPEG or PNG and try again."
            case .mp4: " Choose a photo, not a video (a Live Photo's still is the HEIC beside its movie)."
            default: " Choose the photo itself, not a document about it."
            }
            return "This is \(type.article) \(type.displayName) (\(type.mimeType)); \(Self.accepts).\(hint)"
        case .truncated(let type, let detail):
            return "The \(type.displayName) is cut short (\(detail)): the file ends before the picture does, usually because a download or copy was interrupted. Copy or download the original again."
        case .corrupt(let type, let detail):
            return "The \(type.displayName) is damaged and cannot be decoded (\(detail)). Open it in an image viewer to check it, or choose another copy of the photo."
        case .invalidDimensions(let width, let height):
            return "The image header declares a size of \(width)×\(height) pixels; a photo needs at least 1×1. The file is damaged: choose another copy of the photo."
        case .tooManyPixels(let width, let height, let limit):
            let megapixels = Double(width) * Double(height) / 1_000_000
            return "The image is \(width)×\(height) pixels (\(DecimalText.fixed(megapixels, decimals: 1)) megapixels), more than the limit of \(limit / 1_000_000) megapixels, so it was refused before decoding. Resize it below the limit first, or raise the limit with --max-megapixels."
        case .tooCostlyToDecode(let type, let detail):
            return "The \(type.displayName) was refused before decoding: \(detail). Such a file costs the server far more than its picture is worth and no camera or editor writes one. Open it in an image editor and save it again as an ordinary \(type.displayName)."
        case .fileTooLarge(let bytes, let limit):
            return "The file is \(ByteFormat.string(bytes)), more than the input limit of \(ByteFormat.string(limit)). Export a smaller version of the photo, or raise the limit with --max-input-bytes."
        case .unreadableFile(let path, let reason):
            if reason.hasPrefix("it is a folder") {
                return "\(path) is a folder, not a photo: give the photos in it, e.g. \(path.hasSuffix("/") ? path : path + "/")*.jpg."
            }
            if path == "-" {
                return "Standard input (-) is not read here: give the photo's file path (`photo prepare - -o FILE` reads standard input)."
            }
            return "Cannot read \(path): \(reason). Check that the path is right and that you may read the file."
        case .cannotWrite(let path, let reason):
            // A reason that already says what to do (a dangling link) needs no general advice.
            if reason.contains("; ") { return "Cannot write \(path): \(reason)." }
            return "Cannot write \(path): \(reason). Check that the folder exists, that you may write to it, and that the disk has space."
        case .diskFull(let path):
            return "Cannot write \(path): the disk is full; nothing was written there. Free some space, or choose a folder on another disk, and try again."
        case .encodingFailed(let type, let detail):
            return "Encoding the \(type.displayName) failed (\(detail)). Try another output format."
        case .budgetUnreachable(let maxBytes, let smallestBytes, let format):
            let advice = switch format {
            case .png?: "Allow more bytes with --max-bytes, or choose WebP or JPEG instead of PNG (lossless PNG cannot trade quality for bytes)."
            case .webp?: "Allow more bytes with --max-bytes; for lossless WebP, drop --lossless so the quality can be lowered."
            default: "Allow more bytes with --max-bytes."
            }
            return "The photo cannot be made to fit \(ByteFormat.string(maxBytes)): even at the lowest quality and smallest size allowed it takes \(ByteFormat.string(smallestBytes)). \(advice)"
        case .invalidOption(let message):
            return message
        case .codecUnavailable(let problem):
            return "The image codec library \(problem). Nothing was written for this photo."
        }
    }
}
