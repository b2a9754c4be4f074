import HummingbirdBcrypt
import NIOPosix

/// Management passwords: made from the system's CSPRNG, stored only as a bcrypt hash (salted,
/// deliberately slow), verified by bcrypt's constant-time comparison. Hashing runs on NIO's
/// thread pool so it never blocks the tasks that serve requests.
public struct PasswordHasher: Sendable {
    /// bcrypt's cost (log2 rounds): 10 takes ~50–100 ms here, so an offline guess at all
    /// million six-digit passwords costs about a core-day per leaked row.
    public var cost: UInt8

    public init(cost: UInt8 = 10) {
        self.cost = cost
    }

    /// The hash to store for `password`.
    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash`.
    public func verify(_ password: String, against hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
