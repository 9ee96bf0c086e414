#if canImport(Glibc)
  import Glibc
#endif

/// Which `Host` headers a server answers, against DNS rebinding: a page on a name the
/// attacker controls, re-pointed at 127.0.0.1, reaches a loopback server as the same
/// origin as itself, and its requests carry `Host: that-name`.
///
/// A server listening on a loopback address answers only a loopback name or address
/// (`localhost`, 127.0.0.0/8, `[::1]`, with any port) or a name it was given
/// (`--allowed-host`); given names make a server on any address check too. A request
/// with no `Host` at all (not a browser: HTTP/1.0 scripts) is answered.
struct HostPolicy: Sendable, Equatable {
  /// Whether `Host` is checked at all.
  let checks: Bool
  /// Lower-case host names (no port) answered besides the loopback ones.
  let allowedHosts: Set<String>

  /// Checks nothing: every `Host` is answered.
  static let any = HostPolicy(checks: false, allowedHosts: [])

  init(checks: Bool, allowedHosts: Set<String>) {
    self.checks = checks
    self.allowedHosts = allowedHosts
  }

  /// The policy of a server listening on `listenHost`.
  init(listeningOn listenHost: String, allowedHosts: [String]) {
    let names = Set(
      allowedHosts.map { $0.trimmingWhitespace().lowercased() }.filter { !$0.isEmpty })
    self.init(checks: Self.isLoopback(listenHost) || !names.isEmpty, allowedHosts: names)
  }

  func allows(host: String?) -> Bool {
    guard checks, let host else { return true }
    guard
      let name = OriginPolicy.hostAndPort(host.trimmingWhitespace().lowercased(), defaultPort: 80)?
        .host
    else { return false }
    return Self.isLoopback(name) || allowedHosts.contains(name)
  }

  /// `localhost`, an IPv4 address in 127.0.0.0/8 or `::1` (bracketed or not).
  static func isLoopback(_ name: String) -> Bool {
    var name = name.lowercased()
    if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    if name == "localhost" || name == "::1" { return true }
    var address = in_addr()
    guard inet_pton(AF_INET, name, &address) == 1 else { return false }
    return UInt32(bigEndian: address.s_addr) >> 24 == 127
  }
}
