extension ValidationMessage {
    /// An age typed as something other than a whole number.
    public static let ageWholeNumber = "Enter the age as a whole number of years, such as 4"
    /// A date that is not a real day (a date input sends `YYYY-MM-DD`).
    public static let dateInvalid = "Enter a real date, such as 2025-11-18"
    /// "Where" left empty in a form that asks for a place or coordinates.
    public static let locationRequired = "Enter a place name, or coordinates such as 52.2297, 21.0122"
    /// A photo a form kept from an earlier send that is no longer kept.
    public static let photoExpired = "The photo you added earlier is no longer kept; add it again"

    /// A place name nobody knows, with what to type instead.
    public static func placeUnknown(_ name: String) -> String {
        "\"\(name.prefix(80))\" is not a place we know. Try the town's name with its country, such as \"Paris, France\", or enter coordinates such as 52.2297, 21.0122"
    }
}
