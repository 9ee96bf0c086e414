import Foundation

/// What an authenticator may know of a connection's WebSocket upgrade request.
public struct UpgradeRequest: Sendable, Hashable {
  /// The `Cookie` header, when sent.
  public var cookie: String?
  /// The `Authorization` header, when sent.
  public var authorization: String?
  /// The peer's address (IP), for the per-address limit on failed `hello`s; empty when
  /// unknown.
  public var peerAddress: String

  public init(cookie: String? = nil, authorization: String? = nil, peerAddress: String = "") {
    self.cookie = cookie
    self.authorization = authorization
    self.peerAddress = peerAddress
  }

  /// The value of cookie `name`, or nil.
  public func cookie(named name: String) -> String? {
    guard let cookie else { return nil }
    for pair in cookie.split(separator: ";") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
        return parts[1].trimmingCharacters(in: .whitespaces)
      }
    }
    return nil
  }
}
