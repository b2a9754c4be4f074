import ArgumentParser

/// Range checks for numeric options, with one wording: "--quality must be ≥ 1 (got -5)" or
/// "--max-megapixels must be at most 100000 (got inf)".
package enum NumericOption {
    /// Throws a usage error when `value` is outside `range`.
    /// - Parameter floor: how to state the lower bound, when "≥ lower bound" would mislead.
    package static func check<Value: Comparable & CustomStringConvertible>(
        _ option: String, _ value: Value, in range: ClosedRange<Value>, floor: String? = nil
    ) throws {
        if value < range.lowerBound {
            throw ValidationError("\(option) must be \(floor ?? "≥ \(text(range.lowerBound))") (got \(text(value))).")
        }
        // `!(value <= upper)` so that NaN is refused too.
        if !(value <= range.upperBound) {
            throw ValidationError("\(option) must be at most \(text(range.upperBound)) (got \(text(value))).")
        }
    }

    /// "100000" rather than "100000.0" for a whole `Double`.
    private static func text(_ value: some CustomStringConvertible) -> String {
        if let number = value as? Double, number.isFinite, number == number.rounded(), abs(number) < 1e15 {
            return String(Int(number))
        }
        return value.description
    }
}
