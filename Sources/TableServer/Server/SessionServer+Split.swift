import TableModel

/// Split view (an extension, `UISplitViewController`): a client on a wide window says
/// `layout` with `split`, and from then on every `screen` of its session below the root
/// carries the level beneath the top as `sidebar`, with the row that leads to the top.
/// The sidebar is live: its list's diffs go to the session's connections as the top
/// list's do (the client tells them apart by `list`), and whatever resends a screen of
/// that list resends theirs. A `tap` on a sidebar row replaces the top screen, as
/// `showDetailViewController` does. `split` false (a window narrowed to a phone's width)
/// keeps the stack: only the sidebar goes.
extension SessionServer {
  mutating func setLayout(
    split: Bool, session token: SessionToken, effects: inout [ServerAction]
  ) throws(ProtocolError) {
    guard var session = sessions[token] else { preconditionFailure("\(token) is not open") }
    let shownBeside = session.sidebarList
    session.isSplit = split
    if let list = session.sidebarList { try cacheSnapshot(of: list) }
    keep(session)
    if let shownBeside, !split { forgetSnapshotIfUnviewed(shownBeside) }
    effects.append(screen(of: token, transition: .none, to: session.connections))
  }

  /// The sidebar of `session`'s screens: nil unless it is split and below the root.
  func sidebar(of session: Session) -> ScreenMessage.Sidebar? {
    guard let list = session.sidebarList, var snapshot = snapshots[list] else { return nil }
    if !mayWrite(list, session: session) { snapshot.isEditable = false }
    let levels = session.stack.levels
    var screen = LoadedScreen(
      snapshot: snapshot, backTitle: levels.count > 2 ? levels[levels.count - 3].title : nil,
      isEditing: false, rowLimit: configuration.screenRowLimit)
    if let counts = windowCounts[list] {  // held as its first rows only
      for index in screen.sections.indices { screen.sections[index].count = counts[index] }
    }
    return ScreenMessage.Sidebar(screen: screen, selectedRow: levels[levels.count - 2].selectedRow)
  }

  /// The split sessions that show `list` as their sidebar.
  func sessions(showingBeside list: String) -> [Session] {
    sidebarAudiences[list].map { $0.map { sessions[$0]! } } ?? []
  }

  /// Reads the sidebar list of `session` into the cache if it is not there (a level
  /// popped to); a failure is reported and costs only the sidebar.
  mutating func cacheSidebar(of session: Session) {
    guard let list = session.sidebarList, snapshots[list] == nil else { return }
    do {
      try cacheSnapshot(of: list)
    } catch {
      diagnostics.report("the sidebar \(list) could not be read (\(error))")
    }
  }
}
