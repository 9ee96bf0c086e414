import TableModel

/// `hello`, drilling down, `back`, editing mode: what changes one session's stack.
extension SessionServer {
  mutating func sayHello(
    token text: String?, have: ListVersion? = nil, name: String? = nil,
    on connection: ConnectionID, effects: inout [ServerAction]
  )
    throws(ProtocolError)
  {
    guard connections[connection]?.session == nil else {
      throw ProtocolError(.notAllowed, "this connection already joined a session")
    }
    var text = text
    if let known = text.flatMap({ sessions[SessionToken(rawValue: $0)] }),
      known.identity != connections[connection]?.identity
    {
      // Someone else's live session: a credential does not join another's session.
      text = nil
    }
    let identity = connections[connection]?.identity
    var session: Session
    var resumed = true
    var notice: String?
    if let text, SessionToken.isWellFormed(text), let known = sessions[SessionToken(rawValue: text)]
    {
      session = known
    } else if let text, SessionToken.isWellFormed(text),
      let stored = unsavedStacks[SessionToken(rawValue: text)]
        ?? sessionStorage.loadSession(SessionToken(rawValue: text))
    {
      session = Session(token: SessionToken(rawValue: text), stack: stored)
      let removedTitle = stored.levels.first { !listStillExists($0.list) }?.title
      // A level this identity may no longer read goes as a removed one does (its list is
      // not read: no `have` of it is answered with diffs).
      let closedTitle = stored.levels.first { !dataSource.canRead($0.list, for: identity) }?.title
      if try stored.levels[0].list != dataSource.rootList() {
        // The data was replaced (a new import): start over at the new root.
        session.stack = try rootStack(for: identity)
      } else if session.stack.popToExisting(where: {
        dataSource.canRead($0, for: identity) && listStillExists($0)
      }) {
        notice =
          removedTitle.map { "“\($0)” no longer exists." }
          ?? closedTitle.map { "“\($0)” is not open to you." }
      }
      try checkMayRead(session.stack.levels[0].list, as: identity)
    } else {
      resumed = false
      session = Session(token: SessionToken.random(), stack: try rootStack(for: identity))
    }
    // A client coming from another server may hold a version this one has not read yet.
    if have != nil { catchUpWithLog(effects: &effects) }
    try cacheSnapshot(of: session.topList)
    session.connections.append(connection)
    session.identity = identity
    if let name { session.name = name }
    presence.arrived(session.token, isNameless: identity == nil && session.name == nil)
    keep(session)
    connections[connection]?.session = session.token
    save(session)
    // Gapless resume: the diffs the client missed instead of a screen, when all are known.
    let missed =
      resumed && notice == nil ? have.flatMap { missedDiffs(since: $0, on: session) } : nil
    effects.append(
      reply(
        .welcome(
          session: session.token.rawValue, resumed: resumed,
          role: session.identity?.role.rawValue, user: session.identity?.name,
          caughtUp: missed != nil),
        to: connection))
    if let missed {
      for frame in missed { effects.append(.send(frame, to: [connection], kind: .diff)) }
    } else {
      effects.append(screen(of: session.token, transition: .none, to: [connection]))
    }
    if let notice { effects.append(reply(.notice(text: notice), to: connection)) }
  }

  private func rootStack(for identity: AccessIdentity?) throws(ProtocolError) -> NavigationStack {
    let root = try dataSource.rootList()
    try checkMayRead(root, as: identity)
    let title = try currentSnapshot(of: root).title
    return NavigationStack(root: NavigationLevel(list: root, title: title))
  }

  /// `tap`: drill down when the row leads somewhere, pick it in a selection list, or
  /// just acknowledge. Returns the version of `list` when the tap changed it.
  mutating func tapRow(
    _ rowID: String, in list: String, scrollAnchor: String?, session token: SessionToken,
    effects: inout [ServerAction]
  ) throws(ProtocolError) -> Int? {
    let state = try listState(of: list)
    let snapshot = state.snapshot
    let row = try heldRow(rowID, in: list, state: state)
    guard row.isSelectable else {
      throw ProtocolError(.notAllowed, "row \(rowID) cannot be selected")
    }
    if let destination = try dataSource.destination(ofRow: rowID, in: list) {
      try push(
        destination, from: rowID, in: list, scrollAnchor: scrollAnchor, session: token,
        effects: &effects)
      return nil
    }
    guard snapshot.selection != .none else { return nil }
    let identity = sessions[token]?.identity
    try checkMayWrite(list, as: identity)
    return try commit(
      .tap(row: rowID), in: list, as: identity, session: token, effects: &effects)
  }

