/// One level of a navigation stack: a list shown as a screen, and this session's state on it.
public struct NavigationLevel: Sendable, Hashable {
  /// The list shown; levels are keyed by list id, never by position.
  public var list: String
  /// The screen's title when it was pushed (for the back button of the level above).
  public var title: String
  /// The row tapped to push the level above this one, so that returning highlights it.
  public var selectedRow: String?
  public var isEditing: Bool
  /// The id of the first visible row, so that returning restores the scroll position.
  public var scrollAnchor: String?

  public init(
    list: String, title: String, selectedRow: String? = nil, isEditing: Bool = false,
    scrollAnchor: String? = nil
  ) {
    self.list = list
    self.title = title
    self.selectedRow = selectedRow
    self.isEditing = isEditing
    self.scrollAnchor = scrollAnchor
  }
}
