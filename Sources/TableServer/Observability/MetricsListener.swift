import TableModel

/// The delegate of the port that serves only `/metrics` (`serve --metrics-port`): it is no
/// place for the protocol, so a WebSocket that opens there is closed at once.
///
/// - Important: Called on that listener's service thread.
final class MetricsListener: ConnectionDelegate {
  private weak var transport: WebSocketServer?

  init(transport: WebSocketServer) {
    self.transport = transport
  }

  func connectionDidOpen(_ connection: ConnectionID) {
    transport?.close(connection, reason: "this port serves /metrics only")
  }

  func connection(_ connection: ConnectionID, didReceive text: String) {}
  func connectionDidSendTooLarge(_ connection: ConnectionID) {}
  func connectionDidClose(_ connection: ConnectionID) {}
}
