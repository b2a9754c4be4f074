import PetSpot
import Testing

@Suite struct ReportDraftPresentationTests {
    @Test func aFilledMissingDraftReadsLikePetDetails() {
        let shown = ReportDraftPresentation(Fixtures.missingDraft)
        #expect(shown.status == "MISSING")
        #expect(shown.species == "Dog")
        #expect(shown.breed == "Labrador")
        #expect(shown.gender == "♂")
        #expect(shown.age == "4 years")
        #expect(shown.lastSeenDate == "Nov 18, 2025")
        #expect(shown.location == "52.2297, 21.0122")
        #expect(shown.microchipNumber == "12345-67890-12345")
        #expect(shown.phone == "+48 123-456-789")
        #expect(shown.email == "owner@example.com")
        #expect(shown.photo == "image/jpeg, 1600 × 1200")
        #expect(shown.caregiverPhone == nil && shown.foundAddress == nil)
    }

    @Test func anEmptyFoundDraftShowsPlaceholders() {
        let shown = ReportDraftPresentation(FoundReportDraft())
        let dash = PetDetailsPresentation.placeholder
        #expect(shown.status == "FOUND")
        #expect([shown.species, shown.breed, shown.gender, shown.age, shown.lastSeenDate, shown.location,
                 shown.microchipNumber, shown.description, shown.phone, shown.email, shown.reward, shown.photo]
            .allSatisfy { $0 == dash })
        #expect(shown.caregiverPhone == dash && shown.foundAddress == dash)
    }

    @Test func aHalfEnteredLocationShowsWhatIsMissing() {
        var draft = FoundReportDraft()
        draft.animal.latitude = 52.23
        draft.animal.age = 1
        let shown = ReportDraftPresentation(draft)
        #expect(shown.location == "52.23, ?")
        #expect(shown.age == "1 year")
    }
}
