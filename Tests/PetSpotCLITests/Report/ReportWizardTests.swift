import PetSpot
import PetSpotClient
import PhotoPipeline
import Testing
@testable import PetSpotCLI

/// The wizard in-process, answering from a script: steps, re-asking, going back, stopping.
@Suite struct ReportWizardTests {
    private static let today = LocalDate(year: 2025, month: 11, day: 18)!
    private static let gps = GPSCoordinate(latitude: 52.230000000000004, longitude: 21.01)

    private func run<Draft: EditableDraft>(
        _ draft: inout Draft, answers: [String?], scope: ReportWizard<Draft>.Scope = .everything,
        photos: FakePhotos = FakePhotos(["rex.jpg": gps]), locationFromPhoto: Bool = false,
        placeLookup: (@Sendable (String, (latitude: Double, longitude: Double)?) -> Result<PlaceLookup, SubmissionError>)? = nil
    ) -> (outcome: ReportWizard<Draft>.Outcome, prompter: ScriptedPrompter, saves: [Draft]) {
        let prompter = ScriptedPrompter(answers)
        let log = SaveLog<Draft>()
        var wizard = ReportWizard<Draft>(prompter: prompter, photos: photos, today: Self.today,
                                         locationFromPhoto: locationFromPhoto, save: { log.record($0) })
        wizard.placeLookup = placeLookup
        // The save closure never throws, so neither does the run.
        let outcome = (try? wizard.run(&draft, scope: scope)) ?? .stopped
        return (outcome, prompter, log.saves)
    }

    /// A missing-pet draft whose first three steps are valid and whose contact step is empty.
    private static var missingWithoutContact: MissingReportDraft {
        MissingReportDraft(step: .chipNumber, animal: AnimalDescriptionDetails(
            species: .dog, breed: "Beagle", gender: .male, lastSeenDate: today, latitude: 52.23, longitude: 21.01))
    }

    @Test func anInvalidAnswerIsAskedAgainWithTheRulesMessage() {
        var draft = Self.missingWithoutContact
        let (outcome, prompter, saves) = run(&draft, answers: ["123", "+48 123 456 789", "a@b.co"], scope: .problems)
        #expect(outcome == .completed)
        #expect(prompter.transcript.contains("  Enter at least 7 digits"))
        #expect(prompter.timesAsked("Phone") == 2)
        #expect(prompter.timesAsked("Reward") == 0, "only the fields with problems are asked")
        #expect(prompter.headers == ["Step 4 of 4 · Contact details"])
        #expect(draft.contact.phone == "+48 123 456 789")
        #expect(saves.last == draft)
    }

    /// Both coordinates pasted at the latitude question, as a map app copies them: the
    /// longitude is not asked.
    @Test func pastedCoordinatesFillBothAndSkipTheLongitude() {
        var draft = MissingReportDraft(step: .description, animal: AnimalDescriptionDetails(
            species: .dog, breed: "Beagle", gender: .male, lastSeenDate: Self.today))
        let (_, prompter, _) = run(&draft, answers: ["", "", "", "", "", "52.2297, 21.0122", nil], scope: .everything)
        #expect(draft.animal.latitude == 52.2297 && draft.animal.longitude == 21.0122, "\(prompter.transcript)")
        #expect(prompter.timesAsked("Longitude") == 0)
        #expect(prompter.timesAsked("Latitude") == 1)
    }

    /// The attached photo's GPS position is offered at the location question and taken only
    /// when the person answers "photo".
    @Test func thePhotosPositionIsOfferedAndTakenOnlyWhenChosen() {
        var draft = MissingReportDraft(step: .chipNumber, animal: AnimalDescriptionDetails(
            species: .dog, breed: "Beagle", gender: .male, lastSeenDate: Self.today))
        let (_, prompter, _) = run(&draft, answers: ["", "rex.jpg", "", "", "", "", "", "photo", nil])
        #expect(prompter.transcript.contains { $0.contains("The photo was taken at 52.23, 21.01: answer 'photo' to use that position.") },
                "\(prompter.transcript)")
        #expect(draft.animal.latitude == 52.23 && draft.animal.longitude == 21.01, "\(prompter.transcript)")
        #expect(prompter.timesAsked("Longitude") == 0)

