/// What the transport tells the application about connections.
///
/// - Important: Every method is called on the libwebsockets service thread, one at a time,
///   in the order things happened on the wire.
package protocol ConnectionDelegate: AnyObject {
  /// A WebSocket upgrade was accepted (origin and subprotocol checked).
  func connectionDidOpen(_ connection: ConnectionID)
  /// One complete text message (fragments already reassembled, size already checked).
  func connection(_ connection: ConnectionID, didReceive text: String)
  /// The peer sent more than the frame limit; the message was dropped.
  func connectionDidSendTooLarge(_ connection: ConnectionID)
  /// The connection is gone; nothing more will be delivered for it.
  func connectionDidClose(_ connection: ConnectionID)
  /// The transport has stopped: every connection was sent a close frame (1001) and has
  /// been reported closed; nothing more will be called. Close the database here.
  func transportDidStop()
}

extension ConnectionDelegate {
  public func transportDidStop() {}
}
