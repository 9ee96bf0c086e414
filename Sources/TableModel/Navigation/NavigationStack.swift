/// A session's navigation stack, as a `UINavigationController` holds it: the root list
/// first, the screen on top last. It is never empty.
public struct NavigationStack: Sendable, Hashable {
  public private(set) var levels: [NavigationLevel]

  public init(root: NavigationLevel) {
    levels = [root]
  }

  /// Restores a stack from stored levels; nil when there are none.
  public init?(levels: [NavigationLevel]) {
    guard !levels.isEmpty else { return nil }
    self.levels = levels
  }

  public var top: NavigationLevel {
    get { levels[levels.count - 1] }
    set { levels[levels.count - 1] = newValue }
  }

  /// The number of levels above the root (0 at the root).
  public var depth: Int { levels.count - 1 }

  /// The titles, root first: the `stack` of the `screen` message.
  public var titles: [String] { levels.map(\.title) }

  /// The previous level's title, for the back button; nil at the root.
  public var backTitle: String? { levels.count > 1 ? levels[levels.count - 2].title : nil }

  /// Pushes `level`, remembering which row of the current top led there.
  public mutating func push(_ level: NavigationLevel, from row: String?) {
    top.selectedRow = row
    levels.append(level)
  }

  /// Pops the top level; false (and no change) at the root.
  @discardableResult
  public mutating func pop() -> Bool {
    guard levels.count > 1 else { return false }
    levels.removeLast()
    return true
  }

  /// Pops until the top shows `list`; false (and no change) when no level shows it.
  @discardableResult
  public mutating func pop(to list: String) -> Bool {
    guard let index = levels.lastIndex(where: { $0.list == list }) else { return false }
    levels.removeSubrange((index + 1)...)
    return true
  }

  /// Pops to the nearest level that still exists, as protocol-core asks when a list
  /// disappears: the first level above the root whose list `exists` rejects goes, and
  /// every level above it, even those that still exist. Returns whether anything was cut.
  /// The root is always kept.
  @discardableResult
  public mutating func popToExisting(where exists: (String) -> Bool) -> Bool {
    guard let firstMissing = levels.indices.dropFirst().first(where: { !exists(levels[$0].list) })
    else { return false }
    levels.removeSubrange(firstMissing...)
    return true
  }
}
