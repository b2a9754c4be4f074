/// A position in decimal degrees (WGS 84), as read from EXIF GPS tags.
public struct GPSCoordinate: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// When the photo was taken, as the camera wrote it (EXIF DateTimeOriginal), which has no
/// time zone unless the camera also wrote OffsetTimeOriginal.
public struct CaptureDate: Sendable, Hashable, Codable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int
    public var hour: Int, minute: Int, second: Int
    /// "+02:00" style offset, when the camera recorded one.
    public var utcOffset: String?

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, utcOffset: String? = nil) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
        self.utcOffset = utcOffset
    }

    /// Parses EXIF's "YYYY:MM:DD HH:MM:SS"; `nil` for blank or impossible values ("0000:00:00", "1999:99:99").
    public init?(exif text: String, offset: String? = nil) {
        let digits = text.trimming { $0 == " " || $0 == "\0" }
        let parts = digits.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "-" || $0 == "T" }).compactMap { Int($0) }
        guard parts.count >= 5 else { return nil }
        let second = parts.count >= 6 ? parts[5] : 0
        guard (1800...9999).contains(parts[0]), (1...12).contains(parts[1]), (1...31).contains(parts[2]),
              (0...23).contains(parts[3]), (0...59).contains(parts[4]), (0...60).contains(second) else { return nil }
        let validOffset = offset.flatMap { raw -> String? in
            let o = raw.trimming { $0 == " " || $0 == "\0" }
            return o.count == 6 && (o.hasPrefix("+") || o.hasPrefix("-")) ? o : nil
        }
        self.init(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4],
                  second: second, utcOffset: validOffset)
    }

    /// ISO 8601, e.g. "2024-06-15T14:30:00+02:00" (no offset when the camera gave none).
    public var iso8601: String {
        func pad(_ v: Int, _ n: Int = 2) -> String { String(repeating: "0", count: max(0, n - String(v).count)) + String(v) }
        return "\(pad(year, 4))-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second))\(utcOffset ?? "")"
    }

    /// The EXIF form, "YYYY:MM:DD HH:MM:SS".
    public var exifString: String {
        String(iso8601.prefix(19).map { $0 == "-" ? ":" : $0 == "T" ? " " : $0 })
    }

    public var description: String { iso8601 }
}

/// What the EXIF block says that the pipeline uses.
public struct ExifMetadata: Sendable, Hashable {
    /// The raw Orientation tag value (may be outside 1…8).
    public var orientationTag: Int?
    public var gps: GPSCoordinate?
    public var capturedAt: CaptureDate?

    public init(orientationTag: Int? = nil, gps: GPSCoordinate? = nil, capturedAt: CaptureDate? = nil) {
        self.orientationTag = orientationTag
        self.gps = gps
        self.capturedAt = capturedAt
    }
}
