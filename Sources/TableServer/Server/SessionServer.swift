import Logging
import TableModel

/// The application half of the server: sessions, their navigation stacks and live diffs
/// to every viewer. It is driven by what the transport reports (a connection opened, a
/// message arrived, it closed) and answers with `ServerAction`s; it never touches a
/// socket, so it is tested by feeding it messages.
///
/// Commands are applied one at a time in arrival order, each to completion: a change and
/// the diffs it makes are computed and queued before the next message is read. That is
/// what makes every viewer of a list see the same diffs, in version order, without gaps.
///
/// - Important: Not thread-safe, and its data source is not either: use it only on the
///   core thread (docs/threading.md). `SessionHost` owns it there and checks.
package struct SessionServer {
  public let dataSource: any TableDataSource
  /// What the data source declared it offers (``TableDataSource/capabilities``), read once.
  public let capabilities: DataSourceCapabilities
  public let sessionStorage: any SessionStorage
  public let configuration: SessionServerConfiguration
  /// Who may connect; nil lets everyone in (an open server).
  public let authenticator: (any Authenticator)?

  /// Sessions with at least one open connection. The others live only in storage.
  /// Written only through `keep(_:)` and `drop(_:)`, which keep `audiences` true.
  public internal(set) var sessions: [SessionToken: Session] = [:]
  /// The sessions whose top screen shows each list: who gets that list's diffs.
  var audiences: [String: Set<SessionToken>] = [:]
  /// The split sessions whose sidebar shows each list (SessionServer+Split).
  var sidebarAudiences: [String: Set<SessionToken>] = [:]
  var connections: [ConnectionID: ConnectionState] = [:]
  /// The current snapshot of every list that some session shows on its top screen.
  var snapshots: [String: TableSnapshot] = [:]
  /// The section counts of the lists in `snapshots` held as their first rows only (long
  /// lists of a ``WindowedDataSource``: see SessionServer+Windows).
  var windowCounts: [String: [Int]] = [:]
  /// Stacks the storage could not keep (a read-only database): held here instead, so
  /// that such a session still resumes after a reconnect, if not after a restart.
  var unsavedStacks: [SessionToken: NavigationStack] = [:]
  /// Who shows each list and what they do, and when each list's `presence` was last sent
  /// (SessionServer+Presence).
  var presence = PresenceBook()
  /// Failed `hello`s per peer address: a token bucket each (see SessionServer+Access).
  var failedHellos: [String: TokenBucket] = [:]
  /// The change log read so far and the diffs recently sent (SessionServer+ChangeLog).
  var changeFeed = ChangeFeed()
  /// The versions of each list, for a data source that does not keep its own.
  var listVersions = ListVersions()
  /// Each session's search and the results shown (see SessionServer+Search).
  var searches = SearchBook()
  /// The answers to commands that carried a `commandId` (SessionServer+CommandIDs).
  var answeredCommands = AnsweredCommands()
  /// The sessions sent each list's new history entries (SessionServer+History).
  var historyWatchers: [String: HistoryWatch] = [:]
  /// Where what goes wrong without a client to tell is logged (the configured logger).
  var diagnostics: ServerDiagnostics
  /// Told of every command answered: its wire type (`unknown` when it could not be read)
  /// and `ack` or the error code. For metrics and logs; never given row text or ids.
  public var onCommand: ((_ type: String, _ result: String) -> Void)?

  public init(
    dataSource: any TableDataSource, sessionStorage: any SessionStorage,
    configuration: SessionServerConfiguration = SessionServerConfiguration(),
    authenticator: (any Authenticator)? = nil, logger: Logger = Logger(label: "tableweb")
  ) {
    diagnostics = ServerDiagnostics(logger: logger)
    self.dataSource = dataSource
    capabilities = dataSource.capabilities
    self.sessionStorage = sessionStorage
    self.configuration = configuration
    self.authenticator = authenticator
  }

  public var connectionCount: Int { connections.count }

  // MARK: - Transport events

  public mutating func connectionOpened(
    _ connection: ConnectionID, request: UpgradeRequest = UpgradeRequest(),
    at now: ContinuousClock.Instant
  ) -> [ServerAction] {
    precondition(connections[connection] == nil, "\(connection) opened twice")
    connections[connection] = ConnectionState(
      bucket: TokenBucket(
        capacity: configuration.burstSize, refillPerSecond: configuration.commandsPerSecond,
        now: now),
      request: request)
    return []
  }

  public mutating func connectionClosed(
    _ connection: ConnectionID, at now: ContinuousClock.Instant = .now
  ) -> [ServerAction] {
    guard let state = connections.removeValue(forKey: connection) else { return [] }
    guard let token = state.session, var session = sessions[token] else { return [] }
    session.connections.removeAll { $0 == connection }
    if session.connections.isEmpty {
      // Its stack is already in storage; a later hello with its token resumes it.
      drop(token)
      forgetSnapshotIfUnviewed(session.topList)
    } else {
      keep(session)
    }
    return withPresence([], at: now)
  }

  /// One text message from `connection`.
  public mutating func receive(
    _ text: String, from connection: ConnectionID, at now: ContinuousClock.Instant
  ) -> [ServerAction] {
    if let refusal = admit(connection, at: now, ref: { ClientMessage.peekRef(text) }) {
      onCommand?("unknown", ErrorCode.rateLimited.rawValue)
      return refusal
    }
    let (ref, result, commandID) = Self.decodeCommand(text)
    switch result {
    case .success(let message):
      if case .hello(_, _, let access, _, _) = message,
        let refusal = refuseUnauthorized(access, ref: ref, on: connection, at: now)
      {
        onCommand?("hello", "unauthorized")
        return refusal
      }
      if let key = answeredCommandKey(commandID, on: connection), let answer = answeredCommands[key]
      {
        onCommand?(message.kind.rawValue, "duplicate")
        return answer.message(ref: ref).map { [reply($0, to: connection)] } ?? []
      }
      return withPresence(
        handle(message, ref: ref, from: connection, commandID: commandID), at: now)
    case .failure(let error):
      onCommand?("unknown", error.code.rawValue)
      // Text that is not JSON may still show its ref.
      return [reply(.error(ref: ref ?? ClientMessage.peekRef(text), error), to: connection)]
    }
  }

  /// The transport dropped a message from `connection` for being larger than its limit.
  public mutating func receiveTooLarge(
    from connection: ConnectionID, at now: ContinuousClock.Instant
  )
    -> [ServerAction]
  {
    if let refusal = admit(connection, at: now) {
      onCommand?("unknown", ErrorCode.rateLimited.rawValue)
      return refusal
    }
    onCommand?("unknown", ErrorCode.tooLarge.rawValue)
    return [
      reply(
        .error(ref: nil, ProtocolError(.tooLarge, "the message is larger than the server's limit")),
        to: connection)
    ]
  }

  /// Applies what `connection` asked for and answers `ref` with `ack` or `error`; the answer
  /// is remembered under `commandID` (SessionServer+CommandIDs).
  public mutating func handle(
    _ message: ClientMessage, ref: Int?, from connection: ConnectionID, commandID: String? = nil
  ) -> [ServerAction] {
    precondition(
      connections[connection] != nil, "\(message.kind) from \(connection), which is not open")
    var effects: [ServerAction] = []
    let answer: AnsweredCommands.Answer
    do {
      let version = try perform(message, from: connection, effects: &effects)
      if let ref { effects.append(reply(.ack(ref: ref, version: version), to: connection)) }
      onCommand?(message.kind.rawValue, "ack")
      answer = .success(version)
    } catch {
      effects.append(reply(.error(ref: ref, error), to: connection))
      onCommand?(message.kind.rawValue, error.code.rawValue)
      answer = .failure(error)
    }
    if let key = answeredCommandKey(commandID, on: connection) {
      answeredCommands.remember(answer, for: key)
    }
    return effects
  }

  private mutating func perform(
    _ message: ClientMessage, from connection: ConnectionID, effects: inout [ServerAction]
  ) throws(ProtocolError) -> Int? {
    if case .hello(let token, _, _, let have, let name) = message {
      try sayHello(token: token, have: have, name: name, on: connection, effects: &effects)
      return nil
    }
    guard let token = connections[connection]?.session else {
      throw ProtocolError(.notAllowed, "say hello first")
    }
    guard let session = sessions[token] else { preconditionFailure("\(token) is not open") }
    let identity = session.identity
    if let list = message.list { try checkReach(list, session: session) }
    if message.isWrite, let list = message.list { try checkMayWrite(list, as: identity) }
    switch message {
    case .hello:
      preconditionFailure("handled above")
    case .tap(let list, let row, let scrollAnchor):
      return try tapRow(
        row, in: list, scrollAnchor: scrollAnchor, session: token, effects: &effects)
    case .accessory(let list, let row, let scrollAnchor):
      return try tapAccessoryButton(
        ofRow: row, in: list, scrollAnchor: scrollAnchor, session: token, effects: &effects)
    case .back:
      try goBack(session: token, effects: &effects)
      return nil
    case .editing(let isOn):
      try setEditing(isOn, session: token, effects: &effects)
      return nil
    case .fetch(let list, let section, let from, let count):
      try fetchRows(
        of: list, section: section, from: from, count: count, for: connection, effects: &effects)
      return nil
    case .reload:
      effects.append(screen(of: token, transition: .none, to: [connection]))
      return nil
    case .search(let list, let query):
      try search(query, in: list, session: token, effects: &effects)
      return nil
    case .layout(let split):
      try setLayout(split: split, session: token, effects: &effects)
      return nil
    case .history(let list, let before, let count):
      try sendHistory(
        of: list, before: before, count: count, session: token, to: connection,
        effects: &effects)
      return nil
    case .activity(let list, let row, let kind):
      try report(kind, on: row, in: list, session: token)
      return nil
    case .delete, .insert, .move, .update, .toggle, .action:
      return try commitCommand(message, as: identity, session: token, effects: &effects)
    case .undo, .redo:
      return try undoLatest(
        redo: message == .redo, session: token, as: identity, effects: &effects)
    }
  }

  /// A command that changes data, which needs no session: commits it and queues the diffs.
  private mutating func commitCommand(
    _ message: ClientMessage, as identity: AccessIdentity?, session: SessionToken? = nil,
    effects: inout [ServerAction]
  ) throws(ProtocolError) -> Int? {
    switch message {
    case .delete(let list, let rows):
      return try commit(
        .delete(rows: rows), in: list, as: identity, session: session, effects: &effects)
    case .insert(let list, let section, let after, let row):
      return try commit(
        .insert(section: section, after: after, row: row), in: list, as: identity, session: session,
        effects: &effects
      )
    case .move(let list, let row, let section, let after):
      return try commit(
        .move(row: row, section: section, after: after), in: list, as: identity, session: session,
        effects: &effects)
    case .update(let list, let row, let edit):
      return try commit(
        .update(
          row: row, text: edit.text, detail: TableEdit.DetailChange(edit.detail),
          flagged: edit.flagged, values: edit.values),
        in: list, as: identity, session: session, effects: &effects)
    case .toggle(let list, let row, let isOn):
      return try commit(
        .toggle(row: row, isOn: isOn), in: list, as: identity, session: session, effects: &effects)
    case .action(let list, let row, let action):
      return try commit(
        .action(row: row, action: action), in: list, as: identity, session: session,
        effects: &effects)
    default:
      throw ProtocolError(
        .badMessage, "\(message.kind.rawValue) needs a session: send it over the WebSocket")
    }
  }

  /// A command sent without a session (`POST /api/commands`) by `identity` (nil when the
  /// server requires no access): only commands that change data, naming lists and rows by
  /// id. Returns the answer (`ack` or `error`, carrying `ref`) and what viewers must be
  /// sent.
  public mutating func handleWithoutSession(
    _ message: ClientMessage, ref: Int, as identity: AccessIdentity?
  ) -> (answer: ServerMessage, effects: [ServerAction]) {
    var effects: [ServerAction] = []
    do throws(ProtocolError) {
      if let list = message.list { try checkMayRead(list, as: identity) }
      if message.isWrite, let list = message.list { try checkMayWrite(list, as: identity) }
      let version = try commitCommand(message, as: identity, effects: &effects)
      return (.ack(ref: ref, version: version), effects)
    } catch {
      return (.error(ref: ref, error), effects)
    }
  }
}

