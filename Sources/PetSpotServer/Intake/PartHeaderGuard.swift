/// Checks a multipart body's part headers before multipart-kit sees them: how many parts, how many
/// header lines and bytes each part has, and that header *names* are ASCII. What multipart-kit
/// would otherwise buffer without a bound (every header of a part, kept until the part's body
/// starts; a 19 MB body of three million tiny headers took 97 MB) is refused with the chunk that
/// passes a limit, so the parser never holds more than the limits allow.
///
/// The names: multipart-kit 4.7.1 looks each header-name byte up in a 128-entry table and traps on
/// larger bytes (`MultipartParser.swift`, `isAllowedHeaderFieldNameCharacter`): one such byte in
/// an upload would crash the whole server. Found by the `multipart` fuzzer; guarded here rather
/// than patched there. Such a name is never valid (RFC 9110 field names are ASCII tokens).
///
/// Deliberately wider than the parser: every occurrence of `--boundary`, wherever it is, is taken
/// to start part headers, which end at the next empty line; within them, the bytes of a line up to
/// its first `:` are a name. So every byte multipart-kit could read as a header is checked.
/// (A photo whose bytes contained `--boundary` followed by such a byte, or by more than the header
/// limit before a blank line, would be refused too; the client's random 30-character boundaries
/// make that practically impossible.)
struct PartHeaderGuard {
    /// Why a body was refused.
    enum Refusal: Equatable {
        case nonASCIIName
        case tooManyParts(limit: Int)
        case headerTooLarge(limit: Int)
        case tooManyHeaders(limit: Int)
    }

    /// Parts in a body (the delimiter that closes the last counts as one): the photo and a few fields.
    static let maxParts = 16
    /// Bytes of one part's header block: a Content-Disposition with a long file name and a type fit many times.
    static let maxHeaderBytes = 8 * 1024
    /// Header lines of one part (RFC 7578 uses Content-Disposition, Content-Type and rarely one more).
    static let maxHeaderLines = 16

    private let maxParts: Int
    private let maxHeaderBytes: Int
    private let delimiter: [UInt8]
    /// Knuth–Morris–Pratt failure table of `delimiter`, so a match is found wherever it starts.
    private let failure: [Int]
    private var matched = 0
    private var inHeaders = false
    private var inName = false
    /// How much of "\r\n\r\n" (the end of the headers) was just seen.
    private var blankLine = 0
    private var parts = 0
    private var headerBytes = 0
    private var headerLines = 0

    /// A form of ours has more fields than a photo upload has parts, and fewer header bytes per
    /// part: a caller that knows its body passes its own `maxParts` and `maxHeaderBytes`.
    init(boundary: String, maxParts: Int = Self.maxParts, maxHeaderBytes: Int = Self.maxHeaderBytes) {
        self.maxParts = maxParts
        self.maxHeaderBytes = maxHeaderBytes
        delimiter = Array("--\(boundary)".utf8)
        var failure = [Int](repeating: 0, count: delimiter.count)
        var k = 0
        for i in 1..<max(1, delimiter.count) {
            while k > 0 && delimiter[i] != delimiter[k] { k = failure[k - 1] }
            if delimiter[i] == delimiter[k] { k += 1 }
            failure[i] = k
        }
        self.failure = failure
    }

    /// Checks the next bytes of the body.
    /// - Returns: why the body is refused, or `nil` while it is within the limits.
    mutating func accept(_ bytes: UnsafeRawBufferPointer) -> Refusal? {
        for byte in bytes {
            if inHeaders {
                if inName && byte >= 0x80 { return .nonASCIIName }
                headerBytes += 1
                if headerBytes > maxHeaderBytes { return .headerTooLarge(limit: maxHeaderBytes) }
                if byte == UInt8(ascii: ":") { inName = false }
                if byte == UInt8(ascii: "\n") {
                    inName = true
                    headerLines += 1
                    // The line ending the delimiter and the blank line end are not headers.
                    if headerLines > Self.maxHeaderLines + 2 { return .tooManyHeaders(limit: Self.maxHeaderLines) }
                }
                blankLine = byte == [UInt8(ascii: "\r"), UInt8(ascii: "\n")][blankLine % 2] ? blankLine + 1 : (byte == UInt8(ascii: "\r") ? 1 : 0)
                if blankLine == 4 { inHeaders = false; blankLine = 0 }
            }
            while matched > 0 && byte != delimiter[matched] { matched = failure[matched - 1] }
            if byte == delimiter[matched] { matched += 1 }
            if matched == delimiter.count {
                matched = failure[matched - 1]
                parts += 1
                if parts > maxParts + 1 { return .tooManyParts(limit: maxParts) }
                inHeaders = true
                inName = true
                blankLine = 0
                headerBytes = 0
                headerLines = 0
            }
        }
        return nil
    }
}
