import PetSpot
import Testing

/// What a typed microchip number may be: a chip number, never something cut or filtered to fit.
@Suite struct MicrochipRuleTests {
    @Test(arguments: ["", "   ", "985112003456789", "985 112 003 456 789", "98511-20034-56789", "123456789", "1234567890",
                      "123.456.789"])
    func chipNumbersAndNothingAreAccepted(_ text: String) {
        #expect(FormRules.microchip(text) == nil)
    }

    @Test(arguments: ["123", "12345678", "12345678901", "12345678901234", "1234567890123456", "9851120034567890000"])
    func digitCountsNoChipHasAreRefused(_ text: String) {
        #expect(FormRules.microchip(text) == ValidationIssue(field: .microchipNumber, message: ValidationMessage.microchipLength))
        #expect(ValidationMessage.microchipLength.contains("15 digits"))
    }

    @Test func aHexadecimalChipCodeIsRefusedWithItsOwnMessage() {
        let issue = FormRules.microchip("0A0139B8C2")
        #expect(issue == ValidationIssue(field: .microchipNumber, message: ValidationMessage.microchipHexadecimal))
        #expect(issue?.message.contains("hexadecimal") == true)
    }

    @Test(arguments: ["12a34b56", "chip 123456789", "١٢٣٤٥٦٧٨٩", "+123456789", "123456789012345x"])
    func lettersAndOtherCharactersAreRefusedNotDropped(_ text: String) {
        #expect(FormRules.microchip(text) == ValidationIssue(field: .microchipNumber, message: ValidationMessage.microchipDigitsOnly))
    }
}
