import Foundation
import PetSpot
import PetSpotClient
import PhotoPipeline
import PhotoCache

/// Walks a person through a flow's steps, asking one field at a time.
///
/// Each step starts with its header ("Step 2 of 4 · Photo"). An answer is checked at once with
/// the domain's rules and the question is asked again, with the rule's message, until it is
/// valid. `<` (or `back`) returns to the previous step, whose fields are then all asked again;
/// Enter keeps the value in brackets or skips an optional field; `-` clears a value. The draft is
/// saved after every accepted answer, so Ctrl-D (the end of input) or Ctrl-C loses nothing.
struct ReportWizard<Draft: EditableDraft> {
    /// How the walk ended.
    enum Outcome: Equatable, Sendable {
        /// Every step is valid: the draft is complete.
        case completed
        /// The input ended (Ctrl-D); what was answered is saved.
        case stopped
    }

    /// How much the walk asks.
    enum Scope: Equatable, Sendable {
        /// Every field of every step, from the draft's current step (from the first when the
        /// draft is complete): filling in a report, or looking it over.
        case everything
        /// Only the fields that have a problem, from the first step that has one: completing
        /// a draft that flags filled in.
        case problems
    }

    /// What one question gave.
    private enum Answer {
        case accepted
        /// The latitude question answered with both coordinates: the longitude is not asked.
        case acceptedWithNext
        case back
        case endOfInput
    }

    /// Where the questions are asked.
    let prompter: any Prompting
    /// Attaches the photo a person names.
    let photos: any PhotoAttaching
    /// Today in the reporter's time zone.
    let today: LocalDate
    /// Take the location from the GPS position of a photo attached here.
    let locationFromPhoto: Bool
    /// Persists the draft; called after every accepted answer and step change.
    let save: (Draft) throws(DraftStoreError) -> Void
    /// Looks a place name up on the server (`nil`: no server to ask); the answer, or why not.
    var placeLookup: (@Sendable (_ name: String, _ near: (latitude: Double, longitude: Double)?) -> Result<PlaceLookup, SubmissionError>)?
    /// The GPS position of the photo attached in these questions, offered at the location
    /// question (never taken without the person's answer).
    private let photoPosition = PhotoPosition()

    private final class PhotoPosition: @unchecked Sendable {
        var value: GPSCoordinate?
    }

    /// Asks until every step is valid or the input ends.
    /// - Parameters:
    ///   - draft: The draft to fill in; it holds every accepted answer whatever the outcome.
    ///   - scope: Ask everything, or only what has a problem.
    /// - Returns: Whether the draft is complete or the person stopped.
    /// - Throws: The store's error when the draft cannot be saved.
    func run(_ draft: inout Draft, scope: Scope) throws(DraftStoreError) -> Outcome {
        var reviewed: Set<Draft.Step> = []
        switch scope {
        case .everything:
            reviewed = Set(Draft.Step.allCases)
            if draft.validate(today: today).isEmpty { draft.step = .first }
        case .problems:
            guard let first = Draft.Step.allCases.first(where: { !draft.validate(step: $0, today: today).isEmpty })
            else { return .completed }
            draft.step = first
        }
        prompter.say("Filling in the \(Draft.flow.reportName). Enter keeps the value in [brackets] or skips an "
            + "optional question, '-' clears a value, '<' goes back a step, Ctrl-D saves the draft and stops.")
        var only: [FormField]?
        steps: while true {
            let step = draft.step
            let fields = only ?? (reviewed.contains(step)
                ? Draft.fields(on: step) : draft.fieldsWithIssues(on: step, today: today))
            only = nil
            if !fields.isEmpty {
                prompter.say("\n" + step.progressLabel)
                var index = 0
                while index < fields.count {
                    switch try ask(fields[index], in: &draft) {
                    case .accepted:
                        index += 1
                    case .acceptedWithNext:
                        index += fields.indices.contains(index + 1) && fields[index + 1] == .longitude ? 2 : 1
                    case .endOfInput:
                        try save(draft)
                        return .stopped
                    case .back:
                        if draft.goBack() {
                            reviewed.insert(draft.step)
                            try save(draft)
                            continue steps
                        }
                        prompter.say("  This is the first step; there is nothing before it.")
                    }
                }
            }
            switch draft.advance(today: today) {
            case .moved:
                try save(draft)
            case .readyToSubmit:
                try save(draft)
                return .completed
            case .blocked(let issues):
                // This step still has a problem, or (on the last step) an earlier one does.
                let target = issues.lazy.compactMap { Draft.step(of: $0.field) }.first ?? step
                draft.step = target
                if target != step { prompter.say("\n\(target.progressLabel) still has problems:") }
                for issue in issues where Draft.step(of: issue.field) == target { prompter.say("  \(issue)") }
                let pending = draft.fieldsWithIssues(on: target, today: today)
                only = pending.isEmpty ? Draft.fields(on: target) : pending
            }
        }
    }

