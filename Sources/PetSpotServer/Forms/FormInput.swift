import PetSpot

/// One question of a web form: its name (the HTML `name` and `id`), its label and hint, the kind
/// of control, the attributes that make phones show the right keyboard and browsers fill it in,
/// and the domain fields (``FormField``) whose problems are shown beside it.
struct FormInput: Sendable {
    enum Kind: Sendable {
        /// `<input type="…">`: text, tel, email, date.
        case input(type: String)
        case textarea(rows: Int)
        /// Radio buttons in a fieldset whose legend is the label.
        case radios([Choice])
        /// `<input type="file">` accepting these types.
        case file(accept: String)
    }

    struct Choice: Sendable {
        var value: String
        var label: String
    }

    var name: String
    var label: String
    var hint: String?
    var kind: Kind
    /// Shown as "(optional)" after the label.
    var optional = false
    var autocomplete: String?
    var inputMode: String?
    var maxLength: Int?
    /// Names and codes are not words: no spelling underlines.
    var spellcheck = true
    /// A narrower box for short answers (an age, a chip number).
    var short = false
    /// More attributes of the control, in order (`max` of a date, `list`, `data-…` for the script).
    var attributes: [(name: String, value: String)] = []
    /// The domain fields whose problems show here.
    var fields: [FormField]

    /// The element an error summary links to: the input, or a group's first radio.
    var targetID: String {
        if case .radios(let choices) = kind, let first = choices.first { return Self.radioID(name, first.value) }
        return name
    }

    static func radioID(_ name: String, _ value: String) -> String {
        "\(name)-\(value.lowercased())"
    }
}

/// A problem to show: its message, beside the input named `input` and in the error summary.
struct FormProblem: Sendable, Equatable {
    var input: String
    var message: String
}
