internal import CFuzzDriver
import Dispatch
import Foundation

/// What every harness shares: the input as bytes, invariant checks that crash (so libFuzzer keeps
/// the input), a scratch folder, and a way to run async code from libFuzzer's synchronous callback.
public enum Fuzz {
    /// Hands the process to libFuzzer, which parses its flags from the command line and calls
    /// `harness` with each input. A harness returns 0 (or -1: do not keep this input in the corpus).
    public static func run(_ harness: @escaping ([UInt8]) -> Int32) -> Never {
        current = harness
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(pf_run(&argc, &argv) { data, size in
            Fuzz.current!(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        })
    }

    /// The harness `run` was given (libFuzzer's callback is a C function pointer: it cannot capture).
    nonisolated(unsafe) private static var current: (([UInt8]) -> Int32)?

    /// Stops the run when an invariant is broken; libFuzzer saves the input as `crash-…`.
    public static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                               file: StaticString = #fileID, line: UInt = #line) {
        if !condition() { fatalError("invariant broken: \(message())", file: file, line: line) }
    }

    /// A folder of this process's own for harnesses that go through files (drafts, the journal,
    /// uploads); in /dev/shm when there is one, so the disk is not worn.
    public static let scratch: String = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = "\(base)/petspot-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: "/dev/shm/petspot-fuzz-\(getpid())") }
        return path
    }()

    /// Runs `body` to completion and returns its result (libFuzzer's callback cannot be async).
    public static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value!
    }

    private final class Box<T>: @unchecked Sendable {
        var value: T?
    }

    /// Splits `bytes` at the first newline: a header line the harness interprets, and the rest.
    public static func splitLine(_ bytes: [UInt8]) -> (line: String, rest: [UInt8]) {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return (String(decoding: bytes, as: UTF8.self), []) }
        return (String(decoding: bytes[..<newline], as: UTF8.self), Array(bytes[(newline + 1)...]))
    }
}
