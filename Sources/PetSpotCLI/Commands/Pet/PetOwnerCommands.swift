import ArgumentParser
import Foundation
import PetSpot
import PetSpotClient
import PhotoCache
import PhotoCLI

/// `petspot pet edit ID --description … --phone …`: the report's field flags, with the same
/// rules and messages as `report missing|found`, sent as a conditional change of those fields.
struct PetEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change fields of your announcement (the report's flags, the same rules).",
        discussion: "")

    @Argument(help: "The announcement's id.")
    var id: String

    @OptionGroup(title: "Fields")
    var fields: ReportFieldOptions

    @OptionGroup(title: "Owner")
    var owner: OwnerAccess.Options

    func validate() throws {
        if fields.photo != nil { throw ValidationError("The photo is changed with `petspot pet photo ID FILE` (or `--remove`).") }
        if fields.locationFromPhoto { throw ValidationError("--location-from-photo reads a photo attached to a draft; give --lat and --lon.") }
        if fields.edits.isEmpty && fields.place == nil {
            throw ValidationError("Say what to change, e.g. --description '…' or --phone '…' (see --help).")
        }
    }

    func run() async throws {
        let access = try OwnerAccess.open(id, owner)
        var edits = fields.edits
        if let place = fields.place {
            // Looked up on the announcement's own server, whose gazetteer will name the place,
            // from where the announcement is now: nearer places first, a far one confirmed.
            let current: PetDetails
            do {
                current = try await access.client.announcement(access.credentials).details
            } catch {
                await access.client.shutdown()
                throw SubmissionFailure.report(error, verbose: owner.verbose, json: false, resumeHint: false, server: access.client.configuration.server)
            }
            let origin = current.locationLatitude.flatMap { latitude in
                current.locationLongitude.map { (latitude: latitude, longitude: $0) }
            }.flatMap { $0.latitude == 0 && $0.longitude == 0 ? nil : $0 }
            switch await PlaceChoice.choose(place, client: access.client, near: origin, whose: "the announcement's location",
                                            nothing: "nothing was changed") {
            case .place(let found):
                edits += [(.latitude, String(found.latitude)), (.longitude, String(found.longitude))]
            case .refused(let status):
                await access.client.shutdown()
                throw status.exitCode
            }
        }
        let today = LocalDate.today()
        // A value the form refuses is a data error (exit 65), said as `report` says it.
        let outcome = try await access.run(owner) { () throws(SubmissionError) -> Result<(PetDetails, [String]), EditRefused> in
            let current = try await access.client.announcement(access.credentials)
            let before = EditedAnnouncement(current.details)
            var after = before
            for (field, text) in edits {
                do throws(AnswerError) {
                    try after.set(field, to: text, today: today)
                } catch {
                    return .failure(EditRefused(lines: ["\(field.label): \(error.description) (\(ReportFlag.name(of: field)))"]))
                }
            }
            let touched = Set(edits.map(\.field))
            let issues = after.issues(today: today).filter { touched.contains($0.field) }
            guard issues.isEmpty, let patch = after.patch(from: before) else {
                return .failure(EditRefused(lines: issues.map(DraftText.line(for:))))
            }
            if patch.isEmpty { return .success((current.details, [])) }
            let updated = try await access.client.update(patch, credentials: access.credentials, ifMatch: current.etag)
            return .success((updated.details, patch.fields.keys.sorted()))
        }
        let changed: (PetDetails, [String])
        switch outcome {
        case .success(let result): changed = result
        case .failure(let refused):
            for line in refused.lines { Terminal.error("error: \(line)") }
            throw ExitStatus.dataError.exitCode
        }
        if changed.1.isEmpty {
            Terminal.out("Nothing changed: the announcement already says that.")
        } else {
            Terminal.out("Changed \(changed.1.joined(separator: ", ")) of \(id):")
        }
        for (label, value) in PetShowCommand.rows(changed.0) {
            Terminal.out("\(label.padding(toLength: 12, withPad: " ", startingAt: 0)) \(Terminal.escaped(value))")
        }
    }
}

/// Values `pet edit` refuses before anything is sent, one line each.
struct EditRefused: Error {
    var lines: [String]
}

