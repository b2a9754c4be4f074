/// Quoted-printable (RFC 2045 §6.7) for the message's text and HTML parts: every line at most
/// 76 characters (soft breaks `=` at the end), `=`, bytes outside printable ASCII and a space or
/// tab at the end of a line as `=XX`, and a `.` starting a line too, so no relay's dot handling
/// can change the text. Line breaks in the input (LF or CRLF) become CRLF.
enum QuotedPrintable {
    static func encode(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + text.utf8.count / 8)
        let lines = text.replacingLineBreaks().split(separator: "\n", omittingEmptySubsequences: false)
        for (lineIndex, line) in lines.enumerated() {
            if lineIndex > 0 { out += [0x0D, 0x0A] }
            let bytes = Array(line.utf8)
            var lineLength = 0
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                let literal = (byte >= 0x21 && byte <= 0x7E && byte != 0x3D && !(byte == 0x2E && lineLength == 0))
                    || ((byte == 0x20 || byte == 0x09) && !isLast)
                let piece: [UInt8] = literal ? [byte] : escape(byte)
                // Room for the piece and, unless it ends the line, a soft break after it.
                let needed = piece.count + (isLast ? 0 : 1)
                if lineLength + needed > 76 {
                    out += [0x3D, 0x0D, 0x0A]
                    lineLength = 0
                    if byte == 0x2E {
                        out += escape(byte)
                        lineLength = 3
                        continue
                    }
                }
                out += piece
                lineLength += piece.count
            }
        }
        return out
    }

    private static let hex = Array("0123456789ABCDEF".utf8)

    private static func escape(_ byte: UInt8) -> [UInt8] {
        [0x3D, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
    }
}

extension String {
    /// CRLF and lone CR as LF.
    func replacingLineBreaks() -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        var previousCR = false
        for scalar in unicodeScalars {
            if scalar == "\r" {
                out.unicodeScalars.append("\n")
                previousCR = true
                continue
            }
            if scalar == "\n", previousCR {
                previousCR = false
                continue
            }
            previousCR = false
            out.unicodeScalars.append(scalar)
        }
        return out
    }
}
