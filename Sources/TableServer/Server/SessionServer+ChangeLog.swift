import TableModel
import TableStore

/// Changes made by other processes, read from the change log, and gapless resume.
///
/// Every change to a logged data source (the SQLite store) is published from the log, in
/// log order: after each of its own commits the server reads the log (which then holds
/// any change another process committed before, then its own), and a watcher
/// (`ChangeWatch`) makes it read the log when another process committed. An entry whose
/// version a cached snapshot already has was published before (the server's own commit,
/// read again) and is skipped, so each version goes out once, in order; an entry that
/// does not follow the snapshot (the log was pruned past it) makes `publish` read the list
/// and resend screens. Lists nobody here views are skipped: they are read when shown.
extension SessionServer {
  /// Reads the change log from where this server left off and publishes what it finds.
  /// - Important: Must be called on the service thread (`SessionHost` does).
  public mutating func catchUpWithLog() -> [ServerAction] {
    var effects: [ServerAction] = []
    catchUpWithLog(effects: &effects)
    return withPresence(effects, at: .now)
  }

  /// `positions`: where the rows of the command just committed stood (a long list's,
  /// which the log does not know), for the entries read now.
  mutating func catchUpWithLog(positions: RowPositions? = nil, effects: inout [ServerAction]) {
    guard let log = capabilities.changeLog else { return }
    do {
      guard var position = changeFeed.logPosition else {
        changeFeed.logPosition = try log.logHighWater()
        return
      }
      while true {
        // Entries of versions already published (this server's own commits, read back)
        // or of lists nobody here shows are skipped by `publish`: not decoded either.
        let snapshots = self.snapshots
        let entries = try log.logEntries(after: position) { list, version in
          guard let version else { return false }  // a removal or an import: no edits
          guard let cached = snapshots[list] else { return true }
          return cached.version >= version
        }
        for entry in entries {
          publish(entry, positions: positions, effects: &effects)
          position = entry.id
          changeFeed.logPosition = position
        }
        // A short batch was the whole log then (one read, not two, per catch-up; on
        // PostgreSQL each is a transaction): what is committed later triggers another.
        if entries.count < Store.logBatch { return }
      }
    } catch {
      diagnostics.report("the change log could not be read (\(error))")
    }
  }

  /// Gives the log reader a position (the log's end) when it has none yet, so that a
  /// checkpoint of this core (``checkpoint()``) knows where to read from: a core restored
  /// to it then reads what was committed since, rather than starting at the end again.
  mutating func anchorLogPosition() {
    guard changeFeed.logPosition == nil, let log = capabilities.changeLog else {
      return
    }
    do {
      changeFeed.logPosition = try log.logHighWater()
    } catch {
      diagnostics.report("the change log could not be read (\(error))")
    }
  }

  /// Whether reading the log now would publish nothing for these announcements
  /// (`list:version`, one per change-log entry, see `ChangeListener`): each names a
  /// version this server's snapshot of the list already has (its own commit, published as
  /// it was made), or a list nobody here views. An announcement of anything else — no
  /// version (a list removed, an import), a list in some session's stack but not cached,
  /// a newer version — or no log position yet means the log must be read.
  func hasPublished(_ announcements: [String]) -> Bool {
    guard changeFeed.logPosition != nil else { return false }
    return announcements.allSatisfy { announcement in
      guard let colon = announcement.lastIndex(of: ":"),
        let version = Int(announcement[announcement.index(after: colon)...])
      else { return false }
      let list = String(announcement[..<colon])
      guard let cached = snapshots[list] else { return !isInSomeStack(list) }
      return cached.version >= version
    }
  }

