/// Which pages may open a WebSocket to this server: a browser names the page's origin,
/// and a page from elsewhere must not drive a user's local server (cross-site WebSocket
/// hijacking).
///
/// Allowed: no `Origin` header at all (a non-browser client), an origin whose host and
/// port are those of the `Host` header (the page this server served), and any origin
/// listed explicitly. Everything else, `Origin: null` included, is refused.
struct OriginPolicy: Sendable, Equatable {
  /// Normalized (`scheme://host:port`, lower case) origins allowed besides the server's own.
  private(set) var allowedOrigins: Set<String>

  init(allowedOrigins: [String]) {
    self.allowedOrigins = Set(allowedOrigins.compactMap { OriginPolicy.normalized($0) })
  }

  func allows(origin: String?, host: String?) -> Bool {
    guard let origin else { return true }
    guard let normalizedOrigin = OriginPolicy.normalized(origin) else { return false }
    if allowedOrigins.contains(normalizedOrigin) { return true }
    guard let host, let origin = OriginPolicy.parse(normalizedOrigin) else { return false }
    let defaultPort = origin.scheme == "https" ? 443 : 80
    guard let hostAuthority = OriginPolicy.hostAndPort(host.lowercased(), defaultPort: defaultPort)
    else { return false }
    return hostAuthority.host == origin.host && hostAuthority.port == origin.port
  }

  /// `scheme://host:port` in lower case with the scheme's default port made explicit, or
  /// nil when `origin` is not an http(s) origin.
  static func normalized(_ origin: String) -> String? {
    var text = origin.trimmingWhitespace().lowercased()
    while text.hasSuffix("/") { text.removeLast() }
    guard let parsed = parse(text) else { return nil }
    return "\(parsed.scheme)://\(parsed.host):\(parsed.port)"
  }

  private static func parse(_ origin: String) -> (scheme: String, host: String, port: Int)? {
    let scheme: String
    if origin.hasPrefix("http://") {
      scheme = "http"
    } else if origin.hasPrefix("https://") {
      scheme = "https"
    } else {
      return nil
    }
    let authority = String(origin.dropFirst(scheme.count + 3))
    guard let (host, port) = hostAndPort(authority, defaultPort: scheme == "https" ? 443 : 80)
    else { return nil }
    return (scheme, host, port)
  }

  /// Splits `host[:port]` or `[v6]:port`; nil when malformed (HostPolicy reads `Host`
  /// with it too).
  static func hostAndPort(_ authority: String, defaultPort: Int) -> (
    host: String, port: Int
  )? {
    guard !authority.isEmpty, !authority.contains("/"), !authority.contains("@") else { return nil }
    var host = Substring(authority)
    var portText: Substring? = nil
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return nil }
      host = authority[...close]
      let rest = authority[authority.index(after: close)...]
      if !rest.isEmpty {
        guard rest.hasPrefix(":") else { return nil }
        portText = rest.dropFirst()
      }
    } else if let colon = authority.lastIndex(of: ":") {
      host = authority[..<colon]
      portText = authority[authority.index(after: colon)...]
    }
    guard !host.isEmpty else { return nil }
    guard let portText else { return (String(host), defaultPort) }
    guard let port = Int(portText), (1...65535).contains(port) else { return nil }
    return (String(host), port)
  }
}

extension String {
  /// Without leading and trailing spaces and tabs (a header value's optional white space).
  func trimmingWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
  }
}
