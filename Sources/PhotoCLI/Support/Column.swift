/// Text laid out in columns for the terminal.
package enum Column {
    /// `text` padded with spaces to `width` characters, or cut to it (Foundation's
    /// `padding(toLength:withPad:startingAt:)` with a space).
    package static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }
}
