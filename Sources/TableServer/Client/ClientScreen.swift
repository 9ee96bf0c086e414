import TableModel

/// The screen a client shows: the last `screen` message with every diff and fetched row
/// since applied (``LoadedScreen``'s prefix applier does the work), and the stack titles.
public struct ClientScreen: Sendable, Equatable {
  public var loaded: LoadedScreen
  /// The navigation stack's titles, root first.
  public var stack: [String]

  public init(_ message: ScreenMessage) {
    loaded = message.screen
    stack = message.stack
  }

  public var list: String { loaded.list }
  public var version: Int { loaded.version }

  /// The rows loaded so far, in order, with their section.
  public var loadedRows: [(section: LoadedSection, row: Row)] {
    loaded.sections.flatMap { section in section.rows.map { (section, $0) } }
  }

  /// The first section not fully loaded, and where its missing rows start.
  public var firstIncompleteSection: (section: LoadedSection, from: Int)? {
    loaded.sections.first { !$0.isComplete }.map { ($0, $0.rows.count) }
  }
}
