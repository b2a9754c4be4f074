extension FormRules {
    /// The latitudes a location may have.
    public static let latitudeRange = -90.0...90.0
    /// The longitudes a location may have.
    public static let longitudeRange = -180.0...180.0

    /// A latitude is required and must be −90…90 (NaN and infinities are out of range).
    public static func latitude(_ value: Double?) -> ValidationIssue? {
        guard let value else {
            return ValidationIssue(field: .latitude, message: ValidationMessage.latitudeRequired)
        }
        return latitudeRange.contains(value)
            ? nil : ValidationIssue(field: .latitude, message: ValidationMessage.latitudeRange)
    }

    /// A longitude is required and must be −180…180 (NaN and infinities are out of range).
    public static func longitude(_ value: Double?) -> ValidationIssue? {
        guard let value else {
            return ValidationIssue(field: .longitude, message: ValidationMessage.longitudeRequired)
        }
        return longitudeRange.contains(value)
            ? nil : ValidationIssue(field: .longitude, message: ValidationMessage.longitudeRange)
    }
}
