import PetSpot

/// The command-line flag that fills each form field, so messages can say how to fix a problem.
enum ReportFlag {
    /// `--chip`, `--photo`, `--species`, … for `field`.
    static func name(of field: FormField) -> String {
        switch field {
        case .microchipNumber: "--chip"
        case .petName: "--name"
        case .photo: "--photo"
        case .species: "--species"
        case .breed: "--breed"
        case .gender: "--sex"
        case .age: "--age"
        case .lastSeenDate: "--date"
        case .latitude: "--lat"
        case .longitude: "--lon"
        case .description: "--description"
        case .phone: "--phone"
        case .email: "--email"
        case .reward: "--reward"
        case .caregiverPhone: "--caregiver-phone"
        case .foundAddress: "--address"
        }
    }
}
