/// A step of a report flow, numbered from 1, with a title a CLI can print.
public protocol ReportStep: RawRepresentable<Int>, CaseIterable, Codable, Hashable, Sendable
where AllCases == [Self] {
    /// The step's title, e.g. "Photo".
    var title: String { get }
}

extension ReportStep {
    /// The step's number, from 1.
    public var number: Int { rawValue }

    /// How many steps the flow has.
    public static var total: Int { allCases.count }

    /// How many steps the flow has.
    public var total: Int { Self.total }

    /// `"Step 2 of 4 · Photo"`.
    public var progressLabel: String { "Step \(number) of \(total) · \(title)" }

    /// The flow's first step.
    public static var first: Self { allCases[0] }

    /// The step after this one, or `nil` on the last.
    public var next: Self? { Self(rawValue: rawValue + 1) }

    /// The step before this one, or `nil` on the first.
    public var previous: Self? { Self(rawValue: rawValue - 1) }

    /// Whether this is the flow's last step.
    public var isLast: Bool { next == nil }
}
