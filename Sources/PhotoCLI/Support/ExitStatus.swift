import ArgumentParser
import PhotoPipeline

/// The exit codes, from sysexits(3), and the one place errors are mapped onto them.
public enum ExitStatus: Int32, Sendable {
    case ok = 0
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case software = 70
    case cannotCreate = 73
    case ioError = 74
    case tempFail = 75
    case protocolError = 76
    case noPermission = 77

    /// What each code means, for `--help`.
    private var meaning: String {
        switch self {
        case .ok: "success"
        case .usage: "usage error (bad option or argument)"
        case .dataError: """
            bad input data: not an image, an unsupported type, damaged,
            too large, or the byte budget cannot be met; for
            `cache verify`, cached files are missing or damaged; for
            `report validate`, the draft has problems; a draft file
            is damaged; the server refused a field (400, 413, 415)
            """
        case .noInput: "cannot open an input file (a photo, a draft), or no such announcement"
        case .unavailable: """
            the server cannot be reached, or it failed (5xx) or does not
            know the announcement (404)
            """
        case .software: "internal error"
        case .cannotCreate: """
            a file cannot be created or written where it should go:
            the prepared photo (or it exists already), the cache,
            the drafts folder, the submission journal
            """
        case .ioError: """
            input/output error: the disk is full, or the cache index is
            damaged (`cache verify --repair` rebuilds it)
            """
        case .tempFail: """
            submitting: the connection broke or timed out; run
            `petspot report submit` again to resume; a report's draft
            is open in another petspot's questions, or being sent by
            another `petspot report submit`
            """
        case .protocolError: "the server's answer does not follow the contract"
        case .noPermission: """
            the server refused the announcement's id and management
            password (401), or asks to wait (429)
            """
        }
    }

    /// The codes a command can return, sorted, each with its meaning:
    /// ```
    /// EXIT CODES (sysexits; when several things fail, the highest code):
    ///   0   success
    /// ```
    package static func help(_ codes: [ExitStatus]) -> String {
        let rows = Set(codes).sorted { $0.rawValue < $1.rawValue }.map { code in
            let lines = code.meaning.split(separator: "\n")
            return ([Column.padded("  \(code.rawValue)", to: 6) + lines[0]]
                    + lines.dropFirst().map { "      " + $0 }).joined(separator: "\n")
        }
        return (["EXIT CODES (sysexits; when several things fail, the highest code):"] + rows).joined(separator: "\n")
    }

    /// What `photo prepare` can return.
    package static let photoCodes: [ExitStatus] = [.ok, .usage, .dataError, .noInput, .software, .cannotCreate, .ioError]
    /// What `photo inspect` can return.
    package static let inspectCodes: [ExitStatus] = [.ok, .usage, .dataError, .noInput]
    /// What the cache commands can return.
    package static let cacheCodes: [ExitStatus] = [.ok, .usage, .dataError, .noInput, .software, .cannotCreate, .ioError]
    /// What the commands about a posted announcement (`pet …`) can return.
    package static let announcementCodes: [ExitStatus] = [.ok, .usage, .dataError, .noInput, .unavailable, .tempFail,
                                                          .protocolError, .noPermission]
    /// What the report commands (filling, validating, submitting) can return.
    package static let reportCodes: [ExitStatus] = [.ok, .usage, .dataError, .noInput, .unavailable, .cannotCreate, .ioError,
                                                    .tempFail, .protocolError, .noPermission]

    /// The status for a pipeline error.
    public static func of(_ error: PhotoError) -> ExitStatus {
        switch error {
        case .unreadableFile: .noInput
        case .cannotWrite: .cannotCreate
        case .diskFull: .ioError
        case .invalidOption: .usage
        case .encodingFailed, .codecUnavailable: .software
        default: .dataError
        }
    }

    /// The status of a run where several things failed: the highest code, so that the status does
    /// not depend on the order of the arguments (74 over 73 over 70 over 66 over 65 over 64).
    package static func mostSevere(_ statuses: some Sequence<ExitStatus>) -> ExitStatus {
        statuses.max { $0.rawValue < $1.rawValue } ?? .ok
    }

    package var exitCode: ExitCode { ExitCode(rawValue) }
}

/// A command that lists, at the end of its help, the exit codes it can return. A command group
/// lists its commands' codes; a command without a list of its own takes its group's.
package protocol ExitCodesListed {
    static var exitCodes: [ExitStatus] { get }
}
