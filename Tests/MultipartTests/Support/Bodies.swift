import Crypto
import Foundation
import TestScratch
import Multipart

extension MultipartFormData {
    /// The whole body, through the async chunks.
    func collected(chunkSize: Int = 65536) async throws -> [UInt8] {
        var body: [UInt8] = []
        for try await chunk in chunks(chunkSize: chunkSize) { body += chunk }
        return body
    }
}

func sha256(_ bytes: [UInt8]) -> String {
    SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
}

/// A file in a fresh temporary folder (removed when the test process ends).
func temporaryFile(_ bytes: [UInt8], name: String = "part.bin") throws -> String {
    let folder = URL(fileURLWithPath: try ScratchFolder.make("multipart"))
    let path = folder.appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}
