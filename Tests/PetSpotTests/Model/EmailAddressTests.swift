import PetSpot
import Testing

@Suite struct EmailAddressTests {
    @Test(arguments: [
        "owner@example.com", "  owner@example.com\n", "first.last+pets@mail.example.co.uk",
        "Owner@Example.COM", "a@b.io", "x@my-domain.org",
    ])
    func acceptsLocalAtDomainDotTLD(input: String) {
        #expect(EmailAddress(input).isValid)
        #expect(FormRules.email(input) == nil)
    }

    @Test(arguments: [
        "", "  ", "abc", "abc@", "@example.com", "owner@example", "owner@example.c",
        "owner@@example.com", "own er@example.com", "owner@example..com", "owner@.com",
        "owner@example.com.", "owner@exa_mple.com", "owner@example.c0m",
    ])
    func refusesAnythingElse(input: String) {
        #expect(!EmailAddress(input).isValid)
        #expect(FormRules.email(input) == ValidationIssue(field: .email, message: "Enter a valid email address"))
    }

    @Test func isTrimmed() {
        #expect(EmailAddress("  owner@example.com \t").value == "owner@example.com")
    }

    @Test func comparesIgnoringCase() {
        #expect(EmailAddress("Owner@Example.com") == EmailAddress(" owner@example.COM "))
        #expect(Set([EmailAddress("A@B.io"), EmailAddress("a@b.io")]).count == 1)
        #expect(EmailAddress("Owner@Example.com").value == "Owner@Example.com")
        #expect(EmailAddress("one@example.com") != EmailAddress("two@example.com"))
    }
}
