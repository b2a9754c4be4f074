import ArgumentParser
import Foundation
import PetSpot
import PetSpotClient
import PhotoCache
import PhotoCLI

/// What `report missing` and `report found` do: apply the flags to the flow's draft, save it,
/// ask for what is still missing when a person is at a terminal, and say where the draft stands.
struct ReportFilling<Draft: EditableDraft> {
    /// The typed fields given as flags, in form order.
    var edits: [(field: FormField, text: String)]
    /// `--photo`: a file to attach, or `""` to remove the photo.
    var photoPath: String?
    /// `--location-from-photo`.
    var locationFromPhoto: Bool
    /// Whether questions may be asked (stdin is a terminal and `--no-input` was not given).
    var interactive: Bool
    var state: StateOptions
    var cache: CacheOptions
    var pipeline: PipelineOptions
    /// `--json`, `--verbose`, `--quiet`.
    var reporting: ReportingOptions
    /// The server a place name is looked up on in the questions (`--server`, else
    /// `$PETSPOT_SERVER`, else the default).
    var server: String? = nil

    func run() throws {
        let flagsGiven = !edits.isEmpty || photoPath != nil
        if !interactive && !flagsGiven {
            // Nothing to apply and nobody to ask: an empty draft would only be noise.
            throw ValidationError("Nothing to fill in: give fields as flags (see `petspot report \(Draft.flow.rawValue) --help`), "
                + "or run on a terminal to be asked; `petspot report show --flow \(Draft.flow.rawValue)` shows the draft.")
        }
        let today = LocalDate.today()
        let store = state.store()
        if reporting.verbose { Terminal.error("drafts in \(store.location.draftsFolder.path) (chosen by \(store.location.source.rawValue))") }
        let photos = CachedPhotoAttacher(
            cache: try cache.open(), flow: Draft.flow,
            options: pipeline.prepareOptions(format: .jpeg,
                                             threads: JobsOption.cores))
        // Load, change and save under the draft's lock: two commands filling the same draft at
        // once must both keep their fields. The wizard keeps the lock until it ends, so that a
        // command run meanwhile elsewhere is refused (exit 75) instead of overwritten by its next save.
        let lock = try DraftFailure.run { () throws(DraftStoreError) in try store.acquireLock(Draft.flow, for: .command) }
        defer { lock.release() }
        let filled = try { () throws -> (Draft, URL, ExitCode?, [String]) in
            var draft = try DraftFailure.run { () throws(DraftStoreError) in try store.load(Draft.self) }?.draft ?? Draft()
            if let note = try CacheFailure.run({ () throws(CacheError) in try DraftPhotoSync.sync(&draft, with: photos) }) {
                Terminal.error("note: \(note)")
            }
            // Every value is tried: the ones that cannot be this field's value are all reported
            // together, the others are kept in the draft.
            var refused: [String] = []
            for (field, text) in edits {
                do {
                    if let note = try draft.set(field, to: text, today: today) { Terminal.error("note: \(note)") }
                } catch {
                    refused.append("\(ReportFlag.name(of: field)): \(error)")
                }
            }
            let photoFailure = attachPhoto(to: &draft, with: photos)
            if flagsGiven {
                // The draft is on the first step that still needs something, as a wizard would leave it.
                draft.step = Draft.Step.allCases.first { !draft.validate(step: $0, today: today).isEmpty }
                    ?? Draft.Step.allCases[Draft.Step.allCases.count - 1]
            }
            let url = try DraftFailure.run { () throws(DraftStoreError) in try store.save(draft) }
            return (draft, url, photoFailure, refused)
        }()
        var draft = filled.0
        let url = filled.1
        if !filled.3.isEmpty {
            // Every problem at once: the refused values, then what the rules say of the rest.
            for message in filled.3 { Terminal.error("error: \(message)") }
            if reporting.json { printJSON(draft, url: url, today: today) } else { Terminal.out(DraftText.steps(draft, today: today)) }
            Terminal.error("The other fields were saved in the draft \(url.path); give the \(filled.3.count == 1 ? "value" : "values") above again.")
            throw filled.2 ?? ExitStatus.dataError.exitCode
        }
        if let photoFailure = filled.2 {
            Terminal.error("The other fields were saved in the draft \(url.path).")
            throw photoFailure
        }

        if interactive && (!flagsGiven || !draft.validate(today: today).isEmpty) {
            lock.hold(for: .wizard)
            // Every accepted answer is saved already; Ctrl-C only has to leave no temporary file
            // and the terminal as it was (the kernel releases the lock).
            let prompter = TerminalPrompter()
            let interruption = InterruptionGuard(
                message: "interrupted: every answer given so far is saved in \(url.path) (the answer being typed is not); "
                    + "run `petspot report \(Draft.flow.rawValue)` to continue",
                beforeExit: { prompter.restoreTerminal() })
            defer { interruption.release() }
            var wizard = ReportWizard<Draft>(
                prompter: prompter, photos: photos, today: today, locationFromPhoto: locationFromPhoto,
                save: { (draft: Draft) throws(DraftStoreError) in try store.save(draft) })
            let client = (try? ClientConfiguration.resolveServer(flag: server)).map {
                PetSpotAPIClient(configuration: ClientConfiguration(server: $0, connectTimeout: .seconds(5), readTimeout: .seconds(20)))
            }
            defer { try? client?.shutdownWaiting() }
            if let client {
                wizard.placeLookup = { name, near in Result { () throws(SubmissionError) in try client.lookUpPlaceWaiting(name, near: near) } }
            }
            let outcome = try DraftFailure.run { () throws(DraftStoreError) in
                try wizard.run(&draft, scope: flagsGiven ? .problems : .everything)
            }
            if outcome == .stopped {
                if reporting.json { return printJSON(draft, url: url, today: today) }
                Terminal.out("Stopped at \(draft.step.progressLabel); everything answered so far is saved in \(url.path). "
                    + "Run `petspot report \(Draft.flow.rawValue)` to continue.")
                return
            }
            if reporting.json { return printJSON(draft, url: url, today: today) }
            if !reporting.quiet { Terminal.out("\n" + DraftText.summary(draft) + "\n") }
        } else {
            if reporting.json { return printJSON(draft, url: url, today: today) }
            if reporting.quiet { return }
            Terminal.out("Saved the \(Draft.flow.reportName) draft in \(url.path).")
            Terminal.out(DraftText.steps(draft, today: today))
        }
        if !reporting.quiet { Terminal.out(DraftText.verdict(draft, today: today)) }
    }