  /// `accessory`: the detail button pushes the row's child list, as a tap does.
  mutating func tapAccessoryButton(
    ofRow rowID: String, in list: String, scrollAnchor: String?, session token: SessionToken,
    effects: inout [ServerAction]
  ) throws(ProtocolError) -> Int? {
    let row = try heldRow(rowID, in: list, state: try listState(of: list))
    guard row.accessory == .detailDisclosureButton || row.accessory == .detailButton else {
      throw ProtocolError(.notAllowed, "row \(rowID) has no detail button")
    }
    if let destination = try dataSource.destination(ofRow: rowID, in: list) {
      try push(
        destination, from: rowID, in: list, scrollAnchor: scrollAnchor, session: token,
        effects: &effects)
    }
    return nil
  }

  /// Drilling down acts only from the session's top screen (a second tap on a row that
  /// already pushed, a double tap, must not push its child twice), or from the sidebar of
  /// a split session, where the destination replaces the top screen without a slide
  /// (SessionServer+Split).
  private mutating func push(
    _ destination: String, from rowID: String, in list: String, scrollAnchor: String?,
    session token: SessionToken, effects: inout [ServerAction]
  ) throws(ProtocolError) {
    guard var session = sessions[token] else { preconditionFailure("\(token) is not open") }
    let replaced = session.topList != list ? session.topList : nil
    guard replaced == nil || session.sidebarList == list else {
      throw ProtocolError(.notAllowed, "list \(list) is not on this session's top screen")
    }
    try checkMayRead(destination, as: session.identity)
    try cacheSnapshot(of: destination)
    if replaced != nil { _ = session.stack.pop() }
    let title = snapshots[destination]!.title
    session.stack.top.scrollAnchor = scrollAnchor
    session.stack.push(NavigationLevel(list: destination, title: title), from: rowID)
    keep(session)
    save(session)
    if let replaced { forgetSnapshotIfUnviewed(replaced) }
    forgetSnapshotIfUnviewed(list)
    effects.append(
      screen(of: token, transition: replaced == nil ? .push : .none, to: session.connections))
  }

  mutating func goBack(session token: SessionToken, effects: inout [ServerAction])
    throws(ProtocolError)
  {
    guard var session = sessions[token] else { preconditionFailure("\(token) is not open") }
    let left = session.topList
    guard session.stack.pop() else { throw ProtocolError(.notAllowed, "already at the root") }
    try cacheSnapshot(of: session.topList)
    cacheSidebar(of: session)
    keep(session)
    save(session)
    forgetSnapshotIfUnviewed(left)
    effects.append(screen(of: token, transition: .pop, to: session.connections))
  }

  /// Editing mode belongs to the session: every connection of it sees the change, nobody else.
  mutating func setEditing(_ isOn: Bool, session token: SessionToken, effects: inout [ServerAction])
    throws(ProtocolError)
  {
    guard var session = sessions[token] else { preconditionFailure("\(token) is not open") }
    if isOn
      && !(snapshots[session.topList]?.isEditable == true
        && mayWrite(session.topList, session: session))
    {
      throw ProtocolError(.notAllowed, "“\(session.stack.top.title)” cannot be edited")
    }
    guard session.stack.top.isEditing != isOn else { return }
    session.stack.top.isEditing = isOn
    keep(session)
    save(session)
    effects.append(screen(of: token, transition: .none, to: session.connections))
  }

  /// Writes the stack to storage. A failure (a read-only database) costs only resuming
  /// after a restart, so it does not fail the command: the stack is kept in memory.
  mutating func save(_ session: Session) {
    do {
      try sessionStorage.saveSession(session.token, stack: session.stack)
      unsavedStacks[session.token] = nil
    } catch {
      unsavedStacks[session.token] = session.stack
    }
  }
}
