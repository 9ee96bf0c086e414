import TableModel

/// The snapshot of every list on someone's top screen, kept current by the changes made
/// through this server, so a change is diffed without reading the list again.
extension SessionServer {
  /// The list's snapshot: the cached one when someone views it, else read now.
  func currentSnapshot(of list: String) throws(ProtocolError) -> TableSnapshot {
    if let cached = snapshots[list] { return cached }
    guard try dataSource.listExists(list) else { throw ProtocolError(.notFound, "no list \(list)") }
    return try readSnapshot(of: list)
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
      ServerDiagnostics.report("cannot tell whether list \(list) still exists (\(error)); kept")
      return true
    }
  }

  /// The list's snapshot read now, or nil (and a report) when the data source fails.
  func freshSnapshot(of list: String) -> TableSnapshot? {
    do {
      return try readSnapshot(of: list)
    } catch {
      ServerDiagnostics.report("list \(list) could not be read (\(error))")
      return nil
    }
  }

  /// Makes sure the snapshot of a list about to be on someone's top screen is cached.
  mutating func cacheSnapshot(of list: String) throws(ProtocolError) {
    guard snapshots[list] == nil else { return }
    snapshots[list] = try currentSnapshot(of: list)
  }

  /// Drops the cached snapshot of `list` when no session shows it any more.
  mutating func forgetSnapshotIfUnviewed(_ list: String) {
    if !isShown(list) { snapshots[list] = nil }
  }
}
