/// Answers the paths the server handles itself besides `/api`
/// (``WebSocketServer/Configuration/dynamicPaths``: `/healthz`, `/metrics`).
///
/// - Important: Called on the service thread, so an answer should take milliseconds.
public protocol HTTPResponder: AnyObject {
  /// The answer for a request of `path` (one of the dynamic paths, without its query).
  func answer(path: String) -> HTTPResponse
}

extension HTTPResponse {
  /// A plain-text answer.
  public init(status: Int, text: String) {
    self.init(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
  }
}
