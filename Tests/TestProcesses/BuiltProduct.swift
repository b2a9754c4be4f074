import Foundation

/// An executable `swift build --build-tests` built next to the test bundle (the bundle is
/// `<scratch>/debug/<Package>PackageTests.xctest`; the executables are beside it).
public enum BuiltProduct {
    public struct NotFound: Error, CustomStringConvertible {
        public let name: String
        public let searched: [String]
        public let variable: String?
        public var description: String {
            "The \(name) binary is not next to the test bundle (looked in \(searched.joined(separator: ", "))). "
                + "Build it first: swift build --build-tests (with the same --scratch-path as swift test)"
                + (variable.map { ", or point \($0) at it." } ?? ".")
        }
    }

    /// `name` beside the test bundle, or the path in the environment variable `variable` when it
    /// is set; a path beside the bundle when there is none (starting it then says so).
    public static func url(_ name: String, overriddenBy variable: String? = nil) -> URL {
        (try? existing(name, overriddenBy: variable))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }

    /// ``url(_:overriddenBy:)``, or an error that says where it looked and how to build it.
    public static func existing(_ name: String, overriddenBy variable: String? = nil) throws -> URL {
        if let variable, let override = ProcessInfo.processInfo.environment[variable], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        var searched: [String] = []
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name)
            searched.append(folder.path)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw NotFound(name: name, searched: searched, variable: variable)
    }
}