/// `petspot pet close ID --reunited | --withdrawn`.
struct PetCloseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "close", abstract: "Close your announcement: the pet is home (--reunited), or you withdraw it (--withdrawn).",
        discussion: "A closed announcement leaves the lists and shows no contact details; its page says Reunited (or Closed). "
            + "`petspot pet reopen ID` opens it again.")

    @Argument(help: "The announcement's id.")
    var id: String

    @Flag(help: "The pet and its family are together again.")
    var reunited = false

    @Flag(help: "Take the report back (filed by mistake, no longer relevant).")
    var withdrawn = false

    @OptionGroup(title: "Owner")
    var owner: OwnerAccess.Options

    func validate() throws {
        guard reunited != withdrawn else { throw ValidationError("Say why it closes: --reunited or --withdrawn.") }
    }

    func run() async throws {
        let access = try OwnerAccess.open(id, owner)
        let outcome: ClosedOutcome = reunited ? .reunited : .withdrawn
        _ = try await access.run(owner) { () throws(SubmissionError) in
            try await access.client.update(.close(outcome), credentials: access.credentials)
        }
        Terminal.out("Closed \(id) as \(outcome.displayLabel.lowercased()). Its page now says \(outcome == .reunited ? "REUNITED" : "CLOSED") "
            + "and shows no contact details: \(access.client.configuration.server)/pets/\(id)")
    }
}

/// `petspot pet reopen ID`: open again as what it was filed as.
struct PetReopenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reopen", abstract: "Open a closed announcement again, as the missing or found report it was.",
        discussion: "")

    @Argument(help: "The announcement's id.")
    var id: String

    @OptionGroup(title: "Owner")
    var owner: OwnerAccess.Options

    func run() async throws {
        let access = try OwnerAccess.open(id, owner)
        let updated = try await access.run(owner) { () throws(SubmissionError) in
            let current = try await access.client.announcement(access.credentials)
            return try await access.client.update(.reopen(as: current.details.isFoundReport ? .found : .missing),
                                                  credentials: access.credentials, ifMatch: current.etag)
        }
        Terminal.out("Reopened \(id): it is \(PetDetailsPresentation(updated.details).status) again, with your contact details, "
            + "at \(access.client.configuration.server)/pets/\(id)")
    }
}

/// `petspot pet delete ID [--yes]`: taken down for good.
struct PetDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Take your announcement down for good: its photo and details are erased.",
        discussion: "Asks first on a terminal; elsewhere --yes is required. To keep it visible as reunited, use "
            + "`petspot pet close ID --reunited` instead.")

    @Argument(help: "The announcement's id.")
    var id: String

    @Flag(help: "Do not ask (needed when not on a terminal).")
    var yes = false

    @OptionGroup(title: "Owner")
    var owner: OwnerAccess.Options

    func run() async throws {
        if !yes {
            guard Terminal.stdinIsTerminal else {
                Terminal.error("error: taking an announcement down cannot be undone; add --yes to confirm (not on a terminal, nobody can be asked).")
                throw ExitStatus.usage.exitCode
            }
            Terminal.prompt("Take down \(id) for good? Its photo and details are erased. [y/N] ")
            guard let answer = readLine(), ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) else {
                Terminal.out("Kept: nothing was changed.")
                return
            }
        }
        let access = try OwnerAccess.open(id, owner)
        try await access.run(owner) { () throws(SubmissionError) in
            try await access.client.takeDown(access.credentials)
        }
        Terminal.out("Taken down: \(access.client.configuration.server)/pets/\(id) now answers 410 Gone; its photo and details are erased.")
    }
}

/// `petspot pet photo ID FILE | --remove`.
struct PetPhotoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photo", abstract: "Replace your announcement's photo (prepared as at submit), or --remove it.",
        discussion: "")

    @Argument(help: "The announcement's id.")
    var id: String

    @Argument(help: ArgumentHelp("The new photo (JPEG, PNG, WebP, HEIC or AVIF).", valueName: "file"), completion: .file())
    var file: String?

    @Flag(help: "Remove the photo and its sizes.")
    var remove = false

    @OptionGroup(title: "Owner")
    var owner: OwnerAccess.Options

    @OptionGroup(title: "Photo cache")
    var cache: CacheOptions

    func validate() throws {
        guard (file != nil) != remove else { throw ValidationError("Give the new photo's file, or --remove (not both).") }
    }

    func run() async throws {
        // The photo is prepared first: a file that is not a photo is refused before any credential is asked.
        var photo: PhotoReference?
        if let file {
            let opened = try cache.open()
            photo = PhotoReference(try CacheFailure.run { () throws(CacheError) in try opened.add(fileAt: file) })
        }
        let access = try OwnerAccess.open(id, owner)
        if let photo {
            let uploaded = try await access.run(owner) { () throws(SubmissionError) in
                try await access.client.uploadPhoto(try PhotoUploadBody(photo: photo), credentials: access.credentials)
            }
            Terminal.out("New photo of \(id) (\(SubmissionError.bytesText(photo.byteCount)), \(photo.width) × \(photo.height)): \(uploaded.photoURL)")
        } else {
            try await access.run(owner) { () throws(SubmissionError) in try await access.client.removePhoto(access.credentials) }
            Terminal.out("Removed the photo of \(id) and its sizes.")
        }
    }
}