  private mutating func publish(
    _ entry: Store.LogEntry, positions: RowPositions?, effects: inout [ServerAction]
  ) {
    switch entry.kind {
    case .edits:
      guard let version = entry.version, let cached = snapshots[entry.list],
        cached.version < version
      else { return }
      publish(
        TableChange(lists: [
          TableChange.ListChange(list: entry.list, version: version, edits: entry.edits)
        ]), positions: positions, effects: &effects)
    case .removed:
      guard snapshots[entry.list] != nil || isInSomeStack(entry.list) else { return }
      publish(TableChange(removedLists: [entry.list]), effects: &effects)
    case .replaced:
      dataWasReplaced(effects: &effects)
      for list in historyWatchers.keys { pushHistory(of: list, version: nil, effects: &effects) }
    }
  }

  private func isInSomeStack(_ list: String) -> Bool {
    sessions.values.contains { session in session.stack.levels.contains { $0.list == list } }
  }

  /// An import replaced everything: every session is shown its screen as it is now (at
  /// the new root when its root is gone, else at the deepest level that still exists),
  /// with a `notice`, never a silent gap.
  private mutating func dataWasReplaced(effects: inout [ServerAction]) {
    snapshots = [:]
    changeFeed.forgetHistory()
    let root: String
    do {
      root = try dataSource.rootList()
    } catch {
      diagnostics.report("the root list could not be read after an import (\(error))")
      return
    }
    for token in sessions.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
      guard var session = sessions[token] else { continue }
      if session.stack.levels[0].list != root {
        guard let title = freshSnapshot(of: root)?.title else { continue }
        session.stack = NavigationStack(root: NavigationLevel(list: root, title: title))
      } else {
        session.stack.popToExisting(where: listStillExists)
      }
      _ = show(
        session, token, transition: .none, notice: "The data was replaced; this is how it is now.",
        after: "an import", effects: &effects)
    }
  }

  /// How many rows, summed over the steps, a resume may replay from the log.
  static let mostRowsReplayed = 2_000_000

  /// The diffs that take a client holding `have` to the session's top screen as it is
  /// now, or nil when they cannot all be made (then it gets a `screen`). From the diffs
  /// this server sent recently, else rebuilt from the change log: the snapshot at `have`
  /// is made by undoing the log's entries on the current one, then the entries are
  /// replayed and each step diffed.
  mutating func missedDiffs(since have: ListVersion, on session: Session) -> [OutgoingFrame]? {
    // A searching session holds results, not the list: it gets a screen.
    guard have.list == session.topList, searches.query(of: session) == nil,
      let current = snapshots[have.list],
      have.version <= current.version
    else { return nil }
    if let remembered = changeFeed.diffs(of: have.list, from: have.version, to: current.version) {
      return remembered
    }
    // A long list is held as its first rows only: it cannot be rebuilt from the log.
    guard let log = capabilities.changeLog, windowCounts[have.list] == nil else {
      return nil
    }
    do {
      guard
        let entries = try log.logEntries(
          of: have.list, after: have.version, upTo: current.version),
        // Each step is a diff of the whole list on the service thread: a long list far
        // behind costs less as a screen (which is also sent in windows).
        entries.count * max(current.numberOfRows, 1) <= Self.mostRowsReplayed
      else { return nil }
      var snapshot = current
      for entry in entries.reversed() {
        guard let edits = entry.edits, let prior = entry.prior else { return nil }
        snapshot = try snapshot.undoing(edits, prior: prior)
      }
      var frames: [OutgoingFrame] = []
      for entry in entries {
        var next = snapshot
        try next.apply(entry.edits ?? [])
        next.version = snapshot.version + 1
        let ops = try TableDiff.ops(from: snapshot.sections, to: next.sections)
        frames.append(
          frame(for: .diff(TableDiff(list: have.list, from: snapshot.version, ops: ops))))
        snapshot = next
      }
      guard snapshot.sections == current.sections else {
        diagnostics.report(
          "list \(have.list) replayed from the log differs from its snapshot")
        return nil
      }
      return frames
    } catch {
      diagnostics.report("list \(have.list) could not be rebuilt from the log (\(error))")
      return nil
    }
  }
}
