import Testing

/// The exit-code table: whole and sorted in `petspot --help`, and in each subcommand only the
/// codes it can return.
@Suite struct ExitCodeHelpTests {
    /// The codes listed under "EXIT CODES", in the order shown.
    static func codes(in help: String) -> [Int] {
        guard let table = help.components(separatedBy: "EXIT CODES").last else { return [] }
        // Up to the blank line that ends the table.
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().prefix { !$0.isEmpty }
        return lines.compactMap { line in
            guard line.hasPrefix("  "), let first = line.split(separator: " ").first else { return nil }
            return Int(first)
        }
    }

    @Test(arguments: [
        ([String](), [0, 64, 65, 66, 69, 70, 73, 74, 75, 76, 77]),
        (["photo", "prepare"], [0, 64, 65, 66, 70, 73, 74]),
        (["photo", "inspect"], [0, 64, 65, 66]),
        (["cache"], [0, 64, 65, 66, 70, 73, 74]),
        (["report", "submit"], [0, 64, 65, 66, 69, 73, 74, 75, 76, 77]),
        (["pet", "list"], [0, 64, 65, 66, 69, 75, 76, 77]),
    ])
    func eachCommandListsItsOwnCodesOnceInOrder(command: [String], expected: [Int]) async throws {
        let result = try await CLIRunner.petspot(command + ["--help"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.components(separatedBy: "EXIT CODES").count == 2, "one table: \(result.stdout)")
        #expect(Self.codes(in: result.stdout) == expected, "\(result.stdout)")
    }
}
