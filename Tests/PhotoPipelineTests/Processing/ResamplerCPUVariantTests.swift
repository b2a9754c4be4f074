import CResample
@testable import PhotoPipeline
import Foundation
import Testing

/// The resizer's inner loops pick their AVX2 variants by CPUID on first use (not by an ifunc
/// resolver at every process start): they must agree with what the kernel says the CPU has.
struct ResamplerCPUVariantTests {
    @Test func theFastLoopsRunExactlyWhenTheCPUHasAVX2() throws {
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        guard let flags = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else {
            Issue.record("no flags line in /proc/cpuinfo")
            return
        }
        let set = Set(flags.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "\t" }).map(String.init))
        // The kernel lists AVX only when it saves the YMM registers (OSXSAVE is not listed).
        let expected = set.contains("avx2") && set.contains("avx")
        #expect((pj_resize_uses_avx2() != 0) == expected, "flags: \(set.sorted())")
    }
}

/// The server loads every codec library at start (`CodecLibraries.loadAll`): on this machine, all load.
struct CodecLibraryTests {
    @Test func everyCodecLibraryLoads() {
        #expect(CodecLibraries.loadAll() == nil)
    }
}
