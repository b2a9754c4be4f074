@testable import PetSpotServer
import Synchronization
import Testing

/// Upload places: a client address gets at most its share, the rest stay for others.
@Suite struct UploadAdmissionTests {
    /// Holds `count` uploads of `client` in flight until `release` is called.
    final class Held: Sendable {
        let started = Atomic<Int>(0)
        let open = Mutex(false)

        func wait() async {
            while !open.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test func oneAddressGetsItsShareAndOthersTheRest() async throws {
        let admission = UploadAdmission(limit: 6, perClientLimit: 4)
        let held = Held()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await admission.admit(client: "198.51.100.7") {
                        held.started.add(1, ordering: .relaxed)
                        await held.wait()
                    }
                }
            }
            while held.started.load(ordering: .relaxed) < 4 { try await Task.sleep(for: .milliseconds(5)) }
            await #expect(throws: UploadAdmission.Busy.self) { try await admission.admit(client: "198.51.100.7") {} }
            // Other addresses are admitted, up to the total.
            try await admission.admit(client: "198.51.100.8") {}
            try await admission.admit(client: "198.51.100.9") {}
            held.open.withLock { $0 = true }
            try await group.waitForAll()
        }
        // All released: the first address has its places back.
        try await admission.admit(client: "198.51.100.7") {}
    }

    @Test func theTotalStillBoundsEveryone() async throws {
        let admission = UploadAdmission(limit: 2, perClientLimit: 4)
        let held = Held()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in ["a", "b"] {
                group.addTask { try await admission.admit(client: client) { held.started.add(1, ordering: .relaxed); await held.wait() } }
            }
            while held.started.load(ordering: .relaxed) < 2 { try await Task.sleep(for: .milliseconds(5)) }
            await #expect(throws: UploadAdmission.Busy.self) { try await admission.admit(client: "c") {} }
            held.open.withLock { $0 = true }
            try await group.waitForAll()
        }
    }
}
