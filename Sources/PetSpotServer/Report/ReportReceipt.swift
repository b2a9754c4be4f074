import Crypto
import Foundation
import Hummingbird
import PetSpot

/// How the management password reaches the confirmation page without ever being in a URL, a log
/// or a cache: the answer to the form's post sets a short-lived cookie, scoped to the
/// confirmation pages, holding the id and password sealed (AES-GCM) under a key derived from the
/// server's password key and bound to the browser's form cookie; the confirmation opens it, shows
/// the password, and deletes it, so a reload no longer shows it. Any replica opens it.
struct ReportReceipt: Codable, Sendable, Equatable {
    var id: String
    var password: String
    /// The form was sent again after it had created the announcement, with other values, which
    /// were not saved.
    var changedSince: Bool
    /// Seconds since 1970 after which it is not opened.
    var expires: Double

    static let cookieName = "petspot_receipt"
    /// How long the confirmation may take to be asked for.
    static let lifetime = 15 * 60

    /// The cookie that carries the receipt to `/report/sent/{id}` (or to the page at `path`).
    func cookie(for browser: FormProtection.Browser, keyring: PasswordKeyring, secure: Bool,
                path: String = ReportPaths.sentPrefix) throws -> Cookie {
        let plain = try JSONEncoder().encode(self)
        let key = keyring.writeKey
        guard let box = try AES.GCM.seal(plain, using: Self.key(key), authenticating: Self.label(browser)).combined else {
            throw CryptoKitError.incorrectParameterSize
        }
        return Cookie(name: Self.cookieName, value: "v\(key.version).\(Base64URL.encode(box))", maxAge: Self.lifetime,
                      path: path, secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The receipt the request carries for `browser`, if it opens and has not expired.
    static func open(_ request: Request, browser: FormProtection.Browser?, keyring: PasswordKeyring, now: Date) -> ReportReceipt? {
        guard let browser, let value = request.cookies[cookieName]?.value, value.utf8.count < 1024 else { return nil }
        let parts = value.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, parts[0].hasPrefix("v"), let version = Int(parts[0].dropFirst()),
              let key = keyring.keys.first(where: { $0.version == version }), let bytes = Base64URL.decode(parts[1]),
              let box = try? AES.GCM.SealedBox(combined: bytes),
              let plain = try? AES.GCM.open(box, using: Self.key(key), authenticating: label(browser)),
              let receipt = try? JSONDecoder().decode(ReportReceipt.self, from: plain),
              receipt.expires > now.timeIntervalSince1970 else { return nil }
        return receipt
    }

    /// The `Set-Cookie` that deletes the receipt.
    static func deletion(secure: Bool, path: String = ReportPaths.sentPrefix) -> Cookie {
        Cookie(name: cookieName, value: "", maxAge: 0, path: path, secure: secure, httpOnly: true, sameSite: .strict)
    }

    private static func key(_ key: PasswordKeyring.Key) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key.key, salt: Data("petspot-report-receipt".utf8), info: Data("v1".utf8),
                               outputByteCount: 32)
    }

    private static func label(_ browser: FormProtection.Browser) -> Data {
        Data("petspot-report-receipt-v1:\(browser.value)".utf8)
    }
}
