import Foundation
import PetSpot
import Testing

@Suite struct MicrochipNumberTests {
    @Test(arguments: [
        ("", "", ""),
        ("1", "1", "1"),
        ("12345", "12345", "12345"),
        ("123456", "123456", "12345-6"),
        ("12a34b56", "123456", "12345-6"),
        ("1234567890", "1234567890", "12345-67890"),
        ("123456789012345", "123456789012345", "12345-67890-12345"),
        ("1234567890123456", "123456789012345", "12345-67890-12345"),
        ("12345-67890-12345", "123456789012345", "12345-67890-12345"),
        (" 985 112 003 456 789 ", "985112003456789", "98511-20034-56789"),
        ("abc", "", ""),
        ("١٢٣45", "45", "45"),
    ])
    func keepsDigitsCapsAt15AndGroupsByFive(input: String, digits: String, formatted: String) {
        let chip = MicrochipNumber(input)
        #expect(chip.digits == digits)
        #expect(chip.formatted == formatted)
        #expect(chip.isEmpty == digits.isEmpty)
    }

    @Test func sixteenDigitsAreCappedToFifteen() {
        let chip = MicrochipNumber(String(repeating: "9", count: 16))
        #expect(chip.digits.count == MicrochipNumber.maximumDigits)
    }

    @Test func codesAsBareDigitsAndSanitisesWhenDecoding() throws {
        #expect(try MicrochipNumber("12345-6").jsonString() == #""123456""#)
        let decoded = try PetSpotJSON.decode(
            [MicrochipNumber].self, from: Data(#"["12a34-5678901234567"]"#.utf8))
        #expect(decoded.first?.digits == "123456789012345")
    }
}
