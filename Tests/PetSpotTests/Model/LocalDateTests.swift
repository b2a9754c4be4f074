import Foundation
import PetSpot
import Testing

@Suite struct LocalDateTests {
    @Test(arguments: [
        ("2025-11-18", 2025, 11, 18),
        ("2024-02-29", 2024, 2, 29),
        ("2000-02-29", 2000, 2, 29),
        ("0001-01-01", 1, 1, 1),
        ("9999-12-31", 9999, 12, 31),
    ])
    func parsesStrictYearMonthDay(text: String, year: Int, month: Int, day: Int) throws {
        let date = try #require(LocalDate(text))
        #expect(date.year == year && date.month == month && date.day == day)
        #expect(date.description == text)
    }

    @Test(arguments: [
        "", "2025-11", "2025-1-18", "25-11-18", "2025/11/18", "2025-11-18T00:00:00Z",
        "2025-02-29", "1900-02-29", "2025-13-01", "2025-00-10", "2025-04-31", "2025-11-00",
        "abcd-ef-gh", " 2025-11-18", "+025-11-18", "２０２５-11-18",
    ])
    func refusesAnythingElse(text: String) {
        #expect(LocalDate(text) == nil)
    }

    @Test func formatsWithZeroPadding() throws {
        let date = try #require(LocalDate(year: 987, month: 3, day: 7))
        #expect(date.description == "0987-03-07")
    }

    @Test func ordersChronologically() {
        #expect(Fixtures.yesterday < Fixtures.today)
        #expect(Fixtures.today < Fixtures.tomorrow)
        #expect(LocalDate("2024-12-31")! < LocalDate("2025-01-01")!)
    }

    @Test(arguments: [
        ("GMT", "2025-11-18"),
        ("Asia/Tokyo", "2025-11-19"),
        ("America/Los_Angeles", "2025-11-18"),
        ("Pacific/Kiritimati", "2025-11-19"),
        ("Pacific/Pago_Pago", "2025-11-18"),
    ])
    func todayIsTheDayInTheReportersTimeZone(zone: String, expected: String) throws {
        let instant = try #require(ISO8601DateFormatter().date(from: "2025-11-18T23:30:00Z"))
        let timeZone = try #require(TimeZone(identifier: zone))
        #expect(LocalDate.today(in: timeZone, now: instant).description == expected)
    }

    @Test func latestTodayIsTheDayInUTCPlus14() throws {
        let instant = try #require(ISO8601DateFormatter().date(from: "2025-11-18T10:00:00Z"))
        #expect(LocalDate.latestToday(now: instant).description == "2025-11-19")
    }

    @Test func codesAsAString() throws {
        #expect(try Fixtures.today.jsonString() == #""2025-11-18""#)
        let decoded = try PetSpotJSON.decode([LocalDate].self, from: Data(#"["2024-02-29"]"#.utf8))
        #expect(decoded == [LocalDate(year: 2024, month: 2, day: 29)])
        #expect(throws: DecodingError.self) {
            try PetSpotJSON.decode([LocalDate].self, from: Data(#"["2025-11-18T10:00:00Z"]"#.utf8))
        }
    }
}
