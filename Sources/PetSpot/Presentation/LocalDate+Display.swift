import Foundation

extension LocalDate {
    /// English month abbreviations, fixed so output never depends on the machine's locale.
    private static let monthAbbreviations = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// The date as people read it, `Nov 18, 2025` (en_US_POSIX style, the same everywhere).
    public var displayString: String {
        "\(Self.monthAbbreviations[month - 1]) \(day), \(year)"
    }

    /// The calendar day of an instant in a time zone, as people read it, e.g. `Nov 18, 2025`.
    public static func displayString(for date: Date, in timeZone: TimeZone) -> String {
        LocalDate(date: date, in: timeZone).displayString
    }
}
