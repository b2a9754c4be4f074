/// Catches a misspelt `PETSPOT_*` environment variable, which would otherwise be ignored in
/// silence (`PETSPOT_SEVER` leaves the default server in use).
package enum VariableSpelling {
    /// A warning for each `PETSPOT_*` variable of `environment` that is not one of `known` but
    /// is within two edits of one ("did you mean …"). Names further from all of them are taken
    /// to be some other program's (tests, benchmarks and scripts set their own `PETSPOT_*`).
    package static func warnings(_ environment: [String: String], known: [String], program: String) -> [String] {
        environment.keys.filter { $0.hasPrefix("PETSPOT_") && !known.contains($0) }.sorted().compactMap { name in
            let nearest = known.map { ($0, distance(Array(name.utf8), Array($0.utf8))) }.min { $0.1 < $1.1 }
            guard let (match, edits) = nearest, edits <= 2 else { return nil }
            return "warning: \(program) does not read \(name); did you mean \(match)? (it is ignored)"
        }
    }

    /// Levenshtein distance.
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
