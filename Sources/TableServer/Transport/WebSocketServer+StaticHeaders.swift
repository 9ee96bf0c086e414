extension WebSocketServer {
  /// The page's Content-Security-Policy: its own scripts and styles only (no `eval`; the
  /// one inline script is the built page's boot script, allowed by its hash), images from
  /// wherever the data says (`http:`, `https:`, `data:`; never `javascript:`), WebSockets
  /// to this server only, a service worker from this server only (`sw.js`), and never
  /// inside a frame.
  static let contentSecurityPolicy = [
    "default-src 'self'",
    (["script-src 'self'"] + EmbeddedPage.inlineScriptHashes).joined(separator: " "),
    "style-src 'self'", "worker-src 'self'",
    "img-src 'self' https: http: data:", "connect-src 'self'", "object-src 'none'",
    "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
  ].joined(separator: "; ")

  /// Headers for every file of the page: no MIME sniffing, the page's CSP, and no
  /// `Referer` sent anywhere (an address may hold what the data says).
  static let pageHeaders = [
    "x-content-type-options:": "nosniff", "content-security-policy:": contentSecurityPolicy,
    "referrer-policy:": "no-referrer",
  ]

  /// Headers for every file served from a folder (`--public`): the page's, and revalidate
  /// each time so that edits to the page show up on reload (lws answers the `ETag` with 304).
  static let staticFileHeaders =
    [("cache-control:", "no-cache")]
    + pageHeaders.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
}
