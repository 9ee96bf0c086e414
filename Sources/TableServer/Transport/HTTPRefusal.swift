/// A request the transport refused before any responder saw it, told to the responder
/// (`HTTPResponder.refused(_:_:)`) to be logged and counted.
package struct HTTPRefusal: Sendable, Hashable {
  /// What was wrong; the label of `tableweb_http_refused_total`.
  public enum Reason: String, Sendable, CaseIterable {
    /// A `Host` the server does not answer (DNS rebinding): any path, the upgrade included.
    case host
    /// An `Origin` the WebSocket upgrade would refuse, on an upgrade or a write.
    case origin
    /// A write (`POST` under `/api`) whose body is not declared `application/json`.
    case contentType = "content_type"
  }

  public var reason: Reason
  public var status: Int
  /// The answer's text, for the person who reads it.
  public var message: String

  public init(reason: Reason, status: Int, message: String) {
    self.reason = reason
    self.status = status
    self.message = message
  }
}

/// Which writes (`POST` under `WebSocketServer.apiPathPrefix`) are taken, against
/// cross-site requests: a page elsewhere may make a browser send a "simple" POST (a form's
/// or `text/plain` body) to any address without asking first, but not one with
/// `Content-Type: application/json`, and its `Origin` says where it comes from.
struct WritePolicy: Sendable, Equatable {
  static let contentType = "application/json"

  var origins: OriginPolicy

  /// Why `request` is refused, or nil when it may be answered. An `Origin` the upgrade
  /// would refuse is 403; a body not declared `application/json` (parameters such as
  /// `charset` allowed) is 415.
  func refusal(for request: HTTPRequest) -> HTTPRefusal? {
    guard request.method == "POST", request.path.hasPrefix(WebSocketServer.apiPathPrefix + "/")
    else { return nil }
    if let origin = request.origin, !origins.allows(origin: origin, host: request.host) {
      return HTTPRefusal(
        reason: .origin, status: 403,
        message:
          "origin \(origin.prefix(100)) may not send commands to this server (see --allowed-origin)"
      )
    }
    let mediaType = (request.contentType ?? "").split(
      separator: ";", omittingEmptySubsequences: false
    )
    .first.map { $0.filter { $0 != " " && $0 != "\t" }.lowercased() }
    guard mediaType == Self.contentType else {
      return HTTPRefusal(
        reason: .contentType, status: 415,
        message: "send commands with Content-Type: \(Self.contentType)")
    }
    return nil
  }
}

extension HTTPRefusal {
  /// The answer to a request whose `Host` is not answered.
  static func host(_ host: String?) -> HTTPRefusal {
    HTTPRefusal(
      reason: .host, status: 403,
      message:
        "host \(host.map { String($0.prefix(100)) } ?? "") is not served here (see --allowed-host)")
  }
}
