/// Connects the session core to the transport: it receives the transport's callbacks,
/// runs them through ``SessionServer`` and carries out the resulting ``ServerAction``s
/// through a ``MessageTransport``.
///
/// Backpressure lives here because only here is it known: when the transport refuses a
/// frame (the connection's bounded queue is full), that connection's queue is replaced
/// by a fresh `screen`, and the diffs still to come in the same batch are skipped for it
/// (the screen already contains them). Nobody else waits.
///
/// - Important: Every method must be called on the libwebsockets service thread; each
///   checks it on its first line.
public final class SessionHost: ConnectionDelegate {
  public private(set) var server: SessionServer
  /// Set by whoever builds the transport, before it starts serving.
  public weak var transport: (any MessageTransport)?
  private let thread = ServiceThreadChecker("SessionHost")
  private let clock = ContinuousClock()
  /// How many times a full queue was replaced by a fresh screen: a figure for logs.
  public private(set) var resynchronizations = 0

  public init(server: SessionServer) {
    self.server = server
  }

  public func connectionDidOpen(_ connection: ConnectionID) {
    thread.check()
    perform(server.connectionOpened(connection, at: clock.now))
  }

  public func connection(_ connection: ConnectionID, didReceive text: String) {
    thread.check()
    perform(server.receive(text, from: connection, at: clock.now))
  }

  public func connectionDidSendTooLarge(_ connection: ConnectionID) {
    thread.check()
    perform(server.receiveTooLarge(from: connection, at: clock.now))
  }

  public func connectionDidClose(_ connection: ConnectionID) {
    thread.check()
    perform(server.connectionClosed(connection))
  }

  /// Closes every connection, for a clean shutdown.
  public func closeAll(reason: String) {
    thread.check()
    for connection in server.connectionIDs { transport?.close(connection, reason: reason) }
  }

  private func perform(_ actions: [ServerAction]) {
    guard let transport, !actions.isEmpty else { return }
    var resynchronized: Set<ConnectionID> = []
    for action in actions {
      switch action {
      case .send(let frame, let connections, let kind):
        for connection in connections {
          if kind != .reply && resynchronized.contains(connection) { continue }
          if transport.send(frame, to: connection) { continue }
          resynchronized.insert(connection)
          resynchronizations += 1
          transport.replaceQueue(of: connection, with: server.freshScreen(for: connection))
        }
      case .close(let connection, let reason):
        transport.close(connection, reason: reason)
      }
    }
  }
}
