/// How a `screen` replaces the one shown: in place, pushed from the right, popped back.
public enum ScreenTransition: String, Sendable, Hashable, CaseIterable {
  case none
  case push
  case pop
}

/// The `screen` message: the whole top screen of a session's navigation stack.
public struct ScreenMessage: Sendable, Hashable {
  public var transition: ScreenTransition
  /// The titles of the navigation stack, root first; the last is this screen's.
  public var stack: [String]
  public var screen: LoadedScreen
  /// Extension: the id of the row to scroll to the top, where the session left this
  /// level (sent on `pop`); nil to keep the client's choice.
  public var scrollAnchor: String?
  /// Extension: the row that led to the level just popped, which UIKit highlights briefly
  /// as the screen comes back.
  public var selectedRow: String?
  /// Extension, for a client that asked for a split view (`layout`): the level beneath
  /// this one, shown beside it, and the row of it that leads here (highlighted).
  public var sidebar: Sidebar?

  /// The screen a split view shows beside the top one.
  public struct Sidebar: Sendable, Hashable {
    public var screen: LoadedScreen
    public var selectedRow: String?

    public init(screen: LoadedScreen, selectedRow: String?) {
      self.screen = screen
      self.selectedRow = selectedRow
    }
  }

  public init(
    transition: ScreenTransition, stack: [String], screen: LoadedScreen,
    scrollAnchor: String? = nil, selectedRow: String? = nil, sidebar: Sidebar? = nil
  ) {
    precondition(!stack.isEmpty, "a screen's stack holds at least its own title")
    self.transition = transition
    self.stack = stack
    self.screen = screen
    self.scrollAnchor = scrollAnchor
    self.selectedRow = selectedRow
    self.sidebar = sidebar
  }

  /// The number of levels above the root (0 at the root).
  public var depth: Int { stack.count - 1 }
}
