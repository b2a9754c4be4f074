extension FormRules {
    /// A photo is mandatory (found flow).
    public static func requiredPhoto(_ photo: PhotoReference?) -> ValidationIssue? {
        photo == nil ? ValidationIssue(field: .photo, message: ValidationMessage.photoRequired) : nil
    }
}
