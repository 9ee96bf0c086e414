import TableModel

/// Committing edits and sending what they changed to everyone who sees it.
extension SessionServer {
  /// Commits `edit` to `list` (any list that exists, not only the session's top screen:
  /// ids are stable, so a command sent just before navigating still means the same row).
  /// Returns the version of the list that contains the edit: the new one, or the current
  /// one when the edit changed nothing (a switch set to the state it had).
  mutating func commit(
    _ edit: TableEdit, in list: String, as identity: AccessIdentity?,
    session: SessionToken? = nil, effects: inout [ServerAction]
  ) throws(ProtocolError) -> Int? {
    let (snapshot, counts) = try listState(of: list)
    var positions: RowPositions?
    if counts != nil {
      positions = try checkWindowed(edit, in: list, held: snapshot)
    } else {
      try snapshot.check(edit)
    }
    let change: TableChange
    if let session {
      change = try dataSource.commit(edit, in: list, by: identity, session: session)
    } else {
      change = try dataSource.commit(edit, in: list, by: identity)
    }
    // A logged change goes out from the log, after any change another process committed
    // first; the log knows no positions, so those of a long list's rows go with the read.
    catchUpWithLog(positions: positions, effects: &effects)
    publish(change, positions: positions, effects: &effects)
    return change.version(of: list) ?? (change.lists.isEmpty ? snapshot.version : nil)
  }

  /// One diff per changed list, encoded once, to every connection whose session shows
  /// that list on top; then every session that stood on a removed list is popped.
  /// `read` is a list's snapshot already read since the change, so it is not read again;
  /// `positions`, where the rows an edit named stood before it (for a long list held as
  /// its first rows: SessionServer+Windows).
  mutating func publish(
    _ change: TableChange, read: TableSnapshot? = nil, positions: RowPositions? = nil,
    effects: inout [ServerAction]
  ) {
    var change = change
    if !dataSource.keepsVersions {
      // The server counts: each changed list goes up by one.
      for index in change.lists.indices {
        change.lists[index].version = listVersions.bump(change.lists[index].list)
      }
      for list in change.removedLists { listVersions.forget(list) }
    }
    for listChange in change.lists {
      guard let old = snapshots[listChange.list] else { continue }  // nobody is looking
      // Already published (read from the change log).
      if dataSource.keepsVersions, old.version >= listChange.version { continue }
      publishSearchResults(of: listChange.list, effects: &effects)
      if windowCounts[listChange.list] != nil {
        publishWindowed(
          listChange, old: old, positions: positions, effects: &effects)
        continue
      }
      let viewers = unsearchedViewers(of: listChange.list)
      let alreadyRead = read?.list == listChange.list ? read : nil
      guard let new = advance(old, by: listChange, read: alreadyRead) else {
        // The data source skipped versions or could not say how: resend the screens.
        snapshots[listChange.list] = freshSnapshot(of: listChange.list)
        for session in sessions(showing: listChange.list) + sessions(showingBeside: listChange.list)
        where snapshots[session.topList] != nil {
          effects.append(screen(of: session.token, transition: .none, to: session.connections))
        }
        continue
      }
      snapshots[listChange.list] = new
      let ops: [DiffOp]
      do {
        ops = try TableDiff.ops(from: old.sections, to: new.sections)
      } catch {
        // Only a snapshot with duplicate ids makes no diff: resend the screens.
        diagnostics.report("list \(listChange.list) cannot be diffed (\(error)); screens resent")
        for session in sessions(showing: listChange.list) + sessions(showingBeside: listChange.list)
        {
          effects.append(screen(of: session.token, transition: .none, to: session.connections))
        }
        continue
      }
      let diff = TableDiff(list: new.list, from: old.version, ops: ops)
      let diffFrame = frame(for: .diff(diff))
      changeFeed.remember(diffFrame, list: new.list, from: old.version)
      effects.append(.send(diffFrame, to: viewers, kind: .diff))
    }
    if !change.removedLists.isEmpty {
      popSessions(standingOn: Set(change.removedLists), effects: &effects)
    }
    if !historyWatchers.isEmpty, capabilities.changeLog != nil {
      for listChange in change.lists where historyWatchers[listChange.list] != nil {
        pushHistory(of: listChange.list, version: listChange.version, effects: &effects)
      }
    }
  }

