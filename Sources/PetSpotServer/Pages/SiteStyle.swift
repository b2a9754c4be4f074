import Crypto

/// The public pages' one style sheet (and icon), served at `/static/site.<first 16 hex digits of its
/// SHA-256>.css` so it can be cached for ever and a change gets a new URL.
///
/// Colours meet WCAG AA contrast for their text (4.5:1 and more): body #1b1b1b on #fff
/// (17:1), links #0b57d0 (6.4:1), the MISSING badge #fff on #b3261e (6.6:1), FOUND on #1e6b34
/// (6.6:1), CLOSED on #4a4a4a (8.9:1), the reward badge #1b1b1b on #ffd54f (13:1), muted text
/// #555 (7.5:1).
enum SiteStyle {
    static let css = """
    *,*::before,*::after{box-sizing:border-box}
    html{-webkit-text-size-adjust:100%}
    body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;font-size:16px;line-height:1.5;color:#1b1b1b;background:#fff}
    a{color:#0b57d0}
    a:focus-visible,button:focus-visible,select:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
    .site{background:#1b1b1b;color:#fff;padding:12px max(16px,calc(50vw - 584px));display:flex;align-items:center;justify-content:space-between;gap:12px}
    .site a{color:#fff;text-decoration:none;font-weight:700;font-size:1.25rem}
    .site p{margin:0;color:#ddd;font-size:.875rem}
    .site .report-link{font-size:1rem;border:2px solid #fff;border-radius:6px;padding:8px 12px;white-space:nowrap}
    .site .report-link:hover{background:#fff;color:#1b1b1b}
    .site a:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}
    main{max-width:1200px;margin:0 auto;padding:16px}
    h1{font-size:1.5rem;line-height:1.25;margin:0 0 12px}
    .filters{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:flex-end;margin:0 0 16px}
    .filters label{display:flex;flex-direction:column;font-size:.875rem;color:#555}
    .filters select,.filters button,.filters input{font:inherit;padding:6px 10px;min-height:40px;border:1px solid #767676;border-radius:6px;background:#fff;color:#1b1b1b;box-sizing:border-box}
    .filters input{width:14em;max-width:100%}
    .filters button{background:#0b57d0;border-color:#0b57d0;color:#fff;cursor:pointer}
    .filters .field{display:flex;flex-direction:column;font-size:.875rem;color:#555;max-width:100%}
    .field-error{border-left:4px solid #b3261e;padding-left:10px}
    .field-error input{border:2px solid #b3261e}
    .error-message{margin:2px 0 4px;color:#b3261e;font-weight:700;max-width:22em}
    .error-summary{border:4px solid #b3261e;padding:12px 16px;margin:0 0 16px}
    .error-summary h2{font-size:1.125rem;margin:0 0 8px}
    .error-summary ul{margin:0;padding-left:1.2em}
    .error-summary a{color:#b3261e;font-weight:700}
    .visually-hidden{position:absolute!important;width:1px!important;height:1px!important;margin:0!important;padding:0!important;overflow:hidden!important;clip:rect(0 0 0 0)!important;border:0!important;white-space:nowrap!important}
    .cards{list-style:none;margin:0;padding:0;display:grid;gap:12px;grid-template-columns:repeat(2,minmax(0,1fr))}
    @media (min-width:600px){.cards{grid-template-columns:repeat(3,minmax(0,1fr))}}
    @media (min-width:960px){.cards{grid-template-columns:repeat(4,minmax(0,1fr))}}
    .card a{display:block;color:inherit;text-decoration:none;border:1px solid #ddd;border-radius:10px;overflow:hidden;height:100%}
    .card a:hover{border-color:#767676}
    .photo{position:relative;margin:0;background:#eee}
    .no-photo{display:flex;align-items:center;justify-content:center;color:#555;background:#eee}
    .card .photo{padding-top:75%}
    .card .photo img,.card .photo .no-photo{position:absolute;top:0;left:0;width:100%;height:100%;object-fit:cover}
    .badges{position:absolute;top:6px;left:6px;right:6px;display:flex;gap:4px;flex-wrap:wrap}
    .badge{font-size:.6875rem;font-weight:700;letter-spacing:.03em;padding:2px 6px;border-radius:999px;color:#fff;background:#4a4a4a}
    @media (min-width:600px){.badges{top:8px;left:8px;gap:6px}.badge{font-size:.75rem;padding:2px 8px}}
    .badge.missing{background:#b3261e}
    .badge.found{background:#1e6b34}
    .badge.closed{background:#3f51b5}
    .closed-notice{font-size:1.125rem;padding:12px 16px;border-radius:8px;background:#e8eaf6;border-left:6px solid #3f51b5}
    .closed-notice strong{font-size:1.375rem;margin-right:.4em;text-transform:uppercase}
    .badge.reward{background:#ffd54f;color:#1b1b1b}
    .card .text{padding:8px 10px 10px}
    .card h2{font-size:1rem;margin:0;overflow-wrap:anywhere}
    .card p{margin:2px 0 0;font-size:.875rem;color:#555;overflow-wrap:anywhere}
    .pager{display:flex;gap:16px;margin:20px 0 8px}
    .empty{color:#555}
    .layout{display:grid;gap:16px 32px}
    @media (min-width:960px){.layout{grid-template-columns:minmax(0,3fr) minmax(0,2fr);align-items:start}}
    .details .photo img{display:block;width:100%;height:auto;border-radius:10px}
    .details .no-photo{height:16rem;border-radius:10px}
    .facts{display:grid;grid-template-columns:minmax(7em,max-content) 1fr;gap:6px 16px;margin:0 0 16px}
    .facts dt{color:#555}
    .facts dd{margin:0;overflow-wrap:anywhere}
    .description{white-space:pre-line;overflow-wrap:anywhere}
    footer{margin:24px 0;padding:0 max(16px,calc(50vw - 584px));color:#555;font-size:.875rem}
    .share{margin:16px 0}
    .credit{font-size:.8125rem;color:#555}
    .print-url{display:none}
    @page{size:auto;margin:12mm}
    @media print{
    header.site,footer,.share,.manage,.back,.pager,.credit{display:none}
    body{background:#fff;color:#000;font-size:11pt}
    main{padding:0}
    .layout{display:block}
    .details h1{font-size:24pt;margin:0 0 8pt}
    .details .photo{margin:0 0 8pt;break-inside:avoid}
    .details .photo img{max-height:105mm;width:auto;max-width:100%;margin:0 auto}
    .facts{grid-template-columns:max-content 1fr max-content 1fr;gap:3pt 10pt;margin:0 0 8pt;break-inside:avoid}
    .details h2{font-size:13pt;margin:6pt 0 3pt}
    .description{max-height:45mm;overflow:hidden;margin:0}
    .print-url{display:block;font-size:10pt;overflow-wrap:anywhere;margin-top:8pt}
    a{color:#000;text-decoration:none}
    .closed-notice{border:1pt solid #000}
    }
    """

    /// The tab's icon (a paw), so browsers do not ask for `/favicon.ico`.
    static let icon = """
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#b3261e"/>\
    <g fill="#fff"><ellipse cx="16" cy="21" rx="6.5" ry="5.5"/><circle cx="8.5" cy="13" r="2.8"/><circle cx="13.5" cy="8.5" r="2.8"/>\
    <circle cx="18.5" cy="8.5" r="2.8"/><circle cx="23.5" cy="13" r="2.8"/></g></svg>
    """

    /// The first 16 hex digits of the sheet's SHA-256.
    static let hash = digest(css)
    static let iconHash = digest(icon)

    static let path = "/static/site.\(hash).css"
    static let iconPath = "/static/icon.\(iconHash).svg"

    /// The files under `/static/` by name: their bytes and type.
    static let files: [String: (body: String, type: String)] = [
        "site.\(hash).css": (css, "text/css; charset=utf-8"),
        "icon.\(iconHash).svg": (icon, "image/svg+xml"),
    ]

    private static func digest(_ text: String) -> String {
        String(SHA256.hash(data: Array(text.utf8)).hex.prefix(16))
    }
}
