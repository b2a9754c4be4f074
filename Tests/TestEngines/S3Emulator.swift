import Foundation
import TestProcesses
import PetSpotServer

/// `scripts/s3-emulator.py`: moto_server on a free port, stopped when dropped or when this process ends.
public final class S3Emulator: @unchecked Sendable {
    public let endpoint: String
    public let bucket: String
    public let credentials: AWSCredentials
    private let process: ChildProcess

    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/s3-emulator.py")

    public init() throws {
        // It stops when its standard input closes.
        process = try ChildProcess("/usr/bin/env", ["python3", Self.script.path], input: .pipe, output: .pipe, error: .inherited)
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = process.standardOutput!.availableData
            guard !chunk.isEmpty else { break }
            line += chunk
        }
        struct Started: Decodable {
            var endpoint: String
            var bucket: String
            var access_key_id: String
            var secret_access_key: String
        }
        guard let started = try? JSONDecoder().decode(Started.self, from: line) else {
            throw EmulatorFailure(description: "scripts/s3-emulator.py did not start (is moto[server] installed? "
                + "run scripts/install-deps.sh): \(String(decoding: line, as: UTF8.self))")
        }
        endpoint = started.endpoint
        bucket = started.bucket
        credentials = AWSCredentials(accessKeyID: started.access_key_id, secretAccessKey: started.secret_access_key)
    }

    public func location(prefix: String) throws -> S3Location {
        try S3Location(url: "s3://\(bucket)/\(prefix)", endpoint: endpoint, region: "us-east-1")
    }

    deinit {
        try? process.standardInput?.close()
        process.waitForExit()
    }

    public struct EmulatorFailure: Error, CustomStringConvertible {
        public let description: String
    }
}
