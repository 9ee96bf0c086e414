import Foundation

/// Whether a WebSocket upgrade request may become a tableweb connection: the right path,
/// the right subprotocol, a trusted origin. Refusals answer HTTP 403 (404 for another
/// path) before any WebSocket traffic.
struct UpgradePolicy: Sendable, Equatable {
  static let path = "/ws"
  static let subprotocol = "tableweb.v1"
  /// A second subprotocol may carry the client's `hello`: this prefix, then the hello's
  /// JSON in base64url (no padding). The server takes it as the connection's first
  /// message, so `welcome` and the screen follow the upgrade with no round trip between.
  static let helloPrefix = "tableweb.hello."

  enum Decision: Sendable, Equatable {
    case accept
    case refuse(status: Int, reason: String)
  }

  var origins: OriginPolicy
  /// The names of the server's other lws protocols: libwebsockets binds a connection to
  /// the first name in the client's list that it knows, so asking for one of these first
  /// would bypass tableweb's protocol.
  var otherProtocolNames: [String]
  /// Which `Host` headers are answered (the same policy as every HTTP request's).
  var hosts = HostPolicy.any

  static let hostRefused = "host not allowed"
  static let originRefused = "origin not allowed"

  /// - Parameters:
  ///   - subprotocols: the `Sec-WebSocket-Protocol` header (a comma-separated list), nil
  ///     when absent.
  func decide(path: String, subprotocols: String?, origin: String?, host: String?) -> Decision {
    guard hosts.allows(host: host) else {
      return .refuse(status: 403, reason: UpgradePolicy.hostRefused)
    }
    guard path == UpgradePolicy.path else {
      return .refuse(status: 404, reason: "no WebSocket endpoint at \(path)")
    }
    let requested = (subprotocols ?? "").split(separator: ",").map {
      $0.filter { $0 != " " && $0 != "\t" }
    }
    let known = requested.first {
      $0 == UpgradePolicy.subprotocol || otherProtocolNames.contains(String($0))
    }
    guard known == UpgradePolicy.subprotocol else {
      return .refuse(status: 403, reason: "subprotocol \(UpgradePolicy.subprotocol) required")
    }
    guard origins.allows(origin: origin, host: host) else {
      return .refuse(status: 403, reason: UpgradePolicy.originRefused)
    }
    return .accept
  }

  /// The hello carried in a `Sec-WebSocket-Protocol` header, or nil when none is. A hello
  /// that is not base64url of UTF-8 comes back as it was written (the session answers it
  /// `bad_json`).
  static func hello(in subprotocols: String?) -> String? {
    guard
      let item = (subprotocols ?? "").split(separator: ",").lazy
        .map({ $0.trimmingCharacters(in: .whitespaces) })
        .first(where: { $0.hasPrefix(helloPrefix) })
    else { return nil }
    let encoded = item.dropFirst(helloPrefix.count)
    var base64 = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
      of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8)
    else { return String(encoded) }
    return text
  }
}

extension UpgradePolicy.Decision {
  /// How a refusal is counted (`tableweb_http_refused_total`): host and origin refusals
  /// are; a wrong path or subprotocol is a client's mistake, not a trust boundary.
  var countedReason: HTTPRefusal.Reason? {
    switch self {
    case .refuse(_, UpgradePolicy.hostRefused): return .host
    case .refuse(_, UpgradePolicy.originRefused): return .origin
    default: return nil
    }
  }
}
