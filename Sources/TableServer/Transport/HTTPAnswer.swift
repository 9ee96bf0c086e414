/// A plain HTTP answer the server writes itself (`/healthz`, `/metrics`), as opposed to a
/// static file of the page.
public struct HTTPAnswer: Sendable {
  public var status: Int
  public var contentType: String
  public var body: [UInt8]

  public init(status: Int, contentType: String = "text/plain; charset=utf-8", body: [UInt8]) {
    self.status = status
    self.contentType = contentType
    self.body = body
  }

  public init(status: Int, text: String) {
    self.init(status: status, body: Array(text.utf8))
  }
}

/// Answers the paths the server handles itself (``WebSocketServer/Configuration/dynamicPaths``).
///
/// - Important: Called on the service thread, so an answer should take milliseconds.
public protocol HTTPResponder: AnyObject {
  /// The answer for a GET of `path` (one of the dynamic paths, without its query).
  func answer(path: String) -> HTTPAnswer
}