    /// `--json`: the draft as `report show --json` prints it.
    private func printJSON(_ draft: Draft, url: URL, today: LocalDate) {
        let saved = SavedDraft(draft: draft, savedAt: Date(), url: url)
        Terminal.out(JSONOutput.string(DraftRecord(draft, saved: saved, path: url, today: today)))
    }

    /// Refuses `--location-from-photo` when no photo can be attached in this command: without
    /// `--photo` and without questions (the photo question is the other way to attach one).
    static func checkLocationSource(fields: ReportFieldOptions, noInput: Bool) throws {
        guard fields.locationFromPhoto, fields.photo == nil, noInput || !Terminal.stdinIsTerminal else { return }
        throw ValidationError("--location-from-photo reads the GPS position of the photo attached in the same command; give it with --photo FILE.")
    }

    /// Attaches or removes the photo of `--photo`, taking the location from it when asked.
    /// - Returns: The exit code to end with when the photo was refused (the draft is still saved).
    private func attachPhoto(to draft: inout Draft, with attacher: any PhotoAttaching) -> ExitCode? {
        guard let photoPath else { return nil }
        do {
            if photoPath.isEmpty {
                try attacher.detach()
                draft.photo = nil
                Terminal.error("Removed the photo from the draft (it stays cached until it is evicted or cleared).")
                return nil
            }
            let attached = try attacher.attach(path: photoPath, readingLocation: locationFromPhoto)
            for note in draft.attach(attached, locationFromPhoto: locationFromPhoto) { Terminal.error(note) }
            return nil
        } catch {
            return CacheFailure.report(error, context: photoPath)
        }
    }
}

extension ReportFilling {
    /// Where the saved draft says the pet was (a place name is looked up from there), when it
    /// says so; the draft store is only read.
    static func savedPosition(state: StateOptions) -> (latitude: Double, longitude: Double)? {
        guard let saved = try? state.store().load(Draft.self),
              let latitude = saved.draft.animal.latitude, let longitude = saved.draft.animal.longitude,
              !(latitude == 0 && longitude == 0) else { return nil }
        return (latitude, longitude)
    }
}
