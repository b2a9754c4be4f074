import ArgumentParser
import Foundation
import PetSpot
import PetSpotClient
import PhotoCLI

/// `petspot pet show ID | list | edit ID | close ID | reopen ID | delete ID | photo ID | flyer ID | card ID`
struct PetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pet",
        abstract: "Read announcements from the PetSpot server, and change your own after posting.",
        subcommands: [PetShowCommand.self, PetListCommand.self, PetEditCommand.self, PetCloseCommand.self,
                      PetReopenCommand.self, PetDeleteCommand.self, PetPhotoCommand.self, PetFlyerCommand.self, PetCardCommand.self,
                      PetMatchesCommand.self])
}

struct PetShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "One announcement, as the pet details screen shows it.",
                                                    discussion: "")

    @Argument(help: "The announcement's id, exactly as the server gave it.")
    var id: String

    @Flag(help: "Print the server's JSON (PetDetails).")
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
        let details: PetDetails
        do {
            details = try await PetRead.run(client, verbose: verbose, json: json) { () throws(SubmissionError) in
                try await client.announcement(id: announcementID)
            }
        } catch {
            await client.shutdown()
            if case .http(let status, _, _, _) = error, status == 404 || status == 410 {
                // Not "something went wrong": the server answered, and it has no such announcement.
                if json {
                    var record = SubmissionFailure.Record(error)
                    record.error.exitCode = ExitStatus.noInput.rawValue
                    Terminal.out(JSONOutput.string(record))
                } else {
                    Terminal.error(status == 410
                        ? "error: The announcement \(Terminal.escaped(id)) was taken down by its owner; its details were erased."
                        : "error: No announcement with id \(Terminal.escaped(id)) on this server. Check the id; `petspot pet list` shows the announcements there.")
                    if verbose { Terminal.error("cause: \(error.detail)") }
                }
                throw ExitStatus.noInput.exitCode
            }
            throw SubmissionFailure.report(error, verbose: verbose, json: json, resumeHint: false, server: client.configuration.server)
        }
        await client.shutdown()
        if json {
            Terminal.out(String(decoding: (try? PetSpotJSON.makeEncoder(prettyPrinted: true).encode(details)) ?? Data(), as: UTF8.self))
            return
        }
        for (label, value) in Self.rows(details) {
            Terminal.out("\(label.padding(toLength: 12, withPad: " ", startingAt: 0)) \(Terminal.escaped(value))")
        }
        if let variants = details.photoVariants, !variants.isEmpty {
            // "320, 640, 1200 px wide, as JPEG and WebP" — the URLs are in --json.
            let widths = variants.map(\.width).reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } }
            let formats = variants.map { $0.format.uppercased() == "WEBP" ? "WebP" : $0.format.uppercased() }
                .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            Terminal.out("Photo sizes  \(widths.map(String.init).joined(separator: ", ")) px wide, as \(formats.joined(separator: " and ")) (URLs: --json)")
        }
    }
}

extension PetShowCommand {
    /// The label and text of each line `pet show` prints: the name when one was given, the age
    /// when there is one, the contact details when the server shows them (not for a closed one).
    static func rows(_ details: PetDetails) -> [(String, String)] {
        let shown = PetDetailsPresentation(details)
        var rows = [("Status", shown.status)]
        if details.petName != details.species.displayName { rows.append(("Name", shown.name)) }
        rows += [("Species", shown.species), ("Breed", shown.breed), ("Sex", shown.gender)]
        if details.approximateAge != nil { rows.append(("Age", shown.age)) }
        rows += [(details.isFoundReport ? "Found on" : "Last seen", shown.lastSeenDate), ("Location", shown.location),
                 ("Radius", shown.radius), ("Microchip", shown.microchipNumber), ("Description", shown.description)]
        if !details.phone.isEmpty { rows.append(("Phone", shown.phone)) }
        if details.email != nil { rows.append(("Email", shown.email)) }
        rows += [("Reward", shown.reward), ("Photo", shown.photoURL), ("Created", shown.createdAt), ("Updated", shown.updatedAt)]
        return rows
    }
}

