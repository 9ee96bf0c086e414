import Foundation
import TableModel
import TableStore

/// Connects the session core to the transport: it receives the transport's callbacks,
/// runs them through `SessionServer` and carries out the resulting `ServerAction`s
/// through a `MessageTransport`.
///
/// Backpressure lives here because only here is it known: when the transport refuses a
/// frame (the connection's bounded queue is full), that connection's queue is replaced
/// by a fresh `screen`, and the diffs still to come in the same batch are skipped for it
/// (the screen already contains them). Nobody else waits.
///
/// - Important: Every method must be called on the core thread (docs/threading.md); each
///   checks it on its first line.
package final class SessionHost: ConnectionDelegate {
  /// The core; nil once the transport has stopped, which releases the data source (and
  /// so closes the database).
  public internal(set) var server: SessionServer?
  /// Where frames go. Held strongly: the transport holds its delegate only until it has
  /// stopped, so the two do not keep each other alive.
  public let transport: any MessageTransport
  let thread = ThreadChecker("SessionHost")
  /// Where what goes wrong without a client to tell is logged: the core's.
  private let diagnostics: ServerDiagnostics
  private let clock = ContinuousClock()
  /// How many times a full queue was replaced by a fresh screen: a figure for logs.
  public private(set) var resynchronizations = 0
  /// While ``runTogether(_:more:)`` runs: everything its work would send, carried out in order
  /// once the group's transaction has committed.
  private var held: [() -> Void]?
  /// How many groups of work were committed together, and how many of them could not be
  /// and were run again one at a time: figures for tests and logs.
  public private(set) var groupsCommitted = 0
  public private(set) var groupsRunAgain = 0

  /// - Parameters:
  ///   - server: the session core.
  ///   - transport: the transport this host will be the delegate of (a
  ///     `WebSocketServer` not started yet: start it with this host as its delegate).
  ///   - telemetry: where connections, commands and fan-outs are logged and counted.
  public init(
    server: SessionServer, transport: any MessageTransport, telemetry: ServerTelemetry? = nil
  ) {
    self.server = server
    self.transport = transport
    self.telemetry = telemetry
    coreQueue = transport as? any WorkQueue
    diagnostics = server.diagnostics
    if let telemetry {
      // Not reading `server` here: it is being changed while the command runs.
      self.server?.onCommand = { type, result in telemetry.command(type, result: result) }
    }
  }

  /// Logs and metrics; nil keeps neither.
  public let telemetry: ServerTelemetry?

  public func connectionDidOpen(_ connection: ConnectionID) {
    thread.check()
    perform(
      server?.connectionOpened(
        connection, request: transport.upgradeRequest(of: connection), at: clock.now))
    telemetry?.connectionOpened(
      connection, address: transport.peerAddress(of: connection) ?? "-",
      openCount: server?.connectionCount ?? 0)
  }

  public func connection(_ connection: ConnectionID, didReceive text: String) {
    thread.check()
    let received = clock.now
    perform(server?.receive(text, from: connection, at: received), since: received)
    telemetry?.commandTook(clock.now - received)
    telemetry?.sessionCount(server?.sessions.count ?? 0)
  }

  public func connectionDidSendTooLarge(_ connection: ConnectionID) {
    thread.check()
    perform(server?.receiveTooLarge(from: connection, at: clock.now))
  }

  public func connectionDidClose(_ connection: ConnectionID) {
    thread.check()
    let session = server?.connections[connection]?.session
    perform(server?.connectionClosed(connection, at: clock.now))
    telemetry?.connectionClosed(
      connection, session: session?.rawValue, openCount: server?.connectionCount ?? 0,
      sessionCount: server?.sessions.count ?? 0)
  }

  /// The app changed `list`: every viewer gets one diff (see
  /// `SessionServer.listChanged(_:edits:)`).
  public func listChanged(_ list: String, edits: [RowEdit]?) {
    thread.check()
    let changed = clock.now
    perform(server?.listChanged(list, edits: edits), since: changed)
  }

  /// Another process committed to the data: publish what the change log holds since
  /// (see `ChangeWatch`). With `announced` (the `list:version` announcements heard, see
  /// `ChangeListener`), the log is read only when one names a version not yet published.
  public func catchUpWithLog(announced: [String]? = nil) {
    thread.check()
    if let announced, server?.hasPublished(announced) == true { return }
    let noticed = clock.now
    perform(server?.catchUpWithLog(), since: noticed)
  }

  /// Every connection is closed and nothing more will come: let the core go, and with it
  /// the data source. (Sessions are already saved: every change was written when made.)
  public func transportDidStop() {
    thread.check()
    server = nil
    readSearch = nil
    releaseSearches = nil
    onStop?()
  }

  /// Closes (4401) the connections whose access was revoked, or that hold none while the
  /// authenticator now requires it. Run about once a second (see `AccessWatch`).
  public func recheckAccess() {
    thread.check()
    perform(server?.recheckAccess())
  }

  /// The transport could not queue a frame for `connection` (its bounded queue is full)
  /// and drops what follows until its queue is replaced: by the connection's fresh
  /// screen, as `perform(_:since:)` does when `send` refuses a frame at once. For a
  /// transport that finds the queue full later, on another thread (`CoreRelay`).
  public func resynchronize(_ connection: ConnectionID) {
    thread.check()
    resynchronizations += 1
    telemetry?.queueResynchronized()
    // A screen made inside a group could show what is not committed yet.
    deliver { [self] in
      transport.replaceQueue(of: connection, with: server?.freshScreen(for: connection) ?? [])
    }
  }

  /// The queue of the core thread, where the core's wake-ups (`ServerAction.wake`) run:
  /// the transport when it is one (a `WebSocketServer`), else what the maker sets (the
  /// `CoreThread` behind a `CoreRelay`). Nil drops wake-ups.
  public var coreQueue: (any WorkQueue)?

  /// A wake-up the core asked for came: it sends the `presence` that waited.
  public func wake() {
    thread.check()
    perform(server?.presenceWake(at: clock.now))
  }

  /// Calls `wake()` on the core thread after `delay`.
  private func scheduleWake(after delay: Duration) {
    guard let queue = coreQueue else { return }
    let reference = HostReference(self, on: queue)
    let (seconds, attoseconds) = delay.components
    let nanoseconds = max(0, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
      queue.perform { reference.host?.wake() }
    }
  }

  /// Called on the service thread once the transport has stopped and the core is gone.
  public var onStop: (() -> Void)?

  /// Carries out `actions`; when they fan a change out (`since` is when it arrived), the
  /// time until every viewer's frames are queued is recorded.
  func perform(_ actions: [ServerAction]?, since start: ContinuousClock.Instant? = nil) {
    guard let actions, !actions.isEmpty else { return }
    if held != nil {
      held?.append { [self] in perform(actions, since: start) }
      return
    }
    var resynchronized: Set<ConnectionID> = []
    var fannedOut = false
    defer {
      if fannedOut, let start, let telemetry { telemetry.fannedOut(in: clock.now - start) }
    }
    for action in actions {
      switch action {
      case .send(let frame, let connections, let kind):
        if kind == .diff { fannedOut = true }
        let mark = kind == .diff ? markFanout(of: frame) : nil
        defer { mark?.release() }
        // A transport that hands frames to other threads takes the whole fan-out at once.
        let targets =
          kind == .reply || resynchronized.isEmpty
          ? connections : connections.filter { !resynchronized.contains($0) }
        mark?.retain(targets.count)
        if targets.count > 1, transport.send(frame, toAll: targets) { continue }
        mark?.release(targets.count)
        for connection in targets {
          if kind != .reply && resynchronized.contains(connection) { continue }
          mark?.retain()
          if transport.send(frame, to: connection) { continue }
          mark?.release()
          resynchronized.insert(connection)
          resynchronizations += 1
          telemetry?.queueResynchronized()
          transport.replaceQueue(of: connection, with: server?.freshScreen(for: connection) ?? [])
        }
      case .close(let connection, let reason, let code):
        if code == SessionServer.abuseCloseCode {
          telemetry?.refusals.record(
            .rateLimited, address: transport.peerAddress(of: connection) ?? "-")
        }
        transport.close(connection, code: code, reason: reason)
      case .wake(let delay):
        scheduleWake(after: delay)
      case .readSearch(let query, let list, let base):
        guard let readSearch else {
          perform(server?.searchRead(query, in: list, result: .failure(Self.noSearchReader)))
          continue
        }
        readSearch(query, list, base)
      }
    }
    if let releaseSearches, let released = server?.searches.takeReleased() {
      releaseSearches(released)
    }
  }

  private static let noSearchReader = ProtocolError(.internal, "no search reader")

  /// Where `ServerAction.readSearch` goes: a reader off the core thread (set by
  /// `TablewebServer`), which hands the results, diffed from the base, to
  /// `searchRead(_:in:read:)` on the core thread.
  var readSearch: ((SearchQuery, String, TableSnapshot?) -> Void)?
  /// Where search results the core no longer keeps go to be freed (the search thread).
  var releaseSearches: ((ReleasedResults) -> Void)?

  /// The results of a search read off the core thread: the sessions that show it get them
  /// (see `SessionServer.searchRead(_:in:result:)`).
  public func searchRead(
    _ query: SearchQuery, in list: String, result: Result<TableSnapshot, ProtocolError>
  ) {
    thread.check()
    perform(server?.searchRead(query, in: list, result: result))
  }

  /// Results read and diffed on the search thread (`ServerAction.readSearch`).
  func searchRead(_ query: SearchQuery, in list: String, read: Result<SearchRead, ProtocolError>) {
    thread.check()
    perform(server?.searchRead(query, in: list, read: read))
  }
}

