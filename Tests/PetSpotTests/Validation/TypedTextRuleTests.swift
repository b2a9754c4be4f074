import PetSpot
import Testing

/// What a web form's text boxes send, read with the domain's rules: an age, a date, "where".
@Suite struct TypedTextRuleTests {
    @Test(arguments: [("", nil), (" 4 ", 4), ("0", 0), ("41", 41)] as [(String, Int?)])
    func anAgeIsAWholeNumberOrNothing(text: String, age: Int?) {
        let read = FormRules.typedAge(text)
        #expect(read.age == age && read.issue == nil)
    }

    @Test(arguments: ["four", "4.5", "-1", "٤", "1e2", "9999999"])
    func anythingElseIsNotAnAge(text: String) {
        let read = FormRules.typedAge(text)
        #expect(read.age == nil && read.issue == ValidationIssue(field: .age, message: ValidationMessage.ageWholeNumber))
    }

    @Test func aDateIsADayThatExists() {
        #expect(FormRules.typedDate("2025-11-18").date == LocalDate(year: 2025, month: 11, day: 18))
        #expect(FormRules.typedDate("").date == nil && FormRules.typedDate("").issue == nil)
        for text in ["2025-02-29", "18/11/2025", "2025-11-18T00:00:00Z"] {
            #expect(FormRules.typedDate(text).issue == ValidationIssue(field: .lastSeenDate, message: ValidationMessage.dateInvalid), "\(text)")
        }
    }

    @Test(arguments: [
        ("52.2297, 21.0122", LocationText.coordinates(latitude: 52.2297, longitude: 21.0122)),
        ("52.2297 21.0122", .coordinates(latitude: 52.2297, longitude: 21.0122)),
        (" -33.8688°; 151.2093° ", .coordinates(latitude: -33.8688, longitude: 151.2093)),
        ("+95, -200", .coordinates(latitude: 95, longitude: -200)),
        ("Mokotów", .placeName("Mokotów")),
        ("Paris, France", .placeName("Paris, France")),
        ("nan, inf", .placeName("nan, inf")),
        ("1e3, 2", .placeName("1e3, 2")),
        ("12.3.4, 5", .placeName("12.3.4, 5")),
        ("  \n", .empty),
    ])
    func whereIsCoordinatesOrAPlaceName(text: String, expected: LocationText) {
        #expect(LocationText(text) == expected)
    }

    @Test func anEmptyWhereIsAProblemAndAnUnknownPlaceNamesItself() {
        #expect(FormRules.location(.empty) == ValidationIssue(field: .latitude, message: ValidationMessage.locationRequired))
        #expect(FormRules.location(.placeName("Atlantis")) == nil)
        #expect(FormRules.unknownPlace("Atlantis").message.hasPrefix("\"Atlantis\" is not a place we know."))
        #expect(FormRules.unknownPlace(String(repeating: "x", count: 500)).message.count < 250)
    }
}
