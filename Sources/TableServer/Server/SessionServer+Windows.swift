import TableModel

/// Long lists at the cost of what is on screen.
///
/// A list of a ``WindowedDataSource`` longer than
/// ``SessionServerConfiguration/windowedListThreshold`` is held as its first screen of
/// rows and its section counts (`snapshots` and `windowCounts`), never read whole: a
/// screen is that prefix with the counts, a `fetch` reads its window from the data
/// source, a row named by a command is read by id. A change is diffed from the data
/// source's edits by position: where each named row stood before the commit and stands
/// after it. Such a diff names every changed row by its index in the whole list, as
/// every diff does, so it is exact for whatever window a viewer holds (changes outside it
/// move `count` and positions only). When the edits cannot be placed (a data source that
/// does not say, rows hidden or shown by a switch) the viewers get the screen again.
extension SessionServer {
  var windowedSource: (any WindowedDataSource)? { capabilities.windows }

  /// The row `id` of `list`, from its held snapshot or, for a long list, by id.
  func heldRow(_ id: String, in list: String, state: (snapshot: TableSnapshot, counts: [Int]?))
    throws(ProtocolError) -> Row
  {
    guard state.counts != nil, let windowed = windowedSource else {
      return try state.snapshot.row(id)
    }
    guard let row = try windowed.row(id, in: list) else {
      throw ProtocolError(.notFound, "no row \(id) in list \(list)")
    }
    return row
  }

  /// Checks `edit` against a long list as `TableSnapshot.check(_:)` does against a
  /// whole one (the rows it names read by id), and returns where those rows stand now.
  func checkWindowed(_ edit: TableEdit, in list: String, held: TableSnapshot)
    throws(ProtocolError) -> RowPositions
  {
    guard let windowed = windowedSource else {
      return RowPositions(list: list, version: nil, before: [:])
    }
    let version = try windowed.currentVersion(of: list)
    var probe = held
    for index in probe.sections.indices { probe.sections[index].rows = [] }
    var positions: [String: TableIndexPath] = [:]
    for id in edit.namedRows where positions[id] == nil {
      guard let at = try windowed.indexPath(ofRow: id, in: list),
        probe.sections.indices.contains(at.section), let row = try windowed.row(id, in: list)
      else { continue }
      probe.sections[at.section].rows.append(row)
      positions[id] = at
    }
    try probe.check(edit)
    return RowPositions(list: list, version: version, before: positions)
  }

  /// One diff for a change to a long list, from its edits: deletions and move sources
  /// where the rows stood before (`positions`, read at the version before this change),
  /// the rest where they stand now, which must be this change's version (nothing
  /// committed since). Otherwise, or for a data source that keeps no versions, viewers get
  /// their screen again. The held first rows are read again when the change touches them.
  mutating func publishWindowed(
    _ change: TableChange.ListChange, old: TableSnapshot, positions: RowPositions?,
    effects: inout [ServerAction]
  ) {
    var before: [String: TableIndexPath] = [:]
    if let positions, positions.list == change.list, positions.version == change.version - 1 {
      before = positions.before
    }
    guard dataSource.keepsVersions, change.version == old.version + 1, let edits = change.edits,
      let ops = windowOps(edits, in: change.list, before: before),
      placedAt(change.version, list: change.list)
    else {
      refreshWindow(of: change.list, version: change.version, resend: true, effects: &effects)
      return
    }
    if ops.contains(where: { touchesFirstRows($0) }) {
      refreshWindow(of: change.list, version: change.version, resend: false, effects: &effects)
    } else {
      // The held first rows are as they were: only the counts and the version move on.
      var counts = windowCounts[change.list] ?? []
      for op in ops {
        switch op {
        case .delete(let at): counts[at.section] -= 1
        case .insert(let at, _): counts[at.section] += 1
        case .move(let from, let to):
          counts[from.section] -= 1
          counts[to.section] += 1
        default: break
        }
      }
      windowCounts[change.list] = counts
      snapshots[change.list]?.version = change.version
    }
    let diffFrame = frame(for: .diff(TableDiff(list: change.list, from: old.version, ops: ops)))
    changeFeed.remember(diffFrame, list: change.list, from: old.version)  // for resumes
    effects.append(.send(diffFrame, to: unsearchedViewers(of: change.list), kind: .diff))
  }

  /// Whether `list` is still at `version`, so positions read now are that version's.
  private func placedAt(_ version: Int, list: String) -> Bool {
    do {
      return try windowedSource?.currentVersion(of: list) == version
    } catch {
      diagnostics.report("the version of list \(list) could not be read (\(error))")
      return false
    }
  }

  /// Whether `op` changes rows a screen holds: any row placed or removed among the first
  /// `screenRowLimit` of its section (or right after them, in a section that short).
  private func touchesFirstRows(_ op: DiffOp) -> Bool {
    let limit = configuration.screenRowLimit
    switch op {
    case .delete(let at), .insert(let at, _), .update(let at, _): return at.row < limit
    case .move(let from, let to): return from.row < limit || to.row < limit
    case .deleteSection, .insertSection, .updateSection: return true
    }
  }

  /// The ops for `edits`: deletions and move sources where the rows stood before, the
  /// rest where they stand now. Nil when a row cannot be placed.
  private func windowOps(_ edits: [RowEdit], in list: String, before: [String: TableIndexPath])
    -> [DiffOp]?
  {
    guard let windowed = windowedSource else { return nil }
    func now(_ id: String) -> TableIndexPath? {
      do {
        return try windowed.indexPath(ofRow: id, in: list)
      } catch {
        diagnostics.report("row \(id) of list \(list) could not be placed (\(error))")
        return nil
      }
    }
    var ops: [DiffOp] = []
    for edit in edits {
      switch edit {
      case .delete(let id):
        guard let at = before[id] else { return nil }
        ops.append(.delete(at: at))
      case .insert(let row, _, _):
        guard let at = now(row.id) else { return nil }
        ops.append(.insert(at: at, row: row))
      case .move(let id, _, _):
        guard let from = before[id], let to = now(id) else { return nil }
        ops.append(.move(from: from, to: to))
      case .update(let row):
        guard let at = now(row.id) else { return nil }
        ops.append(.update(at: at, row: row))
      }
    }
    return ops
  }

  /// Reads a long list's first rows and counts again, at `version` (nil: the one the data
  /// source says); with `resend`, every viewer gets its screen anew.
  mutating func refreshWindow(
    of list: String, version: Int?, resend: Bool, effects: inout [ServerAction]
  ) {
    do {
      if let prefix = try windowedSource?.prefix(of: list, rowLimit: configuration.screenRowLimit) {
        var snapshot = prefix.snapshot
        if let version { snapshot.version = version }
        snapshots[list] = snapshot
        windowCounts[list] = prefix.counts
      }
    } catch {
      diagnostics.report("list \(list) could not be read (\(error))")
    }
    guard resend else { return }
    for session in sessions(showing: list) + sessions(showingBeside: list) {
      effects.append(screen(of: session.token, transition: .none, to: session.connections))
    }
  }
}

extension TableEdit {
  /// The ids of the existing rows the edit names.
  var namedRows: [String] {
    switch self {
    case .insert(_, let after, _): return after.map { [$0] } ?? []
    case .delete(let rows): return rows
    case .move(let row, _, let after): return [row] + (after.map { [$0] } ?? [])
    case .update(let row, _, _, _, _), .toggle(let row, _), .tap(let row), .action(let row, _):
      return [row]
    }
  }
}
