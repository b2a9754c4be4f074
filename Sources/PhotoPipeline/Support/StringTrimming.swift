extension StringProtocol {
    /// The text without the leading and trailing characters `isTrimmed` picks (Foundation's
    /// `trimmingCharacters(in:)`, kept out of the photo commands' start-up).
    package func trimming(_ isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(self[first...last])
    }
}
