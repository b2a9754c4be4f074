/// The text fields a browser sent with a form, in the order they came, as UTF-8 text (bytes that
/// are not UTF-8 become U+FFFD, which the form rules then judge like any other character).
struct FormFields: Sendable, Equatable {
    private(set) var pairs: [(name: String, value: String)] = []

    init(_ pairs: [(name: String, value: String)] = []) {
        self.pairs = pairs
    }

    mutating func append(_ name: String, _ value: String) {
        pairs.append((name, value))
    }

    /// Replaces every value under `name` with `value` (`nil`: removes them).
    mutating func set(_ name: String, _ value: String?) {
        pairs.removeAll { $0.name == name }
        if let value { pairs.append((name, value)) }
    }

    /// The first value sent under `name`, or `nil` when none was.
    subscript(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The first value under `name`, or `""`.
    func text(_ name: String) -> String {
        self[name] ?? ""
    }

    /// Whether a checkbox named `name` was ticked (sent with any value).
    func isChecked(_ name: String) -> Bool {
        self[name] != nil
    }

    static func == (lhs: FormFields, rhs: FormFields) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }
}