        var other = MissingReportDraft(step: .chipNumber, animal: AnimalDescriptionDetails(
            species: .dog, breed: "Beagle", gender: .male, lastSeenDate: Self.today))
        _ = run(&other, answers: ["", "rex.jpg", "", "", "", "", "", "10", "20", nil])
        #expect(other.animal.latitude == 10 && other.animal.longitude == 20, "an answer of numbers is taken as it is")
    }

    /// A place name at the location question is looked up on the server; an unknown one, or
    /// no answer from the server, is said and asked again.
    @Test func aPlaceNameIsLookedUpAtTheLocationQuestion() {
        var draft = MissingReportDraft(step: .description, animal: AnimalDescriptionDetails(
            species: .dog, breed: "Beagle", gender: .male, lastSeenDate: Self.today))
        let lookup: @Sendable (String, (latitude: Double, longitude: Double)?) -> Result<PlaceLookup, SubmissionError> = { name, _ in
            switch name {
            case "Mokotów, Warsaw": .success(.found(ResolvedPlace(name: "Mokotów", country: "Poland", latitude: 52.1934, longitude: 21.03487)))
            case "Mokotuw": .success(.unknown(closeSpellings: ["Mokotów, Warsaw, Poland"]))
            case "Offline": .failure(.invalidResponse("no answer"))
            default: .success(.unknown(closeSpellings: []))
            }
        }
        let (_, prompter, _) = run(&draft, answers: ["", "", "", "", "", "Atlantis", "Offline", "Mokotuw", "Mokotów, Warsaw", nil], placeLookup: lookup)
        #expect(prompter.transcript.contains { $0.contains("The server knows no place named \"Atlantis\"") })
        #expect(prompter.transcript.contains { $0.contains("The server knows no place named \"Mokotuw\". Did you mean Mokotów, Warsaw, Poland?") },
                "a close spelling is offered, not taken")
        #expect(prompter.transcript.contains { $0.contains("Could not look up \"Offline\"") })
        #expect(prompter.transcript.contains { $0.contains("Mokotów, Poland (52.1934, 21.03487).") })
        #expect(draft.animal.latitude == 52.1934 && draft.animal.longitude == 21.03487)
        #expect(prompter.timesAsked("Latitude") == 4 && prompter.timesAsked("Longitude") == 0)
    }

    @Test func aValueOfTheWrongKindIsExplainedAndAskedAgain() {
        var draft = MissingReportDraft(step: .description)
        let (_, prompter, _) = run(&draft, answers: ["dragon", "DOG", nil])
        #expect(prompter.transcript.contains { $0.contains("'dragon' is not a species") })
        #expect(prompter.timesAsked("Species") == 2)
        #expect(draft.animal.species == .dog)
    }

    @Test func goingBackReturnsToThePreviousStepAndAsksItAgain() {
        var draft = MissingReportDraft()
        let answers: [String?] = [
            "123456789",             // chip number
            "",                      // photo: skipped (optional)
            "<",                     // species: back to the photo step
            "back",                  // photo: back to the chip number step
            "",                      // chip number: Enter keeps 123456789
            "rex.jpg",               // photo
            "dog", "Beagle", "m", "", "2025-11-18", "52.23", "21.01", "", "Rex",
            "+48 123 456 789", "a@b.co", "",
        ]
        let (outcome, prompter, _) = run(&draft, answers: answers)
        #expect(outcome == .completed)
        #expect(prompter.headers == [
            "Step 1 of 4 · Chip number", "Step 2 of 4 · Photo", "Step 3 of 4 · Description",
            "Step 2 of 4 · Photo", "Step 1 of 4 · Chip number", "Step 2 of 4 · Photo",
            "Step 3 of 4 · Description", "Step 4 of 4 · Contact details",
        ])
        #expect(prompter.questions.contains("Microchip number (digits), optional [12345-6789]: "))
        #expect(draft.microchip.digits == "123456789")
        #expect(draft.photo?.cacheKey == "key-rex.jpg")
        #expect(draft.animal.name == "Rex", "the description step asks the pet's name")
        #expect(prompter.questions.contains("Pet's name, optional: "))
        #expect(draft.step == .contact)
        #expect(draft.validate(today: Self.today).isEmpty)
    }

    @Test func onlyThePhotoQuestionCompletesFilePaths() {
        var draft = MissingReportDraft()
        let (_, prompter, _) = run(&draft, answers: ["123456789", "rex.jpg", "dog", nil])
        let asked = Array(zip(prompter.questions, prompter.completions))
        #expect(asked.count == 4)
        for (question, completion) in asked {
            #expect(completion == (question.hasPrefix("Photo file") ? .filePath : .nothing), "\(question)")
        }
        #expect(asked.contains { $0.1 == .filePath }, "the photo question was asked")
    }

    @Test func goingBackFromTheFirstStepStaysThere() {
        var draft = FoundReportDraft()
        let (_, prompter, _) = run(&draft, answers: ["<", nil])
        #expect(prompter.transcript.contains("  This is the first step; there is nothing before it."))
        #expect(draft.step == .photo)
    }

    @Test func theFoundFlowDoesNotLeaveThePhotoStepWithoutAPhoto() {
        var draft = FoundReportDraft()
        let (outcome, prompter, saves) = run(&draft, answers: ["", "nowhere.jpg", "rex.jpg", nil])
        #expect(outcome == .stopped)
        #expect(prompter.transcript.contains("  Photo is mandatory"))
        #expect(prompter.transcript.contains { $0.contains("Cannot read nowhere.jpg") })
        #expect(prompter.timesAsked("Photo file") == 3)
        #expect(draft.step == .petDetails)
        #expect(saves.last?.photo?.cacheKey == "key-rex.jpg")
    }

    @Test func theEndOfInputStopsAndKeepsEveryAcceptedAnswer() {
        var draft = MissingReportDraft()
        let (outcome, _, saves) = run(&draft, answers: ["123456789", "", "cat", nil])
        #expect(outcome == .stopped)
        #expect(saves.last?.microchip.digits == "123456789")
        #expect(saves.last?.animal.species == .cat)
        #expect(saves.last?.step == .description)
    }

    @Test(arguments: [true, false])
    func theLocationComesFromThePhotoOnlyWhenAsked(asked: Bool) {
        var draft = FoundReportDraft()
        let photos = FakePhotos(["rex.jpg": Self.gps])
        let (_, _, saves) = run(&draft, answers: ["rex.jpg", nil], photos: photos, locationFromPhoto: asked)
        // Read either way (to be offered at the location question), applied only when asked.
        #expect(photos.locationRequests == [true])
        #expect(saves.last?.animal.latitude == (asked ? 52.23 : nil))
        #expect(saves.last?.animal.longitude == (asked ? 21.01 : nil))
    }

    @Test func aCompleteDraftNeedsNoQuestionsForItsProblems() {
        var draft = Self.missingWithoutContact
        draft.contact = OwnerContactDetails(phone: "1234567", email: "a@b.co")
        let (outcome, prompter, _) = run(&draft, answers: [], scope: .problems)
        #expect(outcome == .completed)
        #expect(prompter.questions.isEmpty)
    }

    @Test func aDashClearsAnOptionalValue() {
        var draft = MissingReportDraft(step: .contact, contact: OwnerContactDetails(reward: "100 PLN"))
        let (_, prompter, _) = run(&draft, answers: ["1234567", "a@b.co", "-", nil])
        #expect(prompter.questions.contains("Reward, optional [100 PLN]: "))
        #expect(draft.contact.reward.isEmpty)
        // The last step is valid but the description step is not: the wizard goes back there.
        #expect(prompter.transcript.contains("\nStep 3 of 4 · Description still has problems:"))
        #expect(prompter.transcript.contains("  Species: Please select a species"))
        #expect(draft.step == .description)
    }
}
