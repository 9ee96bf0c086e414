import TableModel

/// What a command did to one list: its new version and how its visible rows changed.
public struct ListChange: Sendable, Hashable {
  public var list: String
  /// The list's version after the change: one more than before.
  public var version: Int
  public var edits: [RowEdit]

  public init(list: String, version: Int, edits: [RowEdit]) {
    self.list = list
    self.version = version
    self.edits = edits
  }
}

/// What one command (one transaction) changed: every list whose visible rows changed,
/// each bumped by exactly one version, and the lists that no longer exist.
public struct StoreChange: Sendable, Hashable {
  /// The list the command addressed first, then any other list it changed (a parent
  /// whose row shows the checked option as its detail).
  public var lists: [ListChange]
  /// Child lists deleted with their rows (whole subtrees), parents before children.
  public var removedLists: [String]

  public init(lists: [ListChange] = [], removedLists: [String] = []) {
    self.lists = lists
    self.removedLists = removedLists
  }

  /// True when the command changed nothing (a switch set to the state it had).
  public var isEmpty: Bool { lists.isEmpty && removedLists.isEmpty }

  /// The change to `list`, if it changed.
  public func change(of list: String) -> ListChange? { lists.first { $0.list == list } }
}
