/// Refuses a multipart body whose part header *names* contain a byte ≥ 0x80, before multipart-kit
/// sees it.
///
/// multipart-kit 4.7.1 looks each header-name byte up in a 128-entry table and traps on larger
/// bytes (`MultipartParser.swift`, `isAllowedHeaderFieldNameCharacter`): one such byte in an
/// upload would crash the whole server. Found by the `multipart` fuzzer; guarded here rather than
/// patched there. Such a name is never valid (RFC 9110 field names are ASCII tokens).
///
/// Deliberately wider than the parser: every occurrence of `--boundary`, wherever it is, is taken
/// to start part headers, which end at the next empty line; within them, the bytes of a line up to
/// its first `:` are a name. So every byte multipart-kit could read as a header name is checked.
/// (A photo whose bytes contained `--boundary` followed by such a byte before a blank line would be
/// refused too; the client's random 30-character boundaries make that practically impossible.)
struct PartHeaderNameGuard {
    private let delimiter: [UInt8]
    /// Knuth–Morris–Pratt failure table of `delimiter`, so a match is found wherever it starts.
    private let failure: [Int]
    private var matched = 0
    private var inHeaders = false
    private var inName = false
    /// How much of "\r\n\r\n" (the end of the headers) was just seen.
    private var blankLine = 0

    init(boundary: String) {
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
    /// - Returns: `false` when a part header name holds a byte ≥ 0x80.
    mutating func accept(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes {
            if inHeaders {
                if inName && byte >= 0x80 { return false }
                if byte == UInt8(ascii: ":") { inName = false }
                if byte == UInt8(ascii: "\n") { inName = true }
                blankLine = byte == [UInt8(ascii: "\r"), UInt8(ascii: "\n")][blankLine % 2] ? blankLine + 1 : (byte == UInt8(ascii: "\r") ? 1 : 0)
                if blankLine == 4 { inHeaders = false; blankLine = 0 }
            }
            while matched > 0 && byte != delimiter[matched] { matched = failure[matched - 1] }
            if byte == delimiter[matched] { matched += 1 }
            if matched == delimiter.count {
                matched = failure[matched - 1]
                inHeaders = true
                inName = true
                blankLine = 0
            }
        }
        return true
    }
}