  /// The app changed `list` (its data source answers differently now): every viewer gets
  /// one diff, from the cached snapshot to the new one. With `edits` (the rows inserted,
  /// deleted, moved or changed, by id) the cached snapshot is changed without reading the
  /// list again; without them the list is read again and diffed, and a reload that changed
  /// nothing sends nothing. A list that no longer exists pops its viewers.
  public mutating func listChanged(_ list: String, edits: [RowEdit]?) -> [ServerAction] {
    withPresence(changeList(list, edits: edits), at: .now)
  }

  private mutating func changeList(_ list: String, edits: [RowEdit]?) -> [ServerAction] {
    var effects: [ServerAction] = []
    guard listStillExists(list) else {
      publish(TableChange(removedLists: [list]), effects: &effects)
      return effects
    }
    if windowCounts[list] != nil, let old = snapshots[list] {
      // A long list is not read whole to see what changed, and rows placed now may have
      // moved on since the app's edits: its viewers get it anew.
      if dataSource.keepsVersions {
        refreshWindow(of: list, version: nil, resend: false, effects: &effects)
        guard let current = snapshots[list]?.version, current != old.version else { return [] }
        refreshWindow(of: list, version: current, resend: true, effects: &effects)
      } else {
        refreshWindow(of: list, version: listVersions.bump(list), resend: true, effects: &effects)
      }
      return effects
    }
    // Read once: to see whether anything changed, for its version, and to diff against.
    var fresh: TableSnapshot?
    if edits == nil || dataSource.keepsVersions {
      fresh = freshSnapshot(of: list)
      if edits == nil, let cached = snapshots[list] {
        guard let fresh, fresh != cached else { return [] }
        if dataSource.keepsVersions, fresh.version == cached.version { return [] }
      }
    }
    // A server-counted version is stamped by `publish`.
    let version = dataSource.keepsVersions ? (fresh?.version ?? 0) : 0
    publish(
      TableChange(lists: [TableChange.ListChange(list: list, version: version, edits: edits)]),
      read: edits == nil ? fresh : nil, effects: &effects)
    return effects
  }

  /// `old` with the change applied, or nil when the change does not follow it directly.
  /// Without edits the list is read, unless `read` already holds it.
  private func advance(
    _ old: TableSnapshot, by change: TableChange.ListChange, read: TableSnapshot?
  ) -> TableSnapshot? {
    guard change.version == old.version + 1 else { return nil }
    guard let edits = change.edits else {
      var fresh = read ?? freshSnapshot(of: change.list)
      // Read before `publish` counted the change: it is the new version's content.
      if read != nil, !dataSource.keepsVersions { fresh?.version = change.version }
      guard let fresh, fresh.version == change.version else { return nil }
      return fresh
    }
    var new = old
    do {
      try new.apply(edits)
    } catch {
      diagnostics.report(
        "the edits to list \(change.list) v\(change.version) do not fit its snapshot (\(error)); read again"
      )
      return nil
    }
    new.version = change.version
    return new
  }

  /// Pops every session whose stack holds a removed list to the deepest level that still
  /// exists, with a `notice` naming what went away.
  private mutating func popSessions(standingOn removed: Set<String>, effects: inout [ServerAction])
  {
    for list in removed {
      snapshots[list] = nil
      windowCounts[list] = nil
    }
    let server = self
    let exists = { (list: String) in !removed.contains(list) && server.listStillExists(list) }
    for token in sessions.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
      guard var session = sessions[token] else { continue }
      guard let gone = session.stack.levels.dropFirst().first(where: { !exists($0.list) }) else {
        continue
      }
      let left = session.topList
      session.stack.popToExisting(where: exists)
      guard
        show(
          session, token, transition: .pop, notice: "“\(gone.title)” was deleted.", after: "a pop",
          effects: &effects)
      else { continue }
      forgetSnapshotIfUnviewed(left)
    }
  }

  /// Keeps and saves a session whose stack the server changed, then sends it its top
  /// screen and `notice`. False (and a report) when that screen cannot be read.
  mutating func show(
    _ session: Session, _ token: SessionToken, transition: ScreenTransition, notice: String,
    after cause: String, effects: inout [ServerAction]
  ) -> Bool {
    keep(session)
    save(session)
    do {
      try cacheSnapshot(of: session.topList)
    } catch {
      diagnostics.report("list \(session.topList) could not be read after \(cause) (\(error))")
      return false
    }
    cacheSidebar(of: session)
    effects.append(screen(of: token, transition: transition, to: session.connections))
    effects.append(reply(.notice(text: notice), to: session.connections))
    return true
  }
}

/// Where the rows an edit named stood in `list` just before it was committed, at the
/// list's `version` then (nil when the data source does not say).
struct RowPositions {
  var list: String
  var version: Int?
  var before: [String: TableIndexPath]
}
