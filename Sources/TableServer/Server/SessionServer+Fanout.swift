import TableModel

/// Committing edits and sending what they changed to everyone who sees it.
extension SessionServer {
  /// Commits `edit` to `list` (any list that exists, not only the session's top screen:
  /// ids are stable, so a command sent just before navigating still means the same row).
  /// Returns the version of the list that contains the edit: the new one, or the current
  /// one when the edit changed nothing (a switch set to the state it had).
  mutating func commit(
    _ edit: TableEdit, in list: String, by token: SessionToken, effects: inout [ServerAction]
  ) throws(ProtocolError) -> Int? {
    let snapshot = try currentSnapshot(of: list)
    try snapshot.check(edit)
    let change = try dataSource.commit(edit, in: list, by: sessions[token]?.identity)
    publish(change, effects: &effects)
    return change.version(of: list) ?? (change.lists.isEmpty ? snapshot.version : nil)
  }

  /// One diff per changed list, encoded once, to every connection whose session shows
  /// that list on top; then every session that stood on a removed list is popped.
  mutating func publish(_ change: TableChange, effects: inout [ServerAction]) {
    for listChange in change.lists {
      guard let old = snapshots[listChange.list] else { continue }  // nobody is looking
      let viewers = viewers(of: listChange.list)
      guard let new = advance(old, by: listChange) else {
        // The data source skipped versions or could not say how: resend the screens.
        snapshots[listChange.list] = freshSnapshot(of: listChange.list)
        for session in sessions(showing: listChange.list) where snapshots[session.topList] != nil {
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
        ServerDiagnostics.report("list \(listChange.list) cannot be diffed (\(error)); screens resent")
        for session in sessions(showing: listChange.list) {
          effects.append(screen(of: session.token, transition: .none, to: session.connections))
        }
        continue
      }
      let diff = TableDiff(list: new.list, from: old.version, ops: ops)
      effects.append(.send(frame(for: .diff(diff)), to: viewers, kind: .diff))
    }
    if !change.removedLists.isEmpty {
      popSessions(standingOn: Set(change.removedLists), effects: &effects)
    }
  }

  /// `old` with the change applied, or nil when the change does not follow it directly.
  private func advance(_ old: TableSnapshot, by change: TableChange.ListChange) -> TableSnapshot? {
    guard change.version == old.version + 1 else { return nil }
    guard let edits = change.edits else {
      guard let fresh = freshSnapshot(of: change.list), fresh.version == change.version else {
        return nil
      }
      return fresh
    }
    var new = old
    do {
      try new.apply(edits)
    } catch {
      ServerDiagnostics.report(
        "the edits to list \(change.list) v\(change.version) do not fit its snapshot (\(error)); read again")
      return nil
    }
    new.version = change.version
    return new
  }

  /// Pops every session whose stack holds a removed list to the deepest level that still
  /// exists, with a `notice` naming what went away.
  private mutating func popSessions(standingOn removed: Set<String>, effects: inout [ServerAction])
  {
    for list in removed { snapshots[list] = nil }
    let server = self
    let exists = { (list: String) in !removed.contains(list) && server.listStillExists(list) }
    for token in sessions.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
      guard var session = sessions[token] else { continue }
      guard let gone = session.stack.levels.dropFirst().first(where: { !exists($0.list) }) else {
        continue
      }
      let left = session.topList
      session.stack.popToExisting(where: exists)
      keep(session)
      save(session)
      do {
        try cacheSnapshot(of: session.topList)
      } catch {
        ServerDiagnostics.report("list \(session.topList) could not be read after a pop (\(error))")
        continue
      }
      forgetSnapshotIfUnviewed(left)
      effects.append(screen(of: token, transition: .pop, to: session.connections))
      effects.append(
        .send(
          frame(for: .notice(text: "“\(gone.title)” was deleted.")), to: session.connections,
          kind: .reply))
    }
  }
}
