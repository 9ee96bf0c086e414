/// What one committed edit did: each list it changed went up by exactly one version, and
/// some lists may be gone. What a data source (the SQLite store among them) tells the
/// server after a commit, and what an app tells it when its own data changed.
///
/// An edit can change more than the list it names: picking in a selection list changes
/// the detail its parent row shows, and deleting a row removes its child lists.
public struct TableChange: Sendable, Hashable {
  /// What the change did to one list.
  public struct ListChange: Sendable, Hashable {
    public var list: String
    /// The list's version after the change: one more than before.
    public var version: Int
    /// The row edits that take the previous version to this one, in order; nil when the
    /// data source cannot say, and the server reads the whole list again.
    public var edits: [RowEdit]?

    public init(list: String, version: Int, edits: [RowEdit]?) {
      self.list = list
      self.version = version
      self.edits = edits
    }
  }

  /// The list the command addressed first, then any other list it changed (a parent whose
  /// row shows the checked option as its detail).
  public var lists: [ListChange]
  /// Lists that no longer exist (child lists deleted with their rows, parents first).
  public var removedLists: [String]

  public init(lists: [ListChange] = [], removedLists: [String] = []) {
    self.lists = lists
    self.removedLists = removedLists
  }

  /// "Read these lists again": each is read whole and diffed against what viewers hold,
  /// as `reloadList` does. For a data source that does not keep its own versions (the
  /// server counts them), so no version is given.
  ///
  /// ```swift
  /// return .reload(list)  // from commit(_:in:), after changing the list's rows
  /// ```
  public static func reload(_ lists: String...) -> TableChange {
    TableChange(lists: lists.map { ListChange(list: $0, version: 0, edits: nil) })
  }

  /// True when the command changed nothing (a switch set to the state it had).
  public var isEmpty: Bool { lists.isEmpty && removedLists.isEmpty }

  /// The change to `list`, if it changed.
  public func change(of list: String) -> TableChange.ListChange? { lists.first { $0.list == list } }

  /// The version of `list` after the change, when it changed.
  public func version(of list: String) -> Int? { change(of: list)?.version }
}
