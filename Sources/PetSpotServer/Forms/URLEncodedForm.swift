/// `application/x-www-form-urlencoded` as browsers write it (the WHATWG URL standard's
/// serializer): `name=value` pairs joined by `&`, spaces as `+`, everything else not
/// alphanumeric as `%XX` bytes of UTF-8.
enum URLEncodedForm {
    /// The pairs of `body`, in order. A `%` not followed by two hex digits is kept as it is, as
    /// the standard's parser does; empty pieces (`a=1&&b=2`) are skipped.
    static func parse(_ body: some Collection<UInt8>) -> FormFields {
        var fields = FormFields()
        for piece in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = piece.firstIndex(of: UInt8(ascii: "="))
            let name = equals.map { piece[piece.startIndex..<$0] } ?? piece[...]
            let value = equals.map { piece[piece.index(after: $0)...] } ?? piece[piece.endIndex...]
            fields.append(decode(name), decode(value))
        }
        return fields
    }

    /// Percent-decodes one name or value, `+` as a space.
    static func decode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"),
                      let first = bytes.index(index, offsetBy: 1, limitedBy: bytes.endIndex), first != bytes.endIndex,
                      let second = bytes.index(first, offsetBy: 1, limitedBy: bytes.endIndex), second != bytes.endIndex,
                      let high = hexValue(bytes[first]), let low = hexValue(bytes[second]) {
                out.append(high << 4 | low)
                index = second
            } else {
                out.append(byte)
            }
            index = bytes.index(after: index)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `pairs` written as a body (for tests and redirects that carry a form).
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(component($0.0))=\(component($0.1))" }.joined(separator: "&")
    }

    private static func component(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "): out += "+"
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded2
            }
        }
        return out
    }
}

private extension String {
    var leftPadded2: String { count < 2 ? "0" + self : self }
}
