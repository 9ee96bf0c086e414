/// The top screen of one session's navigation stack, as the `screen` message sends it:
/// a list's snapshot plus what belongs to that session.
public struct Screen: Sendable, Hashable {
  public var snapshot: TableSnapshot
  /// The previous level's title, for the back button; nil at the root.
  public var backTitle: String?
  /// Whether this session has the table in editing mode.
  public var isEditing: Bool
  /// How many rows of each section are sent; the client fetches the rest.
  public var rowLimit: Int

  public init(snapshot: TableSnapshot, backTitle: String?, isEditing: Bool, rowLimit: Int = 300) {
    self.snapshot = snapshot
    self.backTitle = backTitle
    self.isEditing = isEditing
    self.rowLimit = rowLimit
  }
}
