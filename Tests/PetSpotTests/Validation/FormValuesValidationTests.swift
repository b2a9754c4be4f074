import PetSpot
import Testing

@Suite struct FormValuesValidationTests {
    @Test func emptyAnimalDetailsReportEveryRequiredFieldAtOnce() {
        let issues = AnimalDescriptionDetails().validate(today: Fixtures.today, breedRequired: true)
        #expect(issues == [
            ValidationIssue(field: .species, message: "Please select a species"),
            ValidationIssue(field: .breed, message: "Please enter the animal's breed/race"),
            ValidationIssue(field: .gender, message: "Please select the sex"),
            ValidationIssue(field: .lastSeenDate, message: "Please select a date"),
            ValidationIssue(field: .latitude, message: "Fill in latitude"),
            ValidationIssue(field: .longitude, message: "Fill in longitude"),
        ])
    }

    @Test func breedIsOnlyRequiredWhenAskedFor() {
        var animal = Fixtures.animal
        animal.breed = " "
        #expect(animal.validate(today: Fixtures.today, breedRequired: false).isEmpty)
        #expect(animal.validate(today: Fixtures.today, breedRequired: true).map(\.field) == [.breed])
    }

    @Test func invalidValuesAreAllReportedWithTheirFields() {
        let animal = AnimalDescriptionDetails(
            species: .cat, breed: "Siamese", gender: .unknown, age: 41,
            lastSeenDate: Fixtures.tomorrow, latitude: 90.0001, longitude: -180.0001)
        #expect(animal.validate(today: Fixtures.today, breedRequired: true) == [
            ValidationIssue(field: .gender, message: "Please select the sex"),
            ValidationIssue(field: .age, message: "Age must be between 0 and 40"),
            ValidationIssue(field: .lastSeenDate, message: "The date cannot be in the future"),
            ValidationIssue(field: .latitude, message: "Latitude must be between -90 and 90"),
            ValidationIssue(field: .longitude, message: "Longitude must be between -180 and 180"),
        ])
    }

    @Test(arguments: [("", ""), ("  ", "  "), ("abc", "abc"), ("123456", "owner@example")])
    func contactDetailsReportPhoneAndEmailTogether(phone: String, email: String) {
        #expect(OwnerContactDetails(phone: phone, email: email).validate() == [
            ValidationIssue(field: .phone, message: "Enter at least 7 digits"),
            ValidationIssue(field: .email, message: "Enter a valid email address"),
        ])
    }

    @Test func validContactDetailsAreSanitisedForSending() {
        let contact = Fixtures.contact
        #expect(contact.validate().isEmpty)
        #expect(contact.sanitizedPhone == "+48123456789")
        #expect(contact.trimmedEmail == "owner@example.com")
        #expect(OwnerContactDetails(reward: "  ").rewardToSend == nil)
    }

    @Test func issuesPrintWithTheirFieldLabel() {
        #expect(ValidationIssue(field: .lastSeenDate, message: "Please select a date").description
            == "Last seen date: Please select a date")
    }

    @Test(arguments: FormField.allCases)
    func wireKeysRoundTrip(field: FormField) {
        if let key = field.wireKey {
            #expect(FormField(wireKey: key) == field)
        }
    }
}
