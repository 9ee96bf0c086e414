/// The answer to an `HTTPRequest`.
package struct HTTPResponse: Sendable, Hashable {
  public var status: Int
  public var contentType: String
  public var body: [UInt8]
  /// Headers besides `content-type` and `content-length`: name (with its colon, lower
  /// case, as `cache-control:`) → value.
  public var headers: [String: String]

  public init(
    status: Int, contentType: String = "application/json", body: [UInt8],
    headers: [String: String] = [:]
  ) {
    self.status = status
    self.contentType = contentType
    self.body = body
    self.headers = headers
  }
}

extension HTTPResponse {
  /// A plain-text answer.
  public init(status: Int, text: String) {
    self.init(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
  }
}
