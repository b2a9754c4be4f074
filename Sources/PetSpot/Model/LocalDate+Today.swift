import Foundation

extension LocalDate {
    /// The calendar day it is at an instant in a time zone (the reporter's own, for a form).
    /// - Parameters:
    ///   - timeZone: The time zone whose wall calendar to read.
    ///   - now: The instant; the current one unless a test pins it.
    /// - Returns: The day, e.g. 2025-11-19 in Tokyo while it is still 2025-11-18 in London.
    public static func today(in timeZone: TimeZone = .current, now: Date = Date()) -> LocalDate {
        LocalDate(date: now, in: timeZone)
    }

    /// The latest calendar day anywhere on Earth at an instant (the day in UTC+14).
    ///
    /// A server checking "not in the future" does not know the reporter's time zone;
    /// comparing against this day never refuses a date that is today somewhere.
    /// - Parameter now: The instant; the current one unless a test pins it.
    public static func latestToday(now: Date = Date()) -> LocalDate {
        LocalDate(date: now, in: TimeZone(secondsFromGMT: 14 * 3600) ?? .gmt)
    }

    /// The calendar day an instant falls on in a time zone (Gregorian calendar).
    /// - Parameters:
    ///   - date: The instant.
    ///   - timeZone: The time zone whose wall calendar to read.
    public init(date: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        // The Gregorian calendar always yields a real day; the fallback is unreachable.
        self = LocalDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
            ?? LocalDate(uncheckedYear: 1970, month: 1, day: 1)
    }
}
