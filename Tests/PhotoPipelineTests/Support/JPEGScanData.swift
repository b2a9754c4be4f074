@testable import PhotoPipeline

enum JPEGScanData {
    /// Restart markers in a JPEG's scan data: after the segments ``JPEGMarkerWalk`` reads up to
    /// the scan (which may hold any bytes: an ICC profile's curves, a table).
    static func restartMarkers(_ jpeg: [UInt8]) -> Int {
        guard case .scan(let scan)? = try? JPEGMarkerWalk.walk(jpeg, mode: .tolerant) else { return 0 }
        return (scan.body.upperBound..<(jpeg.count - 1)).count { jpeg[$0] == 0xFF && (0xD0...0xD7).contains(jpeg[$0 + 1]) }
    }
}
