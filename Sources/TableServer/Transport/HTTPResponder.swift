/// Answers the HTTP requests the server handles itself: those under
/// ``WebSocketServer/apiPathPrefix`` and the ``WebSocketServer/Configuration/dynamicPaths``
/// (`/healthz`, `/metrics`). The one way such a request is answered.
///
/// - Important: Called on the service thread, so an answer should take milliseconds.
public protocol HTTPResponder: AnyObject {
  /// The answer to `request` (its body complete), or nil when the path is not this
  /// responder's.
  func respond(to request: HTTPRequest) -> HTTPResponse?
}

/// Several responders: the first that answers a request answers it.
public final class HTTPRoutes: HTTPResponder {
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
}
