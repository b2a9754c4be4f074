/// A calendar day with no time and no time zone, written `YYYY-MM-DD` on the wire.
///
/// The announcement's `last_seen_date` is a day in the reporter's own time zone, so it is
/// modelled as a day, not as an instant: see ``today(in:now:)`` to get the current one.
/// Encodes and decodes as the string `"2025-11-18"`.
public struct LocalDate: Hashable, Comparable, Sendable {
    /// The year, 1…9999.
    public let year: Int
    /// The month, 1…12.
    public let month: Int
    /// The day of the month, 1…28/29/30/31.
    public let day: Int

    /// Creates a date from its parts, when they name a real day of the Gregorian calendar.
    /// - Returns: `nil` for a day that does not exist, such as 2025-02-29 or 2025-13-01.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Self.daysInMonth(month, of: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Creates a date from parts already known to be valid.
    init(uncheckedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Orders dates chronologically.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// The number of days in a month of the Gregorian calendar.
    static func daysInMonth(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }
}
