import TableModel

/// What one committed edit did: each list it changed went up by exactly one version.
///
/// An edit can change more than the list it names: picking in a selection list changes
/// the detail its parent row shows, and deleting a row removes its child lists.
public struct TableChange: Sendable, Hashable {
  public struct ListChange: Sendable, Hashable {
    public var list: String
    /// The list's version after the change.
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

  public var lists: [ListChange]
  /// Lists that no longer exist.
  public var removedLists: [String]

  public init(lists: [ListChange], removedLists: [String] = []) {
    self.lists = lists
    self.removedLists = removedLists
  }

  /// The version of `list` after the change, when it changed.
  public func version(of list: String) -> Int? {
    lists.first { $0.list == list }?.version
  }
}
