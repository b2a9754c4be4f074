import PetSpot
import Testing

@Suite struct PhoneNumberTests {
    @Test(arguments: [
        ("123456", false),
        ("1234567", true),
        ("12345678901", true),
        ("123456789012", false),
        ("+48 123-456-789", true),
        ("(555) 123 4567", true),
        ("+123456", false),
        ("", false),
        ("  ", false),
        ("abc", false),
    ])
    func needsSevenToElevenDigits(input: String, isValid: Bool) {
        #expect(PhoneNumber(input).isValid == isValid)
        #expect((FormRules.phone(input) == nil) == isValid)
    }

    @Test func keepsOnlyDigitsAndPlus() {
        let phone = PhoneNumber("+48 123-456-789")
        #expect(phone.value == "+48123456789")
        #expect(phone.digitCount == 11)
    }

    @Test func invalidPhoneSaysEnterAtLeastSevenDigits() {
        #expect(FormRules.phone("123") == ValidationIssue(field: .phone, message: "Enter at least 7 digits"))
        #expect(FormRules.phone("123", field: .caregiverPhone)?.field == .caregiverPhone)
    }

    @Test(arguments: ["123456789012", "+48 123 456 789 012", String(repeating: "9", count: 20)])
    func tooManyDigitsHaveTheirOwnMessage(_ text: String) {
        #expect(FormRules.phone(text) == ValidationIssue(field: .phone, message: "Enter at most 11 digits"))
        #expect(FormRules.phone(text, field: .caregiverPhone)?.message == ValidationMessage.phoneTooLong)
    }

    @Test func elevenDigitsAreStillValidAndSixStillTooFew() {
        #expect(FormRules.phone("+48 123 456 789") == nil)
        #expect(FormRules.phone("123456")?.message == ValidationMessage.phone)
    }
}
