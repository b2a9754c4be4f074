import Crypto

/// The style sheet of the site's forms, served beside `site.css` at `/static/form.<hash>.css` (only
/// the pages with a form load it), cacheable for ever like it.
///
/// After the GOV.UK Design System's form styles: labels and legends bold above their inputs,
/// 44 px touch targets, a thick focus ring, problems in #b3261e (6.6:1 on white) with a bar
/// beside the question, and the error summary in a red frame. The honeypot (`.hp`) is
/// `display: none`: no one sees or reaches it, assistive technology included. The manage pages
/// add a caption above the heading, a green banner saying what was just done, and a red button
/// for what cannot be undone.
enum FormStyle {
    static let css = """
    .form-page{max-width:40rem}
    .form-page h1{font-size:1.75rem}
    .lede{font-size:1.125rem;margin:0 0 24px}
    .form-section{border-top:1px solid #b1b4b6;padding-top:16px;margin-bottom:8px}
    .form-section h2{font-size:1.25rem;margin:0 0 16px}
    .field{margin:0 0 24px;padding:0;border:0;min-width:0}
    .field.has-error{border-left:5px solid #b3261e;padding-left:12px}
    .field label,.field legend{display:block;font-weight:700;margin:0 0 4px;padding:0}
    .field .radio label{font-weight:400;margin:0;padding:8px 0;flex:1}
    .optional{font-weight:400}
    .hint{color:#505a5f;margin:0 0 8px}
    .error-message{color:#b3261e;font-weight:700;margin:0 0 8px}
    .field input[type=text],.field input[type=tel],.field input[type=email],.field input[type=date],.field input[type=password],.field textarea{font:inherit;display:block;width:100%;max-width:30em;min-height:44px;padding:6px 8px;border:2px solid #0b0c0c;border-radius:0;background:#fff;color:#0b0c0c}
    .field input.short{max-width:12em}
    .field textarea{min-height:6em;resize:vertical}
    .field.has-error input,.field.has-error textarea{border-color:#b3261e}
    .field input:focus,.field textarea:focus{outline:3px solid #ffbf47;outline-offset:0;box-shadow:inset 0 0 0 2px #0b0c0c}
    .field input[type=file]{font:inherit;max-width:100%;padding:4px 0}
    .radios{display:grid;grid-template-columns:repeat(auto-fill,minmax(9.5em,1fr));gap:0 16px}
    .radio{display:flex;align-items:center;gap:10px;min-height:44px}
    .radio input{width:24px;height:24px;margin:0;flex:none}
    .radio input:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}
    .error-summary{border:5px solid #b3261e;padding:16px 20px;margin:0 0 32px}
    .error-summary:focus{outline:3px solid #ffbf47;outline-offset:0}
    .error-summary h2{font-size:1.25rem;margin:0 0 12px}
    .error-summary ul{margin:0;padding-left:20px}
    .error-summary li{margin:0 0 6px}
    .error-summary a{color:#b3261e;font-weight:700}
    .error-summary a:focus{outline:3px solid #ffbf47;background:#ffbf47;color:#0b0c0c}
    .button{font:inherit;font-weight:700;display:inline-block;min-height:44px;padding:10px 20px;border:0;border-radius:0;background:#00703c;color:#fff;box-shadow:0 2px 0 #002d18;cursor:pointer;text-decoration:none}
    .button:hover{background:#005a30}
    .button:focus-visible{outline:3px solid #ffbf47;outline-offset:0;background:#ffbf47;color:#0b0c0c;box-shadow:0 2px 0 #0b0c0c}
    .button.secondary{background:#f3f2f1;color:#0b0c0c;box-shadow:0 2px 0 #929191}
    .button.secondary:hover{background:#dbdad9}
    .actions{display:flex;flex-wrap:wrap;gap:12px 24px;align-items:center;margin:24px 0}
    .kept-photo{display:flex;gap:12px;align-items:center;margin:8px 0 12px}
    .kept-photo img,.kept-photo canvas{width:120px;height:auto;border:1px solid #b1b4b6}
    .kept-photo p{margin:0}
    .offer{background:#f3f2f1;padding:12px 16px;margin:12px 0 0}
    .offer p{margin:0 0 4px}
    .check{display:flex;align-items:center;gap:10px;min-height:44px}
    .check input{width:24px;height:24px;margin:0;flex:none}
    .check label{font-weight:400;margin:0}
    .js-only{visibility:hidden}
    .js .js-only{visibility:visible}
    .progress{display:block;width:100%;max-width:30em;height:8px;margin:8px 0 0}
    .choices{display:grid;gap:16px;margin:24px 0;grid-template-columns:repeat(auto-fit,minmax(15em,1fr))}
    .choice{display:block;border:2px solid #0b0c0c;padding:20px;color:#0b0c0c;text-decoration:none}
    .choice:hover{background:#f3f2f1}
    .choice strong{display:block;font-size:1.25rem;color:#0b57d0;text-decoration:underline}
    .choice:focus-visible{outline:3px solid #ffbf47;outline-offset:0}
    .panel{background:#00703c;color:#fff;padding:24px;margin:0 0 24px;text-align:center}
    .panel h1{margin:0 0 12px}
    .password{font-size:2.25rem;font-weight:700;letter-spacing:.15em;font-family:ui-monospace,"DejaVu Sans Mono",monospace;background:#fff;color:#0b0c0c;display:inline-block;padding:4px 16px;margin:4px 0}
    .notice{border-left:5px solid #0b0c0c;padding:8px 16px;margin:0 0 24px;background:#f3f2f1}
    .caption{color:#505a5f;font-size:1.125rem;margin:0 0 4px}
    .form-page h2.part{font-size:1.5rem;margin:40px 0 16px}
    .banner{border:5px solid #00703c;margin:0 0 32px}
    .banner:focus{outline:3px solid #ffbf47}
    .banner-title{background:#00703c;color:#fff;font-size:1rem;margin:0;padding:4px 16px}
    .banner p{margin:0;padding:16px;font-weight:700}
    .button.warning{background:#b3261e;box-shadow:0 2px 0 #55150e}
    .button.warning:hover{background:#8f1e18}
    .visually-hidden{position:absolute!important;width:1px!important;height:1px!important;margin:0!important;padding:0!important;overflow:hidden!important;clip:rect(0 0 0 0)!important;clip-path:inset(50%)!important;border:0!important;white-space:nowrap!important}
    .hp,[hidden]{display:none!important}
    """

    /// The first 16 hex digits of the sheet's SHA-256.
    static let hash = String(SHA256.hash(data: Array(css.utf8)).hex.prefix(16))
    static let path = "/static/form.\(hash).css"
    static let files: [String: (body: String, type: String)] = ["form.\(hash).css": (css, "text/css; charset=utf-8")]

    /// The `<link>` a page with a form adds to its head.
    static var link: HTML { "<link rel=\"stylesheet\" href=\"\(path)\">\n" }
}
