/// The messages people see for invalid form fields, verbatim from the product's specs.
public enum ValidationMessage {
    /// A phone number (or caregiver phone) with fewer than 7 digits.
    public static let phone = "Enter at least 7 digits"
    /// A phone number (or caregiver phone) with more than 15 digits (E.164).
    public static let phoneTooLong = "Enter at most 15 digits"
    public static let controlCharacters = "Remove the control characters (such as NUL) from this text"
    /// An email address not shaped `local@domain.tld`.
    public static let email = "Enter a valid email address"
    /// No species chosen.
    public static let species = "Please select a species"
    /// An empty breed/race in the missing flow.
    public static let breed = "Please enter the animal's breed/race"
    /// No gender, or one that is neither male nor female.
    public static let gender = "Please select the sex"
    /// An age outside 0–40.
    public static let age = "Age must be between 0 and 40"
    /// A latitude outside −90…90 (or not a number).
    public static let latitudeRange = "Latitude must be between -90 and 90"
    /// A longitude outside −180…180 (or not a number).
    public static let longitudeRange = "Longitude must be between -180 and 180"
    /// No latitude given.
    public static let latitudeRequired = "Fill in latitude"
    /// No longitude given.
    public static let longitudeRequired = "Fill in longitude"
    /// No photo in the found flow.
    public static let photoRequired = "Photo is mandatory"
    /// No last seen / found date.
    public static let dateRequired = "Please select a date"
    /// A last seen / found date after today.
    public static let dateInFuture = "The date cannot be in the future"
    /// A microchip number on the wire with something other than digits.
    public static let microchipDigitsOnly = "Microchip number must contain digits only"
    /// A typed microchip number with a digit count no chip has (see ``FormRules/microchipDigitCounts``).
    public static let microchipLength = "A microchip number has 15 digits (older chips: 9 or 10)"
    /// A typed microchip number that is a 10-character hexadecimal code (some older chips).
    public static let microchipHexadecimal = "This looks like a hexadecimal chip code; enter the chip's digit-only number, or put the code in the description"
    /// A microchip number on the wire longer than 15 digits.
    public static let microchipTooLong = "Microchip number must be at most \(MicrochipNumber.maximumDigits) digits"
}
