/// The frame of every message: the site's name, the content, and a footer saying why the reader
/// gets it and, for mail they did not ask for right then, how to stop it. HTML for mail
/// programs: inline styles only (most drop style sheets), no scripts, no images but the
/// photos' thumbnails on our own server, one column at most 600 px wide; valid HTML5.
struct MailLayout {
    let template: any MailTemplate

    var text: String {
        var footer = "-- \n\(template.reason)"
        if let unsubscribe = template.unsubscribeURL { footer += "\nStop these emails: \(unsubscribe)" }
        return template.text.trimmingTrailingNewlines() + "\n\n" + footer + "\n"
    }

    var html: HTML {
        let stop: HTML = template.unsubscribeURL.map { url in
            " <a href=\"\(url)\" style=\"color:#505a5f\">Stop these emails</a>." as HTML
        } ?? .empty
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(template.subject)</title>
            </head>
            <body style="margin:0;padding:0;background:#f3f2f1;font-family:Arial,Helvetica,sans-serif;color:#0b0c0c">
            <div style="max-width:600px;margin:0 auto;background:#ffffff">
            <div style="background:#1d3557;color:#ffffff;padding:12px 20px;font-size:20px;font-weight:bold">PetSpot</div>
            <div style="padding:8px 20px 20px;font-size:16px;line-height:1.5">
            \(template.html)</div>
            <div style="padding:12px 20px 20px;font-size:13px;line-height:1.4;color:#505a5f;border-top:1px solid #b1b4b6">\(template.reason)\(stop)</div>
            </div>
            </body>
            </html>

            """
    }

    /// A link drawn as a button.
    static func button(_ label: String, href: String) -> HTML {
        """
        <p style="margin:20px 0"><a href="\(href)" style="display:inline-block;background:#00703c;color:#ffffff;padding:10px 16px;\
        text-decoration:none;font-weight:bold;border-radius:3px">\(label)</a></p>

        """
    }

    static let heading = "font-size:24px;line-height:1.25;margin:12px 0"
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
