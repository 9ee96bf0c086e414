/// An HTTP request to one of the server's own paths (not a static file, not `/ws`), with
/// its whole body.
package struct HTTPRequest: Sendable, Hashable {
  public var method: String
  /// The path, without the query.
  public var path: String
  /// The `Authorization` header, if any.
  public var authorization: String?
  /// The client's address, as `UpgradeRequest` has it.
  public var peerAddress: String
  public var body: [UInt8]
  /// The `Origin` header: sent by browsers, absent from scripts.
  public var origin: String?
  /// The `Host` header.
  public var host: String?
  /// The `Content-Type` header.
  public var contentType: String?

  public init(
    method: String, path: String, authorization: String? = nil, peerAddress: String = "",
    body: [UInt8] = [], origin: String? = nil, host: String? = nil, contentType: String? = nil
  ) {
    self.method = method
    self.path = path
    self.authorization = authorization
    self.peerAddress = peerAddress
    self.body = body
    self.origin = origin
    self.host = host
    self.contentType = contentType
  }
}
