import ArgumentParser
import PhotoPipeline

/// The exit codes, from sysexits(3), and the one place errors are mapped onto them.
public enum ExitStatus: Int32, Sendable {
    case ok = 0
    case usage = 64
    case dataError = 65
    case noInput = 66
    case software = 70
    case cannotCreate = 73
    case ioError = 74

    static let helpText = """
        EXIT CODES (sysexits):
          0   success
          64  usage error (bad option or argument)
          65  bad input data: not an image, unsupported type, damaged, too large, budget unreachable
          66  cannot open an input file
          70  internal error
          73  cannot create an output file
          74  input/output error
        """

    /// The status for a pipeline error.
    public static func of(_ error: PhotoError) -> ExitStatus {
        switch error {
        case .unreadableFile: .noInput
        case .cannotWrite: .cannotCreate
        case .invalidOption: .usage
        case .encodingFailed: .software
        default: .dataError
        }
    }

    var exitCode: ExitCode { ExitCode(rawValue) }
}
