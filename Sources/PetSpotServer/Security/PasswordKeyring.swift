import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Management passwords, checked with a key the database does not hold.
///
/// A password is six digits: a million candidates, which no slow hash protects once a row leaks
/// (bcrypt at cost 10 falls to a GPU in minutes). What protects it is the online throttle and a
/// key outside the database: a row stores `HMAC-SHA256(key, id ‖ password)` with the key's
/// version, checked in constant time in microseconds, and a copy of the database alone cannot
/// test a single guess.
///
/// Stored forms (the `password_hash` column):
/// - `hmac-sha256$v<N>$<base64>`: the fast form, under key N.
/// - `bcrypt-sealed$v<N>$<base64>`: a bcrypt hash written by an earlier server, sealed
///   (AES-GCM) under key N at start. Checking opens it and runs bcrypt; a success re-stores the
///   row in the fast form. (Sealing, not `HMAC(key, bcrypt hash)`: the bcrypt library offers no
///   hash-with-this-salt call to recompute it, and a sealed hash is as untestable without the key.)
/// - `$2…`: a bare bcrypt hash, until the start-up sweep seals it; a check never accepts one
///   (a server no longer writes them, so one met later was planted).
public struct PasswordKeyring: Sendable {
    public struct Key: Sendable {
        public let version: Int
        /// Kept as bytes (`SymmetricKey` is not `Sendable`); a key is made from them per use.
        private let bytes: [UInt8]
        var key: SymmetricKey { SymmetricKey(data: bytes) }

        /// The key itself, for the package's own tests.
        package var symmetricKey: SymmetricKey { key }

        /// The key in base64, as configured, for the package's own tests.
        package var base64: String { Data(bytes).base64EncodedString() }

        public init(version: Int, bytes: [UInt8]) {
            self.version = version
            self.bytes = bytes
        }
    }

    /// Oldest first.
    public let keys: [Key]

    /// The key new rows are written with: the highest version unless told otherwise (a rotation
    /// first gives every replica the new key while still writing with the old one).
    public let writeKey: Key

    public init(keys: [Key], writing version: Int? = nil) throws(KeyringError) {
        guard !keys.isEmpty else { throw .invalid("no key given") }
        let versions = keys.map(\.version)
        guard Set(versions).count == versions.count else { throw .invalid("two keys have the same version") }
        self.keys = keys.sorted { $0.version < $1.version }
        if let version {
            guard let chosen = self.keys.first(where: { $0.version == version }) else {
                throw .invalid("the version to write with, v\(version), is not among the keys given")
            }
            writeKey = chosen
        } else {
            writeKey = self.keys[self.keys.count - 1]
        }
    }

    /// What a check found.
    public enum Verdict: Sendable, Equatable {
        /// The password is right; `restore` is the row's new stored form when it should be
        /// rewritten (an older key, or a sealed bcrypt hash), `nil` when it is current.
        case match(restore: String?)
        case mismatch
    }

    /// What a key derived from the write key is for; each purpose gets its own.
    enum Purpose: String {
        /// Entity tags of flyers and share cards.
        case shareValidators = "petspot-share-validators-v1"
    }

