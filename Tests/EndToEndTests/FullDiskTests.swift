#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NIOCore
import PetSpot
import Testing

/// A real full disk under the built `petspot-server`: its data directory on a 6 MB tmpfs that
/// the test then fills. Needs permission to mount (root in CI); elsewhere the suite is skipped
/// and says so.
@Suite(.enabled(if: TmpfsPermission.granted, "mounting a tmpfs needs root (CAP_SYS_ADMIN)"))
struct ServerFullDiskTests {
    @Test func aFullDiskIs503StorageUnavailableForWritesAndHealthNot500() async throws {
        let data = try makeTemporaryDirectory("full-disk")
        defer { try? FileManager.default.removeItem(atPath: data) }
        #expect(mount("tmpfs", data, "tmpfs", 0, "size=6m,mode=0700") == 0)
        defer { umount2(data, Int32(MNT_DETACH)) }
        let server = try ServerProcess(dataDirectory: data, backend: .embedded)
        let photo = try TestImages.bytes("sample-photo.jpg")
        let first = try await HTTP.create(server.baseURL)
        #expect(try await HTTP.upload(photo, base: server.baseURL, to: first).status == 201)
        #expect(try await HTTP.send(.GET, server.baseURL + "/health").status == 200)

        // Fill the file system to the last byte.
        let filler = data + "/filler"
        let fd = open(filler, O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 0xAB, count: 65536)
        while write(fd, block, block.count) > 0 {}
        var byte: UInt8 = 1
        while write(fd, &byte, 1) == 1 {}
        close(fd)

        let health = try await HTTP.health(server.baseURL, until: 503)
        #expect(health.status == 503)
        #expect(String(decoding: health.body, as: UTF8.self).contains(#""code":"storage_unavailable""#))
        // It names what failed: the database or the upload folder, both on the full disk.
        #expect([#""field":"uploads""#, #""field":"database""#].contains { String(decoding: health.body, as: UTF8.self).contains($0) })
        let upload = try await HTTP.upload(photo, base: server.baseURL, to: first)
        #expect(upload.status == 503, "\(String(decoding: upload.body, as: UTF8.self))")
        #expect(String(decoding: upload.body, as: UTF8.self).contains(#""code":"storage_unavailable""#))
        // Creates succeed while SQLite's log still has room, then are 503 — never 500.
        var creates: [Int] = []
        for _ in 0..<60 {
            let reply = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath,
                                            headers: [("Content-Type", "application/json")],
                                            body: .bytes(ByteBuffer(string: HTTP.announcementJSON)))
            creates.append(reply.status)
            if reply.status == 503 { break }
        }
        #expect(creates.last == 503, "\(creates)")
        #expect(creates.allSatisfy { $0 == 201 || $0 == 503 }, "\(creates)")
        // Reads still work: the list and the stored photo.
        #expect(try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.collectionPath).status == 200)

        // Room again: healthy, and writes work.
        unlink(filler)
        #expect(try await HTTP.health(server.baseURL, until: 200).status == 200)
        let second = try await HTTP.create(server.baseURL)
        #expect(try await HTTP.upload(photo, base: server.baseURL, to: second).status == 201)
        #expect(server.stop() == 0)
        #expect(!server.log.contains("request failed"), "\(server.log)")
    }
}

enum TmpfsPermission {
    /// Whether this process may mount a tmpfs (root with CAP_SYS_ADMIN).
    static let granted: Bool = {
        guard getuid() == 0, let probe = try? makeTemporaryDirectory("mount-probe") else { return false }
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard mount("tmpfs", probe, "tmpfs", 0, "size=1m") == 0 else { return false }
        umount(probe)
        return true
    }()
}
