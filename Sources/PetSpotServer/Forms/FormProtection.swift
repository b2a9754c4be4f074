import Crypto
import Foundation
import Hummingbird

/// Protection of the site's forms against cross-site request forgery: a signed double-submit
/// token bound to the browser.
///
/// - The browser gets a random cookie (``cookieName``: 32 bytes, `HttpOnly`, `SameSite=Lax`, for
///   the session) the first time it is shown a form.
/// - Each form carries a token: `v<key version>.<unix time it was made>.<MAC>`, the MAC being
///   HMAC-SHA256 of the cookie and the time under a key derived (HKDF) from the server's password
///   key. Another site can neither read the cookie nor make a token for it; a subdomain that
///   plants a cookie cannot make the token that goes with it; any replica holding the password
///   keys checks it, and tokens of an older key version keep working after a rotation.
/// - ``verify(_:request:)`` checks a posted token against the browser's cookie. A post whose
///   token is missing or wrong is refused with 403 before anything is read past it (the token
///   is a form's first field, so a multipart body is refused before its file).
///
/// The time in the token is when the form was first shown, so a form sent back with problems
/// keeps its token (and its age) and the minimum fill time of ``BotCheck`` is counted once.
struct FormProtection: Sendable {
    static let cookieName = "petspot_form"
    /// The form field that carries the token.
    static let fieldName = "csrf_token"

    let keyring: PasswordKeyring
    /// Whether cookies are marked `Secure` (the site is served over HTTPS).
    var secureCookies: Bool

    /// A browser's cookie value: 32 random bytes, base64url without padding (43 characters).
    struct Browser: Sendable, Hashable {
        let value: String

        init?(_ value: String) {
            guard Base64URL.isToken(value) else { return nil }
            self.value = value
        }

        static func random() -> Browser {
            Browser(Base64URL.randomToken())!
        }

        /// SHA-256 of the cookie, hex: what the server stores to tie something to this browser
        /// (a pending photo), never the cookie itself.
        var digest: String { SHA256.hash(data: Data("petspot-browser-v1:\(value)".utf8)).hex }
    }

    /// A token for a form, and the cookie to set when the browser has none yet.
    struct Issued: Sendable {
        var token: String
        var browser: Browser
        /// `Set-Cookie` for a new browser cookie; `nil` when the request carried one.
        var cookie: Cookie?
    }

    /// The browser's cookie, when the request carries a well-formed one.
    func browser(of request: Request) -> Browser? {
        request.cookies[Self.cookieName].flatMap { Browser($0.value) }
    }

    /// A new token for a form shown now, bound to the browser's cookie (made when missing).
    func issue(for request: Request, now: Date) -> Issued {
        let existing = browser(of: request)
        let browser = existing ?? .random()
        let cookie = existing == nil ? Cookie(name: Self.cookieName, value: browser.value, path: "/",
                                              secure: secureCookies, httpOnly: true, sameSite: .lax) : nil
        return Issued(token: token(for: browser, issuedAt: Int(now.timeIntervalSince1970), key: keyring.writeKey),
                      browser: browser, cookie: cookie)
    }

    /// What ``verify(_:request:)`` found.
    enum Verdict: Sendable, Equatable {
        /// The token was made for this browser at `issuedAt`.
        case valid(browser: Browser, issuedAt: Date)
        /// The request carries no form cookie (cookies refused, or a forged post).
        case noCookie
        /// The token is missing, malformed, or not this browser's.
        case wrongToken
    }

    /// Checks a posted token against the request's cookie.
    func verify(_ token: String?, request: Request) -> Verdict {
        guard let browser = browser(of: request) else { return .noCookie }
        guard let token, token.utf8.count <= 128 else { return .wrongToken }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].hasPrefix("v"), let version = Int(parts[0].dropFirst()),
              let key = keyring.keys.first(where: { $0.version == version }),
              let issuedAt = Int(parts[1]), issuedAt > 0,
              let mac = Base64URL.decode(parts[2]) else { return .wrongToken }
        guard Self.signature.verify(mac, fields: [browser.value, String(issuedAt)], key: key) else { return .wrongToken }
        return .valid(browser: browser, issuedAt: Date(timeIntervalSince1970: TimeInterval(issuedAt)))
    }

    private func token(for browser: Browser, issuedAt: Int, key: PasswordKeyring.Key) -> String {
        "v\(key.version).\(issuedAt).\(Base64URL.encode(mac(browser: browser, issuedAt: issuedAt, key: key)))"
    }

    private static let signature = SignedFields(salt: "petspot-form-token", label: "petspot-form-v1")

    private func mac(browser: Browser, issuedAt: Int, key: PasswordKeyring.Key) -> [UInt8] {
        Self.signature.code([browser.value, String(issuedAt)], key: key)
    }
}
