import Foundation

/// How people can reach the reporter, and the reward offered: the forms' contact step.
///
/// Text is kept as typed; ``sanitizedPhone`` and ``trimmedEmail`` are what gets sent.
/// ``reward`` is capped at 120 characters (see ``TextLimit`` for how caps are enforced).
public struct OwnerContactDetails: Codable, Hashable, Sendable {
    /// The phone number as typed, e.g. `"+48 123-456-789"`.
    public var phone: String
    /// The email address as typed.
    public var email: String
    /// The reward offered, free text; empty means none. Assigning truncates to 120 characters.
    public var reward: String {
        didSet { reward = TextLimit.reward.truncating(reward) }
    }

    /// Creates contact details. Values are kept as given, even over the caps: ``validate()`` reports those.
    public init(phone: String = "", email: String = "", reward: String = "") {
        self.phone = phone
        self.email = email
        self.reward = reward
    }

    /// The phone number with only its digits and `+` kept, e.g. `"+48123456789"`.
    public var sanitizedPhone: String { PhoneNumber(phone).value }

    /// The email address without surrounding whitespace.
    public var trimmedEmail: String { EmailAddress(email).value }

    /// The reward to send: trimmed, or `nil` when blank.
    public var rewardToSend: String? { reward.nonBlankTrimmed }

    /// Every problem with the contact details, in form order (phone, email, reward).
    public func validate() -> [ValidationIssue] {
        [FormRules.phone(phone), FormRules.email(email), TextLimit.reward.validate(reward)]
            .compactMap(\.self)
    }
}

extension String {
    /// The text without surrounding whitespace, or `nil` when nothing else is left.
    public var nonBlankTrimmed: String? {
        let trimmed = trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
