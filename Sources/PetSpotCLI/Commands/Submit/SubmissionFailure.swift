import ArgumentParser
import PetSpotClient
import PhotoCLI

/// The one place a submission error becomes what a person sees and an exit status: the
/// product's message ("No connection…" / "Something went wrong…"), the real cause with
/// `--verbose`, the whole error with `--json`.
enum SubmissionFailure {
    /// Runs `body`; on failure prints `error: …` (and the cause with `verbose`) and exits.
    static func run<T>(verbose: Bool = false, json: Bool = false, _ body: () throws(SubmissionError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw report(error, verbose: verbose, json: json)
        }
    }

    /// Prints the error and returns the exit to throw.
    /// - Parameters:
    ///   - resumeHint: whether a retryable failure ends with "Run `petspot report submit` again
    ///     to resume" (only the commands that submit resume anything).
    ///   - server: the URL tried, named when nothing answered there.
    ///   - otherServerHint: whether "nothing answered" suggests another server.
    static func report(_ error: SubmissionError, verbose: Bool, json: Bool, resumeHint: Bool = true, server: String? = nil,
                       otherServerHint: Bool = true) -> ExitCode {
        if json {
            Terminal.out(JSONOutput.string(Record(error)))
        } else {
            if error.isForeignAnswer, let server {
                Terminal.error("error: \(error.foreignAnswerText(server: server)): is it a PetSpot server? "
                    + "Pass --server URL (or set PETSPOT_SERVER) with a PetSpot server's address.")
            } else {
                Terminal.error("error: \(error.userMessage)")
            }
            if verbose { Terminal.error("cause: \(error.detail)") }
            if case .http(400, let apiError, _, _) = error, let field = apiError?.field {
                Terminal.error("The server refused the field \(field): \(apiError?.message ?? "")")
            }
            if case .offline(let cause) = error, let server, otherServerHint {
                Terminal.error("Nothing answered at \(server) (\(Self.reason(cause))): start petspot-server there, "
                               + "or pass --server URL (or set PETSPOT_SERVER) for another server.")
            }
            if resumeHint, error.isRetryable {
                Terminal.error("Run `petspot report submit` again to resume; nothing will be sent twice.")
            } else if error.isRetryable, !error.isOffline {
                Terminal.error("Try again in a moment.")
            }
        }
        return status(of: error).exitCode
    }

    /// "connection refused" from "127.0.0.1:9: connection refused".
    static func reason(_ cause: String) -> String {
        cause.components(separatedBy: ": ").last ?? cause
    }

    static func status(of error: SubmissionError) -> ExitStatus {
        switch error {
        case .offline: .unavailable
        case .network: .tempFail
        case .http(let status, _, _, _):
            switch status {
            case 401, 403, 429: .noPermission
            case 400, 413, 415, 422: .dataError
            case 408: .tempFail
            default: .unavailable
            }
        case .invalidResponse: .protocolError
        case .photoUnavailable: .noInput
        case .journal: .cannotCreate
        case .configuration: .usage
        }
    }

    /// `{"error": {"message", "detail", "status", "field", "exit_code"}}`.
    struct Record: Encodable {
        struct Body: Encodable {
            var message: String
            var detail: String
            var status: Int?
            var field: String?
            var serverCode: String?
            var exitCode: Int32
        }

        var error: Body

        init(_ error: SubmissionError) {
            var serverCode: String?
            if case .http(_, let apiError, _, _) = error { serverCode = apiError?.code.rawValue }
            self.error = Body(message: error.userMessage, detail: error.detail, status: error.status, field: error.field,
                              serverCode: serverCode, exitCode: SubmissionFailure.status(of: error).rawValue)
        }
    }
}
