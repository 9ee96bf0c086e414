/// Answers the HTTP requests the server handles itself: those under
/// `WebSocketServer.apiPathPrefix` and the `WebSocketServer.Configuration.dynamicPaths`
/// (`/healthz`, `/metrics`). The one way such a request is answered.
///
/// - Important: Called on the service thread, so an answer should take milliseconds.
package protocol HTTPResponder: AnyObject {
  /// The answer to `request` (its body complete), or nil when the path is not this
  /// responder's.
  func respond(to request: HTTPRequest) -> HTTPResponse?
  /// Whether this responder answers `request` later, by calling `answer` once from any
  /// thread (its work runs on a thread of its own): asked when ``respond(to:)`` returned
  /// nil. The connection waits; the service thread does not.
  func respondLater(
    to request: HTTPRequest, answer: @escaping @Sendable (HTTPResponse) -> Void
  ) -> Bool
  /// Told of a request the transport answered with `refusal` before any responder saw
  /// it (a foreign `Host` on any path, a cross-site write): for logs and metrics. Called
  /// on the service thread.
  func refused(_ request: HTTPRequest, _ refusal: HTTPRefusal)
}

extension HTTPResponder {
  public func respondLater(
    to request: HTTPRequest, answer: @escaping @Sendable (HTTPResponse) -> Void
  ) -> Bool { false }

  public func refused(_ request: HTTPRequest, _ refusal: HTTPRefusal) {}
}

/// Several responders: the first that answers a request answers it.
package final class HTTPRoutes: HTTPResponder {
  private let responders: [any HTTPResponder]

  public init(_ responders: [any HTTPResponder]) {
    self.responders = responders
  }

  public func respond(to request: HTTPRequest) -> HTTPResponse? {
    for responder in responders {
      if let response = responder.respond(to: request) { return response }
    }
    return nil
  }

  public func respondLater(
    to request: HTTPRequest, answer: @escaping @Sendable (HTTPResponse) -> Void
  ) -> Bool {
    responders.contains { $0.respondLater(to: request, answer: answer) }
  }

  public func refused(_ request: HTTPRequest, _ refusal: HTTPRefusal) {
    for responder in responders { responder.refused(request, refusal) }
  }
}
