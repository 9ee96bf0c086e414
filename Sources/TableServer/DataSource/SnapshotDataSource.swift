import TableModel

/// A data source that holds its lists as whole snapshots, in the spirit of
/// `UITableViewDiffableDataSource`: build a `TableSnapshot`, ``apply(_:)`` it from any
/// thread, and every viewer of that list gets the difference as one diff.
///
/// ```swift
/// let lists = SnapshotDataSource(root: TableSnapshot(list: "home", version: 0, title: "Home",
///   sections: [Section(id: "s", rows: [Row(id: "a", text: "Apples")])]))
/// let server = TablewebServer(dataSource: lists)
/// try await server.run()
/// // elsewhere, on any thread:
/// lists.apply(newSnapshotOfHome)
/// ```
///
/// Rows lead to other lists through ``setDestination(_:ofRow:in:)``. Thread-safe.
public final class SnapshotDataSource: TableDataSource, Sendable {
  private struct State {
    var snapshots: [String: TableSnapshot] = [:]
    var destinations: [String: [String: String]] = [:]
    var changed: (@Sendable (String) -> Void)?
  }
  private let state: LockedValue<State>
  private let root: String

  /// - Parameter root: the first list every session sees.
  public init(root: TableSnapshot) {
    self.root = root.list
    state = LockedValue(State(snapshots: [root.list: root]))
  }

  /// Replaces the snapshot of its list (`snapshot.list`), or adds a new list. Viewers of
  /// the list get a diff; its `version` is ignored (the server counts). Any thread.
  public func apply(_ snapshot: TableSnapshot) {
    let changed = state.withLock { state in
      state.snapshots[snapshot.list] = snapshot
      return state.changed
    }
    changed?(snapshot.list)
  }

  /// Removes a list: its viewers go back to the nearest level that still exists.
  public func remove(list: String) {
    let changed = state.withLock { state in
      state.snapshots[list] = nil
      state.destinations[list] = nil
      return state.changed
    }
    changed?(list)
  }

  /// Selecting `row` in `list` pushes `destination` (nil: nothing).
  public func setDestination(_ destination: String?, ofRow row: String, in list: String) {
    state.withLock { $0.destinations[list, default: [:]][row] = destination }
  }

  /// The snapshot last applied to `list`.
  public func snapshot(forList list: String) -> TableSnapshot? {
    state.withLock { $0.snapshots[list] }
  }

  /// Called by the server that serves this data source.
  func onChange(_ handler: @escaping @Sendable (String) -> Void) {
    state.withLock { $0.changed = handler }
  }

  // MARK: - TableDataSource

  /// App-side snapshots: the server hears every ``apply(_:)`` and ``remove(list:)``.
  public var capabilities: DataSourceCapabilities { DataSourceCapabilities(snapshots: self) }

  public func rootList() throws(ProtocolError) -> String { root }

  public func listExists(_ list: String) throws(ProtocolError) -> Bool {
    state.withLock { $0.snapshots[list] != nil }
  }

  public func snapshot(of list: String) throws(ProtocolError) -> TableSnapshot {
    guard let snapshot = state.withLock({ $0.snapshots[list] }) else {
      throw ProtocolError(.notFound, "no list \(list)")
    }
    return snapshot
  }

  public func destination(ofRow row: String, in list: String) throws(ProtocolError) -> String? {
    state.withLock { $0.destinations[list]?[row] }
  }
}
