import Foundation
import PetSpot

/// "Email alerts for this area": the address, and how often (each new report, or a day's in
/// one message). The area itself travels in hidden fields and is resolved again when sent.
struct AreaAlertForm: WebForm {
    static let path = "/alerts"
    static let newPath = "/alerts/new"
    static let sentPath = "/alerts/check-email"

    var fields: FormFields
    var problems: [FormProblem] = []

    static let email = FormInput(
        name: "email", label: "Email address", hint: "We send a link to confirm first, and nothing else until it is followed.",
        kind: .input(type: "email"), autocomplete: "email", maxLength: 254, spellcheck: false, fields: [.email])
    static let cadence = FormInput(
        name: "cadence", label: "How often",
        kind: .radios([.init(value: AlertSubscription.Cadence.each.rawValue, label: "An email for each new report"),
                       .init(value: AlertSubscription.Cadence.daily.rawValue, label: "One email a day, when there are new reports")]),
        fields: [])

    var sections: [FormSection] { [FormSection(title: "Your alerts", inputs: [Self.email, Self.cadence])] }

    /// The address and the cadence sent, or the form with its problems.
    mutating func read() -> (email: String, cadence: AlertSubscription.Cadence)? {
        let address = EmailAddress(fields.text(Self.email.name))
        problems = Self.problems(from: [FormRules.email(address.value)].compactMap(\.self), inputs: inputs)
        let cadence = AlertSubscription.Cadence(rawValue: fields.text(Self.cadence.name))
        if cadence == nil { problems.append(FormProblem(input: Self.cadence.name, message: "Choose how often to get emails")) }
        guard problems.isEmpty, let cadence else { return nil }
        return (address.value, cadence)
    }

    /// The page: the area in words, the form with its token first, the honeypot, the questions.
    func page(area: AlertArea, token: String, notices: [String] = []) -> HTML {
        let subscription = area.subscription(email: "", cadence: .each, now: .distantPast)
        let heading = "Email alerts for this area"
        let body: HTML = """
            <div class="form-page">
            \(errorSummary(notices: notices))<h1>\(heading)</h1>
            <p class="lede">Get an email when one of the \(subscription.areaDescription) is reported.</p>
            <form method="post" action="\(Self.path)" novalidate>
            \(FormHTML.hidden(FormProtection.fieldName, token))\(area.hiddenFields)\(BotCheck.honeypot)
            \(renderedSections(numbered: false))<div class="actions"><button type="submit" class="button">Send me the link to confirm</button> \
            <a href="/\(area.query)">Back to the list</a></div>
            </form>
            <p>Only your address and this area are kept. Every email has a link to stop them, which erases both.</p>
            </div>

            """
        return PageLayout.document(title: "\(problems.isEmpty && notices.isEmpty ? "" : "Error: ")\(heading) · PetSpot",
                                   description: "Get an email when a pet is reported near a place.", meta: FormStyle.link, body: body)
    }
}
