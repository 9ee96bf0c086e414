import TableModel
import TableStore

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
  /// The core; nil once the transport has stopped, which releases the data source (and
  /// so closes the database).
  public internal(set) var server: SessionServer?
  /// Where frames go. Held strongly: the transport holds its delegate only until it has
  /// stopped, so the two do not keep each other alive.
  public let transport: any MessageTransport
  let thread = ThreadChecker("SessionHost")
  private let clock = ContinuousClock()
  /// How many times a full queue was replaced by a fresh screen: a figure for logs.
  public private(set) var resynchronizations = 0

  /// - Parameters:
  ///   - server: the session core.
  ///   - transport: the transport this host will be the delegate of (a
  ///     ``WebSocketServer`` not started yet: start it with this host as its delegate).
  public init(server: SessionServer, transport: any MessageTransport) {
    self.server = server
    self.transport = transport
  }

  public func connectionDidOpen(_ connection: ConnectionID) {
    thread.check()
    perform(
      server?.connectionOpened(
        connection, request: transport.upgradeRequest(of: connection), at: clock.now))
  }

  public func connection(_ connection: ConnectionID, didReceive text: String) {
    thread.check()
    perform(server?.receive(text, from: connection, at: clock.now))
  }

  public func connectionDidSendTooLarge(_ connection: ConnectionID) {
    thread.check()
    perform(server?.receiveTooLarge(from: connection, at: clock.now))
  }

  public func connectionDidClose(_ connection: ConnectionID) {
    thread.check()
    perform(server?.connectionClosed(connection))
  }

  /// The app changed `list`: every viewer gets one diff (see
  /// ``SessionServer/listChanged(_:edits:)``).
  public func listChanged(_ list: String, edits: [RowEdit]?) {
    thread.check()
    perform(server?.listChanged(list, edits: edits))
  }

  /// Every connection is closed and nothing more will come: let the core go, and with it
  /// the data source. (Sessions are already saved: every change was written when made.)
  public func transportDidStop() {
    thread.check()
    server = nil
    onStop?()
  }

  /// Closes (4401) the connections whose access was revoked, or that hold none while the
  /// authenticator now requires it. Run about once a second (see ``AccessWatch``).
  public func recheckAccess() {
    thread.check()
    perform(server?.recheckAccess())
  }

  /// Called on the service thread once the transport has stopped and the core is gone.
  public var onStop: (() -> Void)?

  func perform(_ actions: [ServerAction]?) {
    guard let actions, !actions.isEmpty else { return }
    var resynchronized: Set<ConnectionID> = []
    for action in actions {
      switch action {
      case .send(let frame, let connections, let kind):
        for connection in connections {
          if kind != .reply && resynchronized.contains(connection) { continue }
          if transport.send(frame, to: connection) { continue }
          resynchronized.insert(connection)
          resynchronizations += 1
          transport.replaceQueue(of: connection, with: server?.freshScreen(for: connection) ?? [])
        }
      case .close(let connection, let reason, let code):
        transport.close(connection, code: code, reason: reason)
      }
    }
  }
}

extension SessionHost {
  /// The usual wiring of `tableweb serve`: the SQLite store's lists and sessions behind the
  /// session core.
  public convenience init(
    store: Store, transport: any MessageTransport,
    configuration: SessionServerConfiguration = SessionServerConfiguration(),
    authenticator: (any Authenticator)? = nil
  ) {
    let dataSource = StoreDataSource(store: store)
    self.init(
      server: SessionServer(
        dataSource: dataSource, sessionStorage: dataSource, configuration: configuration,
        authenticator: authenticator ?? StoreAuthenticator(store: store)),
      transport: transport)
  }
}