    /// A key for `purpose` derived from the write key (HMAC of the purpose's label): replicas given
    /// the same keys derive the same one, and it opens or checks nothing of the passwords'.
    func derivedKey(for purpose: Purpose) -> SymmetricKey {
        SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(purpose.rawValue.utf8), using: writeKey.key)))
    }

    /// The stored form of `password` for announcement `id`, under the write key.
    public func seal(id: String, password: String) -> String {
        "hmac-sha256$v\(writeKey.version)$" + Data(mac(id: id, password: password, key: writeKey)).base64EncodedString()
    }

    /// A bare bcrypt hash sealed under the write key, bound to its announcement's id (a sealed
    /// hash copied to another row opens nothing), or `nil` when `stored` is not one.
    public func sealBcrypt(id: String, _ stored: String) -> String? {
        guard stored.hasPrefix("$2"),
              let box = try? AES.GCM.seal(Data(stored.utf8), using: writeKey.key, authenticating: Self.bcryptLabel + Data(id.utf8)),
              let combined = box.combined else { return nil }
        return "bcrypt-sealed$v\(writeKey.version)$" + combined.base64EncodedString()
    }

    /// Checks `password` for announcement `id` against its stored form. A form this keyring
    /// cannot read (an unknown key version, a damaged row) is a mismatch: never a way in.
    public func verify(id: String, password: String, stored: String) async -> Verdict {
        // A bare bcrypt hash is sealed at start; one found later was not written by a server
        // (planted in the database): never a way in.
        let parts = stored.split(separator: "$", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].hasPrefix("v"), let version = Int(parts[1].dropFirst()),
              let key = keys.first(where: { $0.version == version }), let payload = Data(base64Encoded: String(parts[2])) else {
            return .mismatch
        }
        switch parts[0] {
        case "hmac-sha256":
            let expected = mac(id: id, password: password, key: key)
            guard ConstantTime.equal(expected, [UInt8](payload)) else { return .mismatch }
            return .match(restore: version == writeKey.version ? nil : seal(id: id, password: password))
        case "bcrypt-sealed":
            guard let box = try? AES.GCM.SealedBox(combined: payload),
                  let opened = try? AES.GCM.open(box, using: key.key, authenticating: Self.bcryptLabel + Data(id.utf8)) else { return .mismatch }
            let hash = String(decoding: opened, as: UTF8.self)
            let right = (try? await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }) ?? false
            return right ? .match(restore: seal(id: id, password: password)) : .mismatch
        default:
            return .mismatch
        }
    }

    private func mac(id: String, password: String, key: Key) -> [UInt8] {
        // Length-prefixed fields, so that no two (id, password) pairs share an input.
        var input = Data("petspot-password-v1".utf8)
        for field in [id, password] {
            let bytes = Data(field.utf8)
            withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { input.append(contentsOf: $0) }
            input.append(bytes)
        }
        return [UInt8](HMAC<SHA256>.authenticationCode(for: input, using: key.key))
    }

    private static let bcryptLabel = Data("petspot-bcrypt-sealed-v1".utf8)

    // MARK: where keys come from

    /// `v1:BASE64[,v2:BASE64…]` (or one per line): each key 32 random bytes in base64, with its
    /// version. What `PETSPOT_PASSWORD_KEY`, `--password-key-file` and the data directory's
    /// `password-keys` file hold.
    public static func parse(_ text: String, writing version: Int? = nil) throws(KeyringError) -> PasswordKeyring {
        var keys: [Key] = []
        let lines = text.split(whereSeparator: \.isNewline).filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
        for entry in lines.flatMap({ $0.split(separator: ",") }) {
            let trimmed = entry.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            let halves = trimmed.split(separator: ":", maxSplits: 1)
            guard halves.count == 2, halves[0].hasPrefix("v"), let version = Int(halves[0].dropFirst()), (1...65535).contains(version) else {
                throw .invalid("each key is written vN:BASE64 (e.g. v1:\(String(repeating: "A", count: 43))=)")
            }
            guard let bytes = Data(base64Encoded: String(halves[1])), bytes.count >= 32 else {
                throw .invalid("key v\(version) is not 32 or more bytes in base64")
            }
            keys.append(Key(version: version, bytes: [UInt8](bytes)))
        }
        return try PasswordKeyring(keys: keys, writing: version)
    }

    /// A new key line, `v<version>:BASE64` of 32 random bytes.
    public static func newKeyLine(version: Int = 1) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return "v\(version):" + Data(bytes).base64EncodedString()
    }

    /// The embedded installation's keys, `password-keys` in the data directory: read, or made
    /// with one new key the first time (mode 0600, written whole and renamed into place). The
    /// caller holds the data directory's lock.
    public static func embedded(at path: String) throws(KeyringError) -> PasswordKeyring {
        var status = stat()
        if lstat(path, &status) == 0 {
            // There: read it, never replace it (rows depend on it).
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw .invalid("\(path) exists but cannot be read as text; restore it from a backup (the stored passwords need it)")
            }
            return try parse(text)
        }
        guard errno == ENOENT else { throw .invalid("\(path) cannot be examined: \(String(cString: strerror(errno)))") }
        let text = "# petspot-server's password keys: keep this file with the database, never in it.\n" + newKeyLine() + "\n"
        let temporary = path + ".new"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .invalid("\(temporary) cannot be created: \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd)
        close(fd)
        // link() fails rather than replace a file that appeared meanwhile.
        guard written == bytes.count, synced == 0, link(temporary, path) == 0 else {
            unlink(temporary)
            throw .invalid("\(path) cannot be written: \(String(cString: strerror(errno)))")
        }
        unlink(temporary)
        let folder = (path as NSString).deletingLastPathComponent
        let folderFD = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 { fsync(folderFD); close(folderFD) }
        return try parse(text)
    }

    public enum KeyringError: Error, CustomStringConvertible, Equatable {
        case invalid(String)

        public var description: String {
            switch self {
            case .invalid(let reason): "The password key is not usable: \(reason)."
            }
        }
    }
}
