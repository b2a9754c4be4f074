extension ServerServices {
    /// The CSRF protection of the site's forms, keyed by the password keys (see ``FormProtection``);
    /// cookies are `Secure` when the public URL is HTTPS.
    var forms: FormProtection {
        FormProtection(keyring: keyring, secureCookies: publicURL.current.lowercased().hasPrefix("https://"))
    }
}
