/// The answer to an ``HTTPRequest``.
public struct HTTPResponse: Sendable, Hashable {
  public var status: Int
  public var contentType: String
  public var body: [UInt8]

  public init(status: Int, contentType: String = "application/json", body: [UInt8]) {
    self.status = status
    self.contentType = contentType
    self.body = body
  }
}

extension HTTPResponse {
  /// A plain-text answer.
  public init(status: Int, text: String) {
    self.init(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
  }
}
