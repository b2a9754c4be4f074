import PetSpot
import Testing

@Suite struct LocationRuleTests {
    @Test(arguments: [-90.0, -45.5, 0.0, 52.2297, 90.0])
    func acceptsLatitudesFromMinus90To90(latitude: Double) {
        #expect(FormRules.latitude(latitude) == nil)
    }

    @Test(arguments: [90.0001, -90.0001, 180.0, .nan, .infinity, -.infinity])
    func refusesLatitudesOutOfRange(latitude: Double) {
        #expect(FormRules.latitude(latitude)
            == ValidationIssue(field: .latitude, message: "Latitude must be between -90 and 90"))
    }

    @Test(arguments: [-180.0, -0.5, 0.0, 21.0122, 180.0])
    func acceptsLongitudesFromMinus180To180(longitude: Double) {
        #expect(FormRules.longitude(longitude) == nil)
    }

    @Test(arguments: [180.0001, -180.0001, 360.0, .nan])
    func refusesLongitudesOutOfRange(longitude: Double) {
        #expect(FormRules.longitude(longitude)
            == ValidationIssue(field: .longitude, message: "Longitude must be between -180 and 180"))
    }

    @Test func missingCoordinatesAskToBeFilledIn() {
        #expect(FormRules.latitude(nil) == ValidationIssue(field: .latitude, message: "Fill in latitude"))
        #expect(FormRules.longitude(nil) == ValidationIssue(field: .longitude, message: "Fill in longitude"))
    }
}
