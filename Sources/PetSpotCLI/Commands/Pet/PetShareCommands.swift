import ArgumentParser
import Foundation
import PetSpot
import PetSpotClient
import PhotoCLI
import PhotoPipeline

/// `petspot pet flyer ID -o flyer.pdf [--paper letter]` and `petspot pet card ID -o card.jpg`:
/// the announcement's printable flyer and share card, downloaded from its server (the server
/// draws them; the CLI holds no copy of the fonts or the layout).
struct PetFlyerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flyer", abstract: "Download an announcement's printable one-page flyer (PDF).",
        discussion: "The flyer has the photo, the facts, the phone number with tear-off strips, and a QR code to the pet's page.")

    @Argument(help: "The announcement's id, exactly as the server gave it.")
    var id: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the PDF.", valueName: "file"))
    var output: String

    @Option(help: "a4 or letter (US Letter).")
    var paper = "a4"

    @Flag(help: "Replace the output file when it exists already.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print the real cause of a failure.")
    var verbose = false

    @OptionGroup(title: "Server")
    var server: ServerOptions

    @OptionGroup(title: "Drafts")
    var state: StateOptions

    func validate() throws {
        guard ["a4", "letter"].contains(paper.lowercased()) else {
            throw ValidationError("--paper must be a4 or letter (got \"\(Terminal.escaped(paper))\").")
        }
    }

    func run() async throws {
        try await ShareDownloadRun(id: id, output: output, force: force, verbose: verbose, server: server, state: state)
            .run(.flyer(paper: paper.lowercased()), what: "flyer")
    }
}

struct PetCardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card", abstract: "Download an announcement's share card (1200×630 JPEG).",
        discussion: "The picture a shared link previews as: the photo cropped to the animal, with the status, species and place.")

    @Argument(help: "The announcement's id, exactly as the server gave it.")
    var id: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the JPEG.", valueName: "file"))
    var output: String

    @Flag(help: "Replace the output file when it exists already.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print the real cause of a failure.")
    var verbose = false

    @OptionGroup(title: "Server")
    var server: ServerOptions

    @OptionGroup(title: "Drafts")
    var state: StateOptions

    func run() async throws {
        try await ShareDownloadRun(id: id, output: output, force: force, verbose: verbose, server: server, state: state)
            .run(.card, what: "share card")
    }
}

/// What `pet flyer` and `pet card` share: the id checked, the output free (or `--force`), the
/// download, the file written whole or not at all.
struct ShareDownloadRun {
    let id: String
    let output: String
    let force: Bool
    let verbose: Bool
    let server: ServerOptions
    let state: StateOptions

    func run(_ download: PetSpotAPIClient.ShareDownload, what: String) async throws {
        let announcementID = try AnnouncementIDArgument.parse(id)
        if !force && FileManager.default.fileExists(atPath: output) {
            Terminal.error("error: \(Terminal.escaped(output)) exists already. Give another -o, or --force to replace it.")
            throw ExitStatus.cannotCreate.exitCode
        }
        let journal = SubmissionJournal.inStateFolder(state.location().root.path)
        let client = PetSpotAPIClient(configuration: try server.configuration(forAnnouncement: id, journal: journal))
        let bytes: [UInt8]
        do {
            bytes = try await client.download(download, of: announcementID)
        } catch {
            await client.shutdown()
            if case .http(let status, _, _, _) = error, status == 404 || status == 410 {
                Terminal.error(status == 410
                    ? "error: The announcement \(Terminal.escaped(id)) was taken down by its owner; it has no \(what) any more."
                    : "error: No announcement with id \(Terminal.escaped(id)) on this server. Check the id; `petspot pet list` shows the announcements there.")
                if verbose { Terminal.error("cause: \(error.detail)") }
                throw ExitStatus.noInput.exitCode
            }
            throw SubmissionFailure.report(error, verbose: verbose, json: false, resumeHint: false, server: client.configuration.server)
        }
        await client.shutdown()
        do {
            try FileIO.writeAtomically(bytes, to: output)
        } catch {
            Terminal.error("error: \(error.description)")
            throw ExitStatus.cannotCreate.exitCode
        }
        Terminal.out("Wrote the \(what) of \(Terminal.escaped(id)) to \(Terminal.escaped(output)) (\(ByteFormat.string(bytes.count))).")
    }
}

/// `petspot pet matches ID`: the possible matches the server finds for an announcement.
struct PetMatchesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "matches", abstract: "Reports of the other kind that could be the same pet, best first.",
        discussion: "For a missing pet, the open found reports of the same species within 25 km whose dates fit; for a found pet, the missing ones. Each line says why.")

    @Argument(help: "The announcement's id, exactly as the server gave it.")
    var id: String

    @Flag(help: "Print the server's JSON.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print the real cause of a failure.")
    var verbose = false

    @OptionGroup(title: "Server")
    var server: ServerOptions

    @OptionGroup(title: "Drafts")
    var state: StateOptions

    func run() async throws {
        let announcementID = try AnnouncementIDArgument.parse(id)
        let journal = SubmissionJournal.inStateFolder(state.location().root.path)
        let client = PetSpotAPIClient(configuration: try server.configuration(forAnnouncement: id, journal: journal))
        let matches: [PossibleMatch]
        do {
            matches = try await client.matches(of: announcementID)
        } catch {
            await client.shutdown()
            if case .http(let status, _, _, _) = error, status == 404 || status == 410 {
                Terminal.error(status == 410
                    ? "error: The announcement \(Terminal.escaped(id)) was taken down by its owner."
                    : "error: No announcement with id \(Terminal.escaped(id)) on this server. Check the id; `petspot pet list` shows the announcements there.")
                throw ExitStatus.noInput.exitCode
            }
            throw SubmissionFailure.report(error, verbose: verbose, json: json, resumeHint: false, server: client.configuration.server)
        }
        await client.shutdown()
        if json {
            Terminal.out(String(decoding: (try? PetSpotJSON.makeEncoder(prettyPrinted: true).encode(PossibleMatchList(data: matches))) ?? Data(), as: UTF8.self))
            return
        }
        if matches.isEmpty {
            Terminal.out("No possible matches: no open report of the other kind, of the same species, within 25 km and 60 days.")
            return
        }
        for (index, match) in matches.enumerated() {
            let breed = match.breed.map { ", " + Terminal.escaped($0) } ?? ""
            Terminal.out("\(index + 1). \(match.id.rawValue)  \(match.status == .found ? "FOUND" : "MISSING") \(match.species.displayName)\(breed) — \(Terminal.escaped(match.location))")
            Terminal.out("   \(match.reasons.map(Terminal.escaped).joined(separator: ", "))  (score \(match.score))  \(match.url)")
        }
    }
}
