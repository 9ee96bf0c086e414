import TableModel

/// The snapshot of every list on someone's top screen, kept current by the changes made
/// through this server, so a change is diffed without reading the list again.
extension SessionServer {
  /// The list's snapshot: the cached one when someone views it, else read now.
  /// For a long list of a ``WindowedDataSource``, its first rows only (see ``listState(of:)``).
  func currentSnapshot(of list: String) throws(ProtocolError) -> TableSnapshot {
    try listState(of: list).snapshot
  }

  /// The list's snapshot, and for a long list held as its first rows, its section counts.
  func listState(of list: String) throws(ProtocolError) -> (snapshot: TableSnapshot, counts: [Int]?)
  {
    if let cached = snapshots[list] { return (cached, windowCounts[list]) }
    guard try dataSource.listExists(list) else { throw ProtocolError(.notFound, "no list \(list)") }
    return try readListState(of: list)
  }

  /// Reads the list: its first rows when it is long and the data source can say so, else
  /// whole.
  func readListState(of list: String) throws(ProtocolError) -> (
    snapshot: TableSnapshot, counts: [Int]?
  ) {
    if let windowed = capabilities.windows,
      let prefix = try windowed.prefix(of: list, rowLimit: configuration.screenRowLimit),
      prefix.total > configuration.windowedListThreshold
    {
      var snapshot = prefix.snapshot
      if !dataSource.keepsVersions { snapshot.version = listVersions.current(of: list) }
      return (snapshot, prefix.counts)
    }
    return (try readSnapshot(of: list), nil)
  }

  /// The data source's snapshot of `list`, numbered by the server when the data source
  /// does not keep versions.
  func readSnapshot(of list: String) throws(ProtocolError) -> TableSnapshot {
    var snapshot = try dataSource.snapshot(of: list)
    if !dataSource.keepsVersions { snapshot.version = listVersions.current(of: list) }
    return snapshot
  }

  /// Whether `list` exists; when the data source cannot tell, it is taken to exist, so
  /// that a failing database does not pop anyone.
  func listStillExists(_ list: String) -> Bool {
    do {
      return try dataSource.listExists(list)
    } catch {
      diagnostics.report("cannot tell whether list \(list) still exists (\(error)); kept")
      return true
    }
  }

  /// The list's snapshot read now, or nil (and a report) when the data source fails.
  func freshSnapshot(of list: String) -> TableSnapshot? {
    do {
      return try readSnapshot(of: list)
    } catch {
      diagnostics.report("list \(list) could not be read (\(error))")
      return nil
    }
  }

  /// Makes sure the snapshot of a list about to be on someone's top screen is cached.
  mutating func cacheSnapshot(of list: String) throws(ProtocolError) {
    guard snapshots[list] == nil else { return }
    let state = try listState(of: list)
    snapshots[list] = state.snapshot
    windowCounts[list] = state.counts
  }

  /// Drops the cached snapshot of `list` when no session shows it any more.
  mutating func forgetSnapshotIfUnviewed(_ list: String) {
    if !isShown(list) {
      snapshots[list] = nil
      windowCounts[list] = nil
    }
  }
}