extension SessionHost {
  /// A diff's frame, timed from now until the last viewer's copy is handed to the kernel
  /// (`tableweb_fanout_written_seconds`); nil when metrics are off or the frame is sent
  /// again (a resume).
  func markFanout(of frame: OutgoingFrame) -> FanoutMark? {
    guard let record = telemetry?.fanoutWritten else { return nil }
    let mark = FanoutMark(done: record)
    return frame.markFanout(mark) === mark ? mark : nil
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

/// Group commit (see ``GroupCommitting``).
extension SessionHost {
  /// Runs `work` (callbacks that queued up on the core's thread, in order) so that the
  /// edits they commit share one transaction, when the data source can do that. Every
  /// frame, close and answer they make is held until the transaction has committed, so
  /// nobody is told of an edit that is not durable yet. When it cannot be committed, the
  /// core goes back to where it was before `work` and runs each callback again on its
  /// own: each command then gets its own `ack` or `error`, as if there had been no group.
  ///
  /// When the connection broke while the COMMIT was on its way, the group may have been
  /// applied: its callbacks run again with every commit refused (each command is told
  /// so, as a single command whose connection broke while committing would be), and the
  /// change log brings whatever was committed to every viewer. Nothing runs twice.
  public func runTogether(_ work: [() -> Void], more: (Int) -> [() -> Void] = { _ in [] }) {
    thread.check()
    guard work.count > 1, held == nil, self.server != nil,
      let group = self.server?.capabilities.groupCommit
    else {
      for item in work { item() }
      return
    }
    self.server?.anchorLogPosition()
    var before = self.server?.checkpoint()
    guard before != nil else { return }
    self.server?.holdGroup()
    held = []
    var failure: GroupCommitFailure?
    var ran: [() -> Void] = []
    do {
      try group.committingTogether {
        // What came while the group ran (while it waited for the write lock, say) joins
        // it, up to the core thread's limit: fewer, larger groups under load.
        var next = work
        while !next.isEmpty {
          for item in next {
            item()
            ran.append(item)
          }
          next = more(CoreThread.mostRunTogether - ran.count)
        }
      }
    } catch {
      failure = error
    }
    let made = held ?? []
    held = nil
    guard let failure else {
      // The checkpoint goes first: what settles is then written in place, not copied.
      before = nil
      self.server?.settleGroup()
      groupsCommitted += 1
      telemetry?.groupCommitted(items: ran.count)
      for deed in made { deed() }
      return
    }
    groupsRunAgain += 1
    telemetry?.groupRunAgain()
    // A stop inside the group let the core go: it stays gone.
    if self.server != nil { self.server = before }
    switch failure {
    case .notApplied(let error):
      diagnostics.report(
        "\(ran.count) commands could not be committed together (\(error.message)); running each again on its own"
      )
      for item in ran { item() }
    case .outcomeUnknown(let error):
      diagnostics.report(
        "the connection broke while \(ran.count) commands were committing together; each is answered with an error, and the change log shows what was committed"
      )
      group.refusingCommits(with: error) {
        for item in ran { item() }
      }
    }
  }

  /// Runs `deed` (something the outside world sees) now, or, inside ``runTogether(_:more:)``,
  /// once the group has committed.
  public func deliver(_ deed: @escaping () -> Void) {
    thread.check()
    if held != nil {
      held?.append(deed)
    } else {
      deed()
    }
  }
}
