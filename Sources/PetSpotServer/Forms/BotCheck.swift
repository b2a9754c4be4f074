import Foundation

/// What turns naive bots away without a third-party CAPTCHA: a honeypot field that people never
/// see (hidden by the style sheet, out of the tab order, its label saying to leave it empty) and
/// a minimum time between showing a form and sending it, read from the form's signed token
/// (``FormProtection``), so a bot can neither fill the form in an instant nor claim it took longer.
enum BotCheck {
    /// The honeypot's name: a field a form-filling bot is keen to fill.
    static let honeypotField = "website"
    /// Faster than this, nobody reads and fills in a form.
    static let minimumFillSeconds = 3.0

    enum Verdict: Sendable, Equatable {
        case person
        /// The hidden field came back filled in.
        case honeypotFilled
        /// Sent `seconds` after the form was shown.
        case tooFast(seconds: Int)
    }

    /// Judges a posted form shown at `issuedAt`.
    static func check(_ fields: FormFields, issuedAt: Date, now: Date) -> Verdict {
        if !(fields[honeypotField] ?? "").isEmpty { return .honeypotFilled }
        let elapsed = now.timeIntervalSince(issuedAt)
        return elapsed < minimumFillSeconds ? .tooFast(seconds: max(0, Int(elapsed))) : .person
    }

    /// What a form's page says of a post shown at `issuedAt`: nothing for a person, a notice for
    /// one sent too fast (nothing is saved; the person checks it and sends it again).
    /// - Throws: ``FormRefusal/honeypot`` when the hidden field came back filled in.
    static func notices(_ fields: FormFields, issuedAt: Date, now: Date) throws -> [String] {
        switch check(fields, issuedAt: issuedAt, now: now) {
        case .honeypotFilled:
            throw FormRefusal.honeypot
        case .tooFast(let seconds):
            return ["This form was sent \(seconds) second\(seconds == 1 ? "" : "s") after it was shown, quicker than a person fills it in, as automated programs do. Nothing was saved: check your answers and send it again."]
        case .person:
            return []
        }
    }

    /// The honeypot, for a form's markup: hidden from people and assistive technology by
    /// `display: none` (`.hp` in the form style), never focusable.
    static var honeypot: HTML {
        #"<div class="hp"><label for="website">Leave this field empty</label><input id="website" name="website" type="text" autocomplete="off" tabindex="-1"></div>"#
    }
}
