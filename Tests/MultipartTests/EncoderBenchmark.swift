import Foundation
import Multipart
import Testing

/// Encoder throughput for a 50 MB body from a file (MB/s). A measurement, not a check: it runs
/// only with `PETSPOT_BENCH=1 swift test -c release --filter EncoderBenchmark`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PETSPOT_BENCH"] == "1", "set PETSPOT_BENCH=1 to measure"))
struct EncoderBenchmark {
    @Test func fiftyMegabytesFromAFile() async throws {
        let path = try temporaryFile([UInt8](repeating: 0xA5, count: 50_000_000))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var form = MultipartFormData()
        form.addField(name: "note", value: "benchmark")
        try form.addFile(name: "photo", filename: "big.bin", contentType: "application/octet-stream", path: path)
        var best = Duration.seconds(3600)
        for _ in 0..<5 {
            let start = ContinuousClock.now
            var total = 0
            for try await chunk in form.chunks() { total += chunk.count }
            best = min(best, ContinuousClock.now - start)
            #expect(Int64(total) == form.contentLength)
        }
        let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
        print("multipart encoder: \(form.contentLength) bytes in \(String(format: "%.3f", seconds)) s = \(String(format: "%.0f", Double(form.contentLength) / seconds / 1e6)) MB/s (best of 5)")
    }
}
