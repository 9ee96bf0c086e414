extension WebSocketServer {
  /// The page's Content-Security-Policy: its own scripts and styles only (no inline script,
  /// no `eval`), images from wherever the data says (`http:`, `https:`, `data:`; never
  /// `javascript:`), WebSockets to this server only, and never inside a frame.
  static let contentSecurityPolicy = [
    "default-src 'self'", "script-src 'self'", "style-src 'self'",
    "img-src 'self' https: http: data:", "connect-src 'self'", "object-src 'none'",
    "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
  ].joined(separator: "; ")

  /// Headers for every static file: revalidate each time so that edits to the page show
  /// up on reload (lws answers the `ETag` with 304), no MIME sniffing, the page's CSP, and
  /// no `Referer` sent anywhere (an address may hold what the data says).
  static let staticFileHeaders = [
    ("cache-control:", "no-cache"), ("x-content-type-options:", "nosniff"),
    ("content-security-policy:", contentSecurityPolicy), ("referrer-policy:", "no-referrer"),
  ]
}
