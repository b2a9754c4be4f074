#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Foundation
import PetSpot
import PetSpotClient
import PhotoCLI

/// The owner's side of `pet edit|close|reopen|delete|photo`: the announcement's credentials
/// and its server, and one place where a failed change becomes what a person reads.
///
/// The password comes from the submission journal (the report was sent from this machine),
/// else from `PETSPOT_PASSWORD`, else from a prompt on a terminal; never from the command line,
/// which every user of the machine can read (`ps`).
struct OwnerAccess {
    let credentials: AnnouncementCredentials
    let client: PetSpotAPIClient

    /// The options every owner command takes.
    struct Options: ParsableArguments {
        @Option(help: ArgumentHelp("Not taken: a command line is visible to every user of this machine. Set PETSPOT_PASSWORD, or answer the prompt.",
                                   valueName: "password"))
        var password: String?

        @Flag(name: .shortAndLong, help: "Print the real cause of a failure.")
        var verbose = false

        @OptionGroup(title: "Server")
        var server: ServerOptions

        @OptionGroup(title: "Drafts")
        var state: StateOptions

        func validate() throws {
            if password != nil {
                throw ValidationError("--password is not taken: a command line is visible to every user of this machine (ps). "
                    + "Set PETSPOT_PASSWORD, or run the command on a terminal to be asked.")
            }
        }
    }

    /// The credentials and a client for the announcement `id`.
    static func open(_ id: String, _ options: Options, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> OwnerAccess {
        let announcementID = try AnnouncementIDArgument.parse(id)
        let journal = SubmissionJournal.inStateFolder(options.state.location().root.path)
        let record = ((try? journal.record(matching: id)) ?? nil).flatMap { $0.announcementID == announcementID ? $0 : nil }
        let configuration = try options.server.configuration(forAnnouncement: id, journal: journal)
        let password: String
        // The journal is found by the announcement's id; its password goes only to the server it
        // came from (however that server is spelled), never to another one --server names.
        let kept = record?.managementPassword
        let sameServer = record.map { ServerAddress.same($0.server, configuration.server) } ?? false
        if let kept, sameServer {
            password = kept
        } else if let given = environment["PETSPOT_PASSWORD"], !given.isEmpty {
            password = given
        } else if Terminal.stdinIsTerminal, let typed = Self.ask("Management password of \(id): ") {
            password = typed
        } else if kept != nil, let record {
            Terminal.error("error: the management password of \(Terminal.escaped(id)) is in this machine's submission journal, for "
                + "\(Terminal.escaped(record.server)); it is not sent to \(Terminal.escaped(configuration.server)), which is another server. "
                + "Leave out --server (or pass --server \(Terminal.escaped(record.server))), or set PETSPOT_PASSWORD.")
            throw ExitStatus.noPermission.exitCode
        } else {
            Terminal.error("error: the management password of \(Terminal.escaped(id)) is not in this machine's submission journal. "
                + "Set PETSPOT_PASSWORD, or run the command on a terminal to be asked for it.")
            throw ExitStatus.noPermission.exitCode
        }
        return OwnerAccess(credentials: AnnouncementCredentials(id: announcementID, managementPassword: password),
                           client: PetSpotAPIClient(configuration: configuration))
    }

    /// Reads a password without echoing it.
    private static func ask(_ prompt: String) -> String? {
        guard let typed = getpass(prompt) else { return nil }
        let text = String(cString: typed).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }

    /// Runs a change; on failure prints what happened and how to go on, and exits.
    func run<T>(_ options: Options, _ body: () async throws(SubmissionError) -> T) async throws -> T {
        do {
            let result = try await body()
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            let id = credentials.id.rawValue, server = client.configuration.server
            let line: String? = switch error {
            case .http(404, _, _, _): "No announcement with id \(id) on \(server)."
            case .http(410, _, _, _): "The announcement \(id) was taken down; nothing is left to change."
            case .http(401, _, _, _): "\(server) did not accept the management password of \(id)."
            case .http(412, _, _, _): "The announcement \(id) changed since it was read (another device?). Run the command again."
            default: nil
            }
            guard let line else {
                throw SubmissionFailure.report(error, verbose: options.verbose, json: false, resumeHint: false, server: server)
            }
            Terminal.error("error: \(line)")
            if options.verbose { Terminal.error("cause: \(error.detail)") }
            let status: ExitStatus = switch error {
            case .http(404, _, _, _), .http(410, _, _, _): .noInput
            case .http(412, _, _, _): .tempFail
            default: .noPermission
            }
            throw status.exitCode
        }
    }
}
