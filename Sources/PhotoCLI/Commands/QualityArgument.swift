import ArgumentParser
import PhotoPipeline

/// `--quality`: a number for every photo alike, or `auto` for each photo's own, chosen by what
/// people see (``AutoQuality``).
package enum QualityArgument: Sendable, Equatable, CustomStringConvertible {
    case number(Int)
    /// The butteraugli distance to stay within.
    case auto(Double)

    /// Reads a whole number 1–100, "auto", or "auto:DISTANCE" (a butteraugli distance 0.3–5);
    /// the message says what is accepted.
    package init(parsing text: String) throws {
        let lowered = text.lowercased()
        if lowered == "auto" {
            self = .auto(AutoQuality.defaultTarget)
            return
        }
        if lowered.hasPrefix("auto:") {
            guard let distance = Double(lowered.dropFirst(5)), (Self.targets).contains(distance) else {
                throw ValidationError("--quality auto:DISTANCE takes a butteraugli distance from 0.3 to 5, such as auto:1.1 "
                                      + "(got '\(text)'); lower is closer to the resized photo, and larger.")
            }
            self = .auto(distance)
            return
        }
        guard let number = Int(text) else {
            throw ValidationError("--quality takes a number from 1 to 100, or auto for each photo's lowest quality that looks "
                                  + "the same as the resized photo (got '\(text)').")
        }
        try NumericOption.check("--quality", number, in: 1...100)
        self = .number(number)
    }

    package var description: String {
        switch self {
        case .number(let number): String(number)
        case .auto(let distance): distance == AutoQuality.defaultTarget ? "auto" : "auto:\(distance)"
        }
    }

    /// The butteraugli distances `auto:` takes: below 0.3 only quality 100 comes near, above 5
    /// a photo is visibly broken.
    static let targets: ClosedRange<Double> = 0.3...5

    /// The quality given, or what an automatic choice starts from (it replaces it per photo).
    var encoderQuality: Int {
        if case .number(let number) = self { return number }
        return PipelineOptions.Defaults.quality
    }

    /// The automatic choice, when asked for.
    var autoQuality: AutoQuality? {
        guard case .auto(let distance) = self else { return nil }
        return AutoQuality(targetDistance: distance)
    }
}
