import PetSpot
import Testing

@Suite struct PhoneNumberTests {
    @Test(arguments: [
        ("123456", false),
        ("1234567", true),
        ("12345678901", true),
        ("123456789012345", true),
        ("1234567890123456", false),
        ("+44 20 7946 0958", true),
        ("+48 123-456-789", true),
        ("(555) 123 4567", true),
        ("+123456", false),
        ("", false),
        ("  ", false),
        ("abc", false),
    ])
    func needsSevenToFifteenDigits(input: String, isValid: Bool) {
        #expect(PhoneNumber(input).isValid == isValid)
        #expect((FormRules.phone(input) == nil) == isValid)
    }

    @Test(arguments: [
        ("+48 123-456-789", "+48123456789"),
        ("+44 20 7946 0958", "+442079460958"),
        (" +1 (555) 123-4567", "+15551234567"),
        ("(022) 123-45-67", "0221234567"),
        ("0048 123 456 789", "0048123456789"),
        ("123+456+7890", "1234567890"),
        ("++48 600 100 200", "+48600100200"),
    ])
    func oneNormalFormAPlusOnlyInFront(input: String, normal: String) {
        #expect(PhoneNumber(input).value == normal)
        #expect(PhoneNumber(PhoneNumber(input).value).value == normal)
    }

    @Test func invalidPhoneSaysEnterAtLeastSevenDigits() {
        #expect(FormRules.phone("123") == ValidationIssue(field: .phone, message: "Enter at least 7 digits"))
        #expect(FormRules.phone("123", field: .caregiverPhone)?.field == .caregiverPhone)
    }

    @Test(arguments: ["1234567890123456", "+48 123 456 789 012 345", String(repeating: "9", count: 20)])
    func tooManyDigitsHaveTheirOwnMessage(_ text: String) {
        #expect(FormRules.phone(text) == ValidationIssue(field: .phone, message: "Enter at most 15 digits"))
        #expect(FormRules.phone(text, field: .caregiverPhone)?.message == ValidationMessage.phoneTooLong)
    }

    @Test func fifteenDigitsAreStillValidAndSixStillTooFew() {
        #expect(FormRules.phone("+48 123 456 789 012") == nil)
        #expect(FormRules.phone("123456")?.message == ValidationMessage.phone)
    }
}