struct PetListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Announcements, newest first, one page at a time.",
                                                    discussion: "")

    @Option(help: "How many (1–100).")
    var limit = 20

    @Option(help: "Where to start: the cursor the previous page printed.")
    var cursor: String?

    @Flag(help: "Print the server's JSON ({data, next_cursor}).")
    var json = false

    @Flag(name: .shortAndLong, help: "Print the real cause of a failure.")
    var verbose = false

    @OptionGroup(title: "Server")
    var server: ServerOptions

    @Option(help: ArgumentHelp("Only announcements near this place (\"Mokotów, Warsaw\"), nearest first.", valueName: "place"))
    var near: String?

    @Option(help: ArgumentHelp("With --near: how far, 1–200 km (\"5km\", \"5\").", valueName: "distance"))
    var radius: String?

    @Option(help: "Only this species: dog, cat, bird, rabbit, rodent, reptile or other.",
            completion: .list(Species.allCases.map { $0.rawValue.lowercased() }))
    var species: String?

    @Option(help: "missing, found or closed.", completion: .list(["missing", "found", "closed"]))
    var status: String?

    @Option(help: ArgumentHelp("Only the open announcements with this microchip number, as read from the chip (\"985 112 003 456 789\").",
                               valueName: "number"))
    var chip: String?

    func validate() throws {
        guard (1...100).contains(limit) else { throw ValidationError("--limit must be between 1 and 100 (got \(limit)).") }
        if radius != nil && near == nil { throw ValidationError("--radius needs --near PLACE.") }
        if let radius, Self.kilometres(radius) == nil {
            throw ValidationError("--radius takes a distance from 1 to 200 km, like 5km or 5 (got \"\(Terminal.escaped(radius))\").")
        }
        if let near, near.trimmingCharacters(in: .whitespaces).isEmpty || near.count > 200 {
            throw ValidationError("--near takes a place name of 1 to 200 characters, like \"Mokotów, Warsaw\".")
        }
        if let chip {
            if near != nil { throw ValidationError("--chip finds a pet wherever it was reported: leave out --near.") }
            if status?.lowercased() == "closed" { throw ValidationError("--chip finds open announcements only: leave out --status closed.") }
            let digits = chip.filter { !($0.isWhitespace || $0 == "-" || $0 == ".") }
            if digits.isEmpty || FormRules.microchip(chip) != nil {
                let reason = FormRules.microchip(chip)?.message ?? ValidationMessage.microchipLength
                throw ValidationError("--chip takes a microchip number (\(reason)); got \"\(Terminal.escaped(chip))\".")
            }
        }
    }

    /// `text` for a shell: as it is when it holds only safe characters, else in single quotes.
    static func quoted(_ text: String) -> String {
        let safe = text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_.,/".unicodeScalars.contains($0) }
        return safe ? Terminal.escaped(text) : "'" + Terminal.escaped(text).replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `5` for 5.0, `2.5` for 2.5.
    static func text(_ km: Double) -> String {
        km == km.rounded() ? String(Int(km)) : String(km)
    }

    /// "5km", "5 km", "5" as kilometres, 1–200.
    static func kilometres(_ text: String) -> Double? {
        var number = text.trimmingCharacters(in: .whitespaces).lowercased()
        if number.hasSuffix("km") { number = String(number.dropLast(2)).trimmingCharacters(in: .whitespaces) }
        guard let value = Double(number), value.isFinite, (1...200).contains(value) else { return nil }
        return value
    }

    func run() async throws {
        let client = PetSpotAPIClient(configuration: try server.configuration())
        var search: [(name: String, value: String)] = []
        if let near { search.append(("near_place", near)) }
        if let radius, let km = Self.kilometres(radius) { search.append(("radius_km", Self.text(km))) }
        if let species { search.append(("species", species)) }
        if let status { search.append(("status", status)) }
        if let chip { search.append(("chip", chip)) }
        let page: AnnouncementList
        do {
            page = try await PetRead.run(client, verbose: verbose, json: json) { () throws(SubmissionError) in
                try await client.announcements(limit: limit, cursor: cursor, search: search)
            }
        } catch {
            await client.shutdown()
            if case .http(400, let refusal?, _, _) = error, refusal.field == "near_place", let near, !json {
                // The server answered: it knows no such place. Not "something went wrong".
                Terminal.error("error: The server at \(client.configuration.server) knows no place named \"\(Terminal.escaped(near))\". "
                    + "Try the town's name with its country (\"Paris, France\").")
                throw ExitStatus.dataError.exitCode
            }
            throw SubmissionFailure.report(error, verbose: verbose, json: json, resumeHint: false, server: client.configuration.server)
        }
        await client.shutdown()
        if json {
            Terminal.out(String(decoding: (try? PetSpotJSON.makeEncoder(prettyPrinted: true).encode(page)) ?? Data(), as: UTF8.self))
            return
        }
        if let place = page.near {
            Terminal.out("Near \(Terminal.escaped(place.place)) (\(place.latitude), \(place.longitude)), within \(search.first { $0.name == "radius_km" }?.value ?? "10") km:")
        }
        if page.data.isEmpty {
            Terminal.out(chip.map { "No open announcement has the microchip number \(MicrochipNumber($0).formatted)." } ?? "No announcements.")
        }
        for details in page.data {
            let shown = PetDetailsPresentation(details)
            let distance = details.distanceKm.map { String(format: "%6.1f km  ", $0) } ?? ""
            Terminal.out("\(details.id.rawValue)  \(distance)\(shown.status.padding(toLength: 7, withPad: " ", startingAt: 0))  \(shown.species.padding(toLength: 8, withPad: " ", startingAt: 0))  \(shown.lastSeenDate)  \(Terminal.escaped(shown.location))")
        }
        if let next = page.nextCursor {
            let again = search.map { "--\($0.name == "near_place" ? "near" : $0.name == "radius_km" ? "radius" : $0.name) \(Self.quoted($0.value)) " }.joined()
            Terminal.out("More: petspot pet list \(again)--cursor \(next)")
        }
    }
}

extension PetCommand: ExitCodesListed {
    static var exitCodes: [ExitStatus] { ExitStatus.announcementCodes }
}