    /// Asks one field until its answer is valid, the person goes back, or the input ends.
    private func ask(_ field: FormField, in draft: inout Draft) throws(DraftStoreError) -> Answer {
        let question = FieldQuestion.text(for: field, flow: Draft.flow, optional: Draft.isOptional(field))
        let offered = field == .latitude ? photoPosition.value.map { position in
            ((position.latitude * 1e6).rounded() / 1e6, (position.longitude * 1e6).rounded() / 1e6)
        } : nil
        if let (latitude, longitude) = offered {
            prompter.say("  The photo was taken at \(latitude), \(longitude): answer 'photo' to use that position.")
        }
        while true {
            // A value its rule refuses is not offered as the default: Enter would only refuse it again.
            let refused = !draft.issues(of: field, today: today).isEmpty
            let current = refused ? "" : draft.displayValue(of: field).map { " [\($0)]" } ?? ""
            let completion: AnswerCompletion = field == .photo ? .filePath : .nothing
            guard let line = prompter.ask(question + current + ": ", completing: completion) else { return .endOfInput }
            let answer = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if answer == "<" || answer.lowercased() == "back" { return .back }
            // Both coordinates pasted at once, as a map app copies them ("52.2297, 21.0122"), or
            // the photo's position taken.
            let pair = answer.lowercased() == "photo" ? offered.map { (String($0.0), String($0.1)) } : ReportFieldOptions.coordinates(answer)
            var resolved = pair
            if field == .latitude, resolved == nil, Double(answer) == nil, answer != "-", !answer.isEmpty, let placeLookup {
                // Looked up from the report's area: its location so far, else the photo's position.
                let area = draft.animal.latitude.flatMap { latitude in draft.animal.longitude.map { (latitude: latitude, longitude: $0) } }
                    ?? offered.map { (latitude: $0.0, longitude: $0.1) }
                switch placeLookup(answer, area) {
                case .success(.found(let place)):
                    prompter.say("  \(place.label) (\(place.latitude), \(place.longitude)).")
                    resolved = (String(place.latitude), String(place.longitude))
                case .success(.unknown(let close)):
                    let advice = close.isEmpty ? "Try the town's name with its country, or type the coordinates."
                        : "Did you mean \(close.joined(separator: " or "))? Type it if so."
                    prompter.say("  The server knows no place named \"\(answer)\". \(advice)")
                    continue
                case .failure(let error):
                    prompter.say("  Could not look up \"\(answer)\" (\(error.detail)). Type the coordinates instead.")
                    continue
                }
            }
            if field == .latitude, let (latitude, longitude) = resolved {
                guard set(.latitude, to: latitude, in: &draft), set(.longitude, to: longitude, in: &draft) else { continue }
                if let issue = (draft.issues(of: .latitude, today: today) + draft.issues(of: .longitude, today: today)).first {
                    prompter.say("  \(issue.message)")
                    continue
                }
                try save(draft)
                return .acceptedWithNext
            }
            if !answer.isEmpty {
                let text = answer == "-" ? "" : answer
                guard field == .photo ? attachPhoto(text, to: &draft) : set(field, to: text, in: &draft) else { continue }
            }
            if let issue = draft.issues(of: field, today: today).first {
                prompter.say("  \(issue.message)")
                continue
            }
            try save(draft)
            return .accepted
        }
    }

    /// Sets a typed field, saying why when the text is not a value of its kind.
    private func set(_ field: FormField, to text: String, in draft: inout Draft) -> Bool {
        do {
            if let note = try draft.set(field, to: text, today: today) { prompter.say("  \(note)") }
            return true
        } catch {
            prompter.say("  \(error)")
            return false
        }
    }

    /// Attaches the named photo (or, for an empty text, releases the current one), saying why
    /// when the photo is refused.
    private func attachPhoto(_ text: String, to draft: inout Draft) -> Bool {
        do {
            if text.isEmpty {
                try photos.detach()
                draft.photo = nil
                return true
            }
            // The position is read to be offered at the location question; it goes into the draft
            // only with --location-from-photo or when the person answers "photo" there.
            let attached = try photos.attach(path: PathInput.expand(text), readingLocation: true)
            photoPosition.value = attached.location
            for note in draft.attach(attached, locationFromPhoto: locationFromPhoto) { prompter.say("  \(note)") }
            return true
        } catch {
            prompter.say("  \(error)")
            return false
        }
    }
}