extension SessionServer {
  /// A copy of this core to go back to when what it does next cannot be committed (see
  /// `SessionHost.runTogether(_:more:)`). Every stored property of the core is a value
  /// (its data source, storage and authenticator aside, which are not its state), so the
  /// copy is the checkpoint: nothing is copied by hand, and nothing can be forgotten.
  /// `SessionCheckpointTests` reflects over the core to keep it so.
  func checkpoint() -> SessionServer { self }

  /// After the checkpoint of a group: the answers to commands with an id and the diffs
  /// kept for resumes wait apart until ``settleGroup()``. Those two only grow, and are
  /// large (65,536 answers, 256 lists of diffs): written into while the checkpoint
  /// shares them, they would be copied whole for every group.
  mutating func holdGroup() {
    answeredCommands.holdNew()
    changeFeed.holdNew()
  }

  /// The group committed and its checkpoint is gone: what waited joins the rest.
  mutating func settleGroup() {
    answeredCommands.settle()
    changeFeed.settle()
  }

  /// The frames that bring `connection` up to date when its queue had to be dropped: its
  /// session's top screen as it is now, or nothing before it said hello. Its lists'
  /// presence is marked changed rather than made here, so it goes out with the next
  /// `presence` of those lists: many queues dropped at once (a thousand viewers that stopped
  /// reading) each computing the list's viewers held the core for minutes at 10,000.
  public mutating func freshScreen(for connection: ConnectionID) -> [OutgoingFrame] {
    guard let token = connections[connection]?.session,
      case .send(let frame, _, _) = screen(of: token, transition: .none, to: [connection])
    else { return [] }
    if let session = sessions[token] {
      presence.changed.insert(session.topList)
      if let beside = session.sidebarList { presence.changed.insert(beside) }
    }
    return [frame]
  }
}
