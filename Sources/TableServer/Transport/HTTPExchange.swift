/// An HTTP request to one of the server's own paths (not a static file, not `/ws`), with
/// its whole body.
public struct HTTPRequest: Sendable, Hashable {
  public var method: String
  /// The path, without the query.
  public var path: String
  /// The `Authorization` header, if any.
  public var authorization: String?
  /// The client's address, as `UpgradeRequest` has it.
  public var peerAddress: String
  public var body: [UInt8]

  public init(
    method: String, path: String, authorization: String? = nil, peerAddress: String = "",
    body: [UInt8] = []
  ) {
    self.method = method
    self.path = path
    self.authorization = authorization
    self.peerAddress = peerAddress
    self.body = body
  }
}

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

  /// The reason phrase of the status line.
  var reason: String {
    switch status {
    case 200: "OK"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 413: "Content Too Large"
    case 503: "Service Unavailable"
    default: "Status"
    }
  }
}
