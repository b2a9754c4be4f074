internal import CCurl
import Foundation

/// One libcurl easy handle speaking SMTP to the relay, used by one thread at a time (the
/// transport's). The handle keeps its connection between messages (libcurl sends the next
/// `MAIL FROM` on it), and opens a new one when the last is older than 30 s idle or broken.
///
/// libcurl's SMTP: https://curl.se/libcurl/c/smtp-tls.html — STARTTLS with `CURLOPT_USE_SSL`,
/// the envelope in `CURLOPT_MAIL_FROM`/`CURLOPT_MAIL_RCPT`, the message through the read
/// callback (libcurl escapes a leading dot), the relay's last reply code in
/// `CURLINFO_RESPONSE_CODE`.
final class CurlSMTPSession {
    private let relay: SMTPRelay
    private let handle: UnsafeMutableRawPointer
    private let errorText: UnsafeMutablePointer<CChar>

    /// libcurl's process-wide set-up, once, before the first handle.
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// - Parameter heloDomain: the name given in `EHLO` (the sender's domain).
    init(relay: SMTPRelay, heloDomain: String) throws(MailError) {
        guard Self.globalInit == CURLE_OK else { throw .transport("libcurl could not be initialised") }
        guard let handle = curl_easy_init() else { throw .transport("libcurl could not make a handle") }
        self.relay = relay
        self.handle = handle
        errorText = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        let scheme = relay.security == .implicitTLS ? "smtps" : "smtp"
        let host = relay.host.contains(":") ? "[\(relay.host)]" : relay.host
        let helo = heloDomain.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "-") }
            ? heloDomain : "localhost"
        var problems: [CURLcode] = [
            petspot_curl_set_string(handle, CURLOPT_URL, "\(scheme)://\(host):\(relay.port)/\(helo)"),
            petspot_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps"),
            petspot_curl_set_long(handle, CURLOPT_NOSIGNAL, 1),
            petspot_curl_set_long(handle, CURLOPT_USE_SSL, Int(relay.security == .none ? CURLUSESSL_NONE.rawValue : CURLUSESSL_ALL.rawValue)),
            petspot_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
            petspot_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
            petspot_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, 10_000),
            petspot_curl_set_long(handle, CURLOPT_SERVER_RESPONSE_TIMEOUT, 30),
            petspot_curl_set_long(handle, CURLOPT_TIMEOUT_MS, 60_000),
            petspot_curl_set_long(handle, CURLOPT_MAXAGE_CONN, 30),
            petspot_curl_set_long(handle, CURLOPT_UPLOAD, 1),
            petspot_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorText)),
            petspot_curl_set_read_function(handle, Self.readCallback),
        ]
        if let caFile = relay.caFile { problems.append(petspot_curl_set_string(handle, CURLOPT_CAINFO, caFile)) }
        if let user = relay.username { problems.append(petspot_curl_set_string(handle, CURLOPT_USERNAME, user)) }
        if let password = relay.password { problems.append(petspot_curl_set_string(handle, CURLOPT_PASSWORD, password)) }
        if let failed = problems.first(where: { $0 != CURLE_OK }) {
            let reason = String(cString: curl_easy_strerror(failed))
            curl_easy_cleanup(handle)
            errorText.deallocate()
            throw .transport("libcurl refused a setting: \(reason)")
        }
    }

    deinit {
        curl_easy_cleanup(handle)
        errorText.deallocate()
    }

    /// Sends `message` (RFC 5322 bytes) from `sender` to `recipient`; blocks until the relay has
    /// answered, the connection failed, or 60 s passed.
    func send(_ message: [UInt8], from sender: MailAddress, to recipient: MailAddress) -> DeliveryOutcome {
        let cursor = UploadCursor(message)
        let unmanaged = Unmanaged.passRetained(cursor)
        defer { unmanaged.release() }
        guard let recipients = curl_slist_append(nil, "<\(recipient.address)>") else { return .deferred("out of memory") }
        defer { curl_slist_free_all(recipients) }
        errorText[0] = 0
        let setup = [
            petspot_curl_set_string(handle, CURLOPT_MAIL_FROM, "<\(sender.address)>"),
            petspot_curl_set_list(handle, CURLOPT_MAIL_RCPT, recipients),
            petspot_curl_set_pointer(handle, CURLOPT_READDATA, unmanaged.toOpaque()),
        ]
        if let failed = setup.first(where: { $0 != CURLE_OK }) {
            return .deferred("libcurl refused the envelope: \(String(cString: curl_easy_strerror(failed)))")
        }
        let result = curl_easy_perform(handle)
        // The envelope's list is freed when this returns: the handle must not keep it.
        _ = petspot_curl_set_list(handle, CURLOPT_MAIL_RCPT, nil)
        var reply = 0
        _ = petspot_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &reply)
        if result == CURLE_OK { return .accepted }
        let detail = relay.redacted(String(cString: errorText).isEmpty ? String(cString: curl_easy_strerror(result)) : String(cString: errorText))
        let said = reply > 0 ? "the relay answered \(reply) (\(detail))" : detail
        return Self.isRefusalOfTheMessage(result, reply: reply) ? .rejected(said) : .deferred(said)
    }

    /// A 5xx about the message itself (its sender, recipient or content) is final; a 5xx while
    /// connecting or logging in is the operator's to fix and the mail waits for it.
    static func isRefusalOfTheMessage(_ result: CURLcode, reply: Int) -> Bool {
        guard (500..<600).contains(reply) else { return false }
        let connecting: [CURLcode] = [CURLE_LOGIN_DENIED, CURLE_USE_SSL_FAILED, CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST,
                                      CURLE_OPERATION_TIMEDOUT, CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION,
                                      CURLE_AUTH_ERROR]
        return !connecting.contains(result)
    }

    /// Hands libcurl the message in pieces as it asks.
    private static let readCallback: curl_read_callback = { buffer, size, count, userdata in
        guard let buffer, let userdata else { return 0 }
        let cursor = Unmanaged<UploadCursor>.fromOpaque(userdata).takeUnretainedValue()
        return cursor.copy(into: buffer, capacity: size * count)
    }
}

/// The message's bytes and how far libcurl has read them.
private final class UploadCursor {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func copy(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let count = min(capacity, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBufferPointer { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
