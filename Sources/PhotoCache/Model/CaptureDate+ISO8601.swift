import PhotoPipeline

extension CaptureDate {
    /// Parses the form ``CaptureDate/iso8601`` writes: "2024-06-15T14:30:00" with an optional
    /// "+02:00" offset.
    init?(iso8601 text: String) {
        guard text.count >= 19 else { return nil }
        let offset = text.count > 19 ? String(text.dropFirst(19)) : nil
        self.init(exif: String(text.prefix(19)), offset: offset)
    }
}
