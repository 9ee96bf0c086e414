/// What the application asks of the transport.
///
/// - Important: Call only on the libwebsockets service thread (from a delegate callback,
///   or from work the server runs there).
package protocol MessageTransport: AnyObject {
  /// Queues `frame` for `connection`. Returns false, and queues nothing, when the
  /// connection's bounded queue is full: the caller decides how it catches up
  /// (typically `replaceQueue` with a fresh screen).
  @discardableResult
  func send(_ frame: OutgoingFrame, to connection: ConnectionID) -> Bool
  /// Queues `frame` for each of `connections` in one piece, when the transport hands
  /// frames to other threads (`CoreRelay`: one hand-over per service thread instead of one
  /// per viewer), handling a full queue itself. False leaves it to ``send(_:to:)``, one
  /// connection at a time.
  func send(_ frame: OutgoingFrame, toAll connections: [ConnectionID]) -> Bool
  /// Drops everything queued for `connection` and queues `frames` instead.
  func replaceQueue(of connection: ConnectionID, with frames: [OutgoingFrame])
  /// Sends a close frame (status 1000 or 1001) after what is queued, then closes.
  func close(_ connection: ConnectionID, reason: String)
  /// How many frames wait to be written to `connection`.
  func queuedFrameCount(of connection: ConnectionID) -> Int
  /// Sends a close frame with status `code` after what is queued, then closes.
  func close(_ connection: ConnectionID, code: Int, reason: String)
  /// The connection's upgrade request, for the authenticator.
  func upgradeRequest(of connection: ConnectionID) -> UpgradeRequest
  /// The peer's address (IP, no port), for logs; nil when unknown.
  func peerAddress(of connection: ConnectionID) -> String?
}

extension MessageTransport {
  public func send(_ frame: OutgoingFrame, toAll connections: [ConnectionID]) -> Bool { false }

  public func close(_ connection: ConnectionID, code: Int, reason: String) {
    close(connection, reason: reason)
  }

  public func upgradeRequest(of connection: ConnectionID) -> UpgradeRequest { UpgradeRequest() }

  /// The peer's address, for logs; nil when the transport does not know it.
  public func peerAddress(of connection: ConnectionID) -> String? { nil }
}
