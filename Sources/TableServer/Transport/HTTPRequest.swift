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
