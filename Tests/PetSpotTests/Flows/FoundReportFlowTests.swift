import PetSpot
import Testing

@Suite struct FoundReportFlowTests {
    @Test(arguments: [
        (FoundReportStep.photo, "Step 1 of 3 · Photo"),
        (.petDetails, "Step 2 of 3 · Pet details"),
        (.contact, "Step 3 of 3 · Contact details"),
    ])
    func stepsAreNumberedOutOfThree(step: FoundReportStep, label: String) {
        #expect(step.progressLabel == label)
    }

    @Test func thePhotoIsMandatory() {
        var draft = FoundReportDraft()
        let outcome1 = draft.advance(today: Fixtures.today)
        #expect(outcome1
            == .blocked([ValidationIssue(field: .photo, message: "Photo is mandatory")]))
        #expect(draft.step == .photo)
        draft.photo = Fixtures.photo
        let outcome2 = draft.advance(today: Fixtures.today)
        #expect(outcome2 == .moved(to: .petDetails))
    }

    @Test func aCompleteDraftWithoutAPhotoCannotBeSent() {
        var draft = Fixtures.foundDraft
        draft.photo = nil
        #expect(throws: ReportDraftError.incomplete([ValidationIssue(field: .photo, message: "Photo is mandatory")])) {
            try draft.makeRequest(today: Fixtures.today)
        }
    }

    @Test func petDetailsNeedLatitudeAndLongitudeButNotABreed() {
        var draft = FoundReportDraft(step: .petDetails, photo: Fixtures.photo)
        draft.animal = AnimalDescriptionDetails(species: .cat, gender: .female, lastSeenDate: Fixtures.today)
        let outcome3 = draft.advance(today: Fixtures.today)
        #expect(outcome3 == .blocked([
            ValidationIssue(field: .latitude, message: "Fill in latitude"),
            ValidationIssue(field: .longitude, message: "Fill in longitude"),
        ]))
        draft.animal.latitude = -90
        draft.animal.longitude = 180
        let outcome4 = draft.advance(today: Fixtures.today)
        #expect(outcome4 == .moved(to: .contact))
        let wentBack = draft.goBack()
        #expect(wentBack && draft.step == .petDetails)
    }

    @Test(arguments: ["", "   "])
    func noCaregiverPhoneIsFine(caregiverPhone: String) {
        var draft = Fixtures.foundDraft
        draft.caregiverPhone = caregiverPhone
        #expect(draft.validate(step: .contact, today: Fixtures.today).isEmpty)
    }

    @Test(arguments: [("123456", "Enter at least 7 digits"), ("1234567", nil), ("12345678901", nil),
                      ("123456789012345", nil), ("1234567890123456", "Enter at most 15 digits"), ("abc", "Enter at least 7 digits")])
    func aGivenCaregiverPhoneNeedsSevenToFifteenDigits(caregiverPhone: String, message: String?) {
        var draft = Fixtures.foundDraft
        draft.caregiverPhone = caregiverPhone
        let issues = draft.validate(step: .contact, today: Fixtures.today)
        #expect(issues == (message.map { [ValidationIssue(field: .caregiverPhone, message: $0)] } ?? []))
    }

    @Test func theContactStepReportsEveryProblemAtOnce() {
        let draft = FoundReportDraft(
            step: .contact, photo: Fixtures.photo, contact: OwnerContactDetails(phone: "1", email: " "),
            caregiverPhone: "12", foundAddress: String(repeating: "a", count: 501))
        #expect(draft.validate(step: .contact, today: Fixtures.today).map(\.field)
            == [.phone, .email, .caregiverPhone, .foundAddress])
    }

    @Test func makesAFoundRequestWithoutCaregiverPhoneOrAddress() throws {
        let request = try Fixtures.foundDraft.makeRequest(today: Fixtures.today)
        #expect(request.status == .found)
        #expect(request.species == .cat && request.sex == .female)
        let json = try request.jsonString()
        #expect(json == #"{"email":"finder@example.org","last_seen_date":"2025-11-17","#
            + #""location_latitude":-33.8688,"location_longitude":151.2093,"phone":"0412345678","#
            + #""sex":"FEMALE","species":"CAT","status":"FOUND"}"#)
        #expect(!json.contains("298765432") && !json.contains("George"))
    }

    @Test func survivesACodableRoundTripIncludingTheFinderOnlyFields() throws {
        let data = try PetSpotJSON.encode(Fixtures.foundDraft)
        let decoded = try PetSpotJSON.decode(FoundReportDraft.self, from: data)
        #expect(decoded == Fixtures.foundDraft)
        #expect(decoded.caregiverPhone == "+61 298 765 432")
    }
}
