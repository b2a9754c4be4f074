import PetSpot

/// How the site's forms are drawn, in the GOV.UK Design System's way: an error summary first,
/// linked to each field, then every question with its label (a legend for a group of radios), its
/// hint, its message beside it when it has a problem (`aria-invalid`, `aria-describedby`), and the
/// value the person typed, kept.
enum FormHTML {
    /// "There is a problem" with a link to each problem's input, in page order; `notices` are
    /// problems with the form as a whole (no link). Focused when the page loads (`autofocus`;
    /// the script focuses it too), so a screen reader reads it first and a keyboard starts there.
    static func errorSummary(_ problems: [(targetID: String, message: String)], notices: [String] = []) -> HTML {
        guard !problems.isEmpty || !notices.isEmpty else { return .empty }
        let items = notices.map { "<li>\($0)</li>\n" as HTML }
            + problems.map { "<li><a href=\"#\($0.targetID)\">\($0.message)</a></li>\n" as HTML }
        return """
            <div class="error-summary" id="error-summary" tabindex="-1" autofocus>
            <div role="alert">
            <h2>There is a problem</h2>
            <ul>
            \(items)</ul>
            </div>
            </div>

            """
    }

    /// One question: its wrapper, label or legend, hint, messages and control. `before` is drawn
    /// just before the control (a kept photo), `after` after it (a button that fills it in).
    static func question(_ input: FormInput, value: String, messages: [String], before: HTML = .empty, after extra: HTML = .empty) -> HTML {
        let hintID = input.hint == nil ? nil : "\(input.name)-hint"
        let errorIDs = messages.indices.map { $0 == 0 ? "\(input.name)-error" : "\(input.name)-error-\($0 + 1)" }
        let described = ([hintID].compactMap(\.self) + errorIDs).joined(separator: " ")
        let optional: HTML = input.optional ? " <span class=\"optional\">(optional)</span>" : ""
        let hint: HTML = input.hint.map { "<p class=\"hint\" id=\"\(input.name)-hint\">\($0)</p>\n" } ?? .empty
        let error = HTML(joining: zip(errorIDs, messages).map { id, message in
            "<p class=\"error-message\" id=\"\(id)\"><span class=\"visually-hidden\">Error:</span> \(message)</p>\n"
        })
        let wrapperClass = messages.isEmpty ? "field" : "field has-error"
        switch input.kind {
        case .radios(let choices):
            let radios = choices.map { choice in
                let id = FormInput.radioID(input.name, choice.value)
                let checked: HTML = choice.value == value ? " checked" : ""
                let invalid: HTML = messages.isEmpty ? "" : " aria-invalid=\"true\""
                return "<div class=\"radio\"><input type=\"radio\" id=\"\(id)\" name=\"\(input.name)\" value=\"\(choice.value)\"\(checked)\(invalid)><label for=\"\(id)\">\(choice.label)</label></div>\n" as HTML
            }
            let describedBy: HTML = described.isEmpty ? "" : " aria-describedby=\"\(described)\""
            return """
                <fieldset class="\(wrapperClass)" id="\(input.name)-group"\(describedBy)>
                <legend>\(input.label)\(optional)</legend>
                \(hint)\(error)\(before)<div class="radios">
                \(radios)</div>
                \(extra)</fieldset>

                """
        default:
            return """
                <div class="\(wrapperClass)" id="\(input.name)-field">
                <label for="\(input.name)">\(input.label)\(optional)</label>
                \(hint)\(error)\(before)\(control(input, value: value, describedBy: described, invalid: !messages.isEmpty))
                \(extra)</div>

                """
        }
    }

    /// The input, text area or file picker of a question that is not a group.
    static func control(_ input: FormInput, value: String, describedBy: String, invalid: Bool) -> HTML {
        var attributes: [HTML] = ["id=\"\(input.name)\" name=\"\(input.name)\""]
        if !describedBy.isEmpty { attributes.append("aria-describedby=\"\(describedBy)\"") }
        if invalid { attributes.append("aria-invalid=\"true\"") }
        if let autocomplete = input.autocomplete { attributes.append("autocomplete=\"\(autocomplete)\"") }
        if let mode = input.inputMode { attributes.append("inputmode=\"\(mode)\"") }
        if let maxLength = input.maxLength { attributes.append("maxlength=\"\(maxLength)\"") }
        if !input.spellcheck { attributes.append("spellcheck=\"false\"") }
        if input.short { attributes.append("class=\"short\"") }
        for (name, value) in input.attributes { attributes.append("\(HTML(stringLiteral: name))=\"\(value)\"") }
        let joined = HTML(joining: attributes.enumerated().map { index, attribute in index == 0 ? attribute : " \(attribute)" })
        switch input.kind {
        case .input(let type):
            return "<input type=\"\(type)\" \(joined) value=\"\(value)\">"
        case .textarea(let rows):
            // The parser drops a newline right after the start tag: this one, so a value that
            // begins with a line break keeps it.
            return "<textarea \(joined) rows=\"\(rows)\">\n\(value)</textarea>"
        case .file(let accept):
            return "<input type=\"file\" \(joined) accept=\"\(accept)\">"
        case .radios:
            return .empty
        }
    }

    /// A form's hidden input.
    static func hidden(_ name: String, _ value: String) -> HTML {
        "<input type=\"hidden\" name=\"\(name)\" value=\"\(value)\">\n"
    }
}
