extension ImageInfo {
    /// Settles what the output carries of the photo's colour profile (``ICCColourProfile``):
    /// nothing for sRGB, its colour alone as a compact profile, or nothing, with the pixels to be
    /// converted to sRGB from the profile returned (the reason noted in ``droppedICCProfile``).
    /// - Returns: the profile to convert the pixels from, or `nil` when they stay as they are.
    mutating func settleColourProfile() -> [UInt8]? {
        guard let profile = iccProfile else { return nil }
        switch ICCColourProfile.examine(profile) {
        case .sRGB:
            iccProfile = nil
            return nil
        case .compact(let compact):
            iccProfile = compact
            return nil
        case .convert(let reason):
            iccProfile = nil
            // A profile Little CMS cannot read either describes nothing the pixels can be converted from.
            guard ColourConversion.canRead(profile) else {
                droppedICCProfile = ICCProfileDrop(byteCount: profile.count, reason: "\(reason), and it cannot be read to convert from")
                return nil
            }
            droppedICCProfile = ICCProfileDrop(byteCount: profile.count, reason: "\(reason), so the photo was converted to sRGB")
            return profile
        }
    }
}
