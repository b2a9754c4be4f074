import PetSpot

/// A group of questions under a heading: a step of the seeds' flows.
struct FormSection: Sendable {
    var title: String
    var inputs: [FormInput]
}

/// A form of the site as a value: its questions in page order, grouped in sections, what the
/// person sent, and the problems found with it — which it draws, summary first, each message
/// beside its question, every value kept. One type per form conforms; the rules and messages come
/// from the domain (`PetSpot`'s ``FormRules``), turned into ``FormProblem``s by the inputs that
/// show each ``FormField``.
protocol WebForm {
    /// The questions, in page order.
    var sections: [FormSection] { get }
    /// What the person sent (or the defaults of a new form), by input name.
    var fields: FormFields { get }
    /// Every problem, each tied to an input.
    var problems: [FormProblem] { get }
    /// What a question shows just before its control (a kept photo); empty by default.
    func before(_ input: FormInput) -> HTML
    /// What a question shows after its control (a button that fills it in); empty by default.
    func after(_ input: FormInput) -> HTML
}

extension WebForm {
    func before(_ input: FormInput) -> HTML { .empty }
    func after(_ input: FormInput) -> HTML { .empty }

    var inputs: [FormInput] { sections.flatMap(\.inputs) }

    /// The problems of `issues`, each beside the first input that shows its field, in the
    /// inputs' order; an issue whose field no input shows is not listed.
    static func problems(from issues: [ValidationIssue], inputs: [FormInput]) -> [FormProblem] {
        var problems: [FormProblem] = []
        for issue in issues {
            guard let input = inputs.first(where: { $0.fields.contains(issue.field) }) else { continue }
            let problem = FormProblem(input: input.name, message: issue.message)
            if !problems.contains(problem) { problems.append(problem) }
        }
        let order = Dictionary(inputs.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        return problems.enumerated().sorted { a, b in
            (order[a.element.input] ?? .max, a.offset) < (order[b.element.input] ?? .max, b.offset)
        }.map(\.element)
    }

    /// The error summary: every problem in page order, then nothing when there is none.
    func errorSummary(notices: [String] = []) -> HTML {
        let targets = Dictionary(inputs.map { ($0.name, $0.targetID) }, uniquingKeysWith: { first, _ in first })
        return FormHTML.errorSummary(problems.map { (targets[$0.input] ?? $0.input, $0.message) }, notices: notices)
    }

    /// The messages shown beside `input`.
    func messages(for input: FormInput) -> [String] {
        problems.filter { $0.input == input.name }.map(\.message)
    }

    /// Every section: its heading and its questions with their values and messages.
    func renderedSections(numbered: Bool = true) -> HTML {
        HTML(joining: sections.enumerated().map { index, section in
            let questions = section.inputs.map { input in
                FormHTML.question(input, value: fields.text(input.name), messages: messages(for: input),
                                  before: before(input), after: after(input))
            }
            let title = numbered ? "\(index + 1). \(section.title)" : section.title
            let id = "section-\(index + 1)"
            return """
                <section class="form-section" aria-labelledby="\(id)">
                <h2 id="\(id)">\(title)</h2>
                \(questions)</section>

                """
        })
    }
}
