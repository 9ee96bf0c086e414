/// A command from a client. Rows, sections and positions are named by id, never by
/// index, so that a command means the same while other people edit the list.
///
/// On the wire every command may carry an integer `ref`, which the server's `ack` or
/// `error` repeats; it travels beside the message (see ``ClientMessage/decode(_:)-(String)``
/// and ``ClientMessage/serialized(ref:)``).
public enum ClientMessage: Sendable, Hashable {
  /// Opens or resumes a session: `session` is the token of an earlier `welcome`, nil for
  /// a new one. `client` (an extension) names the client program, for the server's log.
  /// `access` (v1.1) is the credential, when the server requires one. `have` (v1.1) is
  /// the top list the client shows and its version: a server that can still send every
  /// diff since answers with them instead of a `screen` (gapless resume).
  /// `name` (an extension, Presence) is what others see the client as, at most 64
  /// characters; an access grant's name wins over it.
  case hello(
    session: String?, client: String? = nil, access: String? = nil, have: ListVersion? = nil,
    name: String? = nil)
  /// Selects a row: drill down, check it in a selection list, or only feedback.
  /// `scrollAnchor` (an extension) is the first visible row of the screen being left.
  case tap(list: String, row: String, scrollAnchor: String? = nil)
  /// The row's detail (info) button.
  case accessory(list: String, row: String, scrollAnchor: String? = nil)
  /// Pops one level.
  case back
  /// Enters or leaves editing mode, for this session only.
  case editing(isOn: Bool)
  /// Deletes one or more rows.
  case delete(list: String, rows: [String])
  /// Inserts a row into `section` after the row `after`, or first when it is nil.
  case insert(list: String, section: String, after: String?, row: NewRow)
  /// Moves `row` into `section` after the row `after`, or first when it is nil.
  case move(list: String, row: String, section: String, after: String?)
  /// Flips a row's switch.
  case toggle(list: String, row: String, isOn: Bool)
  /// New content for a row; what `edit` leaves out stays as it is.
  case update(list: String, row: String, edit: RowUpdate)
  /// Asks for rows `from..<from + count` of a long section.
  case fetch(list: String, section: String, from: Int, count: Int)
  /// Asks for the top screen again.
  case reload
  /// Filters `list` (the session's top screen, a searchable one) to the rows matching
  /// `query`; an empty query ends the search (v1.1).
  case search(list: String, query: String)
  /// Performs the list's row action `action` (an extension: a swipe action or a context
  /// menu item) on `row`.
  case action(list: String, row: String, action: String)
  /// Says whether the client shows a split view (an extension): with `split`, every
  /// `screen` below the root carries the level beneath it as a sidebar, kept live.
  case layout(split: Bool)
  /// Undoes the session's latest change that is still undoable, as a new change (an
  /// extension); answered `ack` with the version, or `not_found` / `conflict`.
  case undo
  /// Applies the session's latest undone change again (an extension).
  case redo
  /// Asks for `count` entries of `list`'s history (an extension), newest first, older than
  /// the entry `before` (nil: the newest). Without `before`, the session also gets the
  /// list's new entries as they come, while its top screen shows `list`.
  case history(list: String, before: Int?, count: Int)
  /// Says what the client is doing on `list` (an extension, Presence): `kind` on `row`,
  /// or nothing any more when `kind` is nil. Everyone showing the list is told.
  case activity(list: String, row: String?, kind: Presence.Activity?)

  /// The wire `type` of each command.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case hello, tap, accessory, back, editing, delete, insert, move, toggle, update, fetch, reload
    case search, action, layout, undo, redo, history, activity
  }

  public var kind: Kind {
    switch self {
    case .hello: return .hello
    case .tap: return .tap
    case .accessory: return .accessory
    case .back: return .back
    case .editing: return .editing
    case .delete: return .delete
    case .insert: return .insert
    case .move: return .move
    case .toggle: return .toggle
    case .update: return .update
    case .fetch: return .fetch
    case .reload: return .reload
    case .search: return .search
    case .action: return .action
    case .layout: return .layout
    case .undo: return .undo
    case .redo: return .redo
    case .history: return .history
    case .activity: return .activity
    }
  }

  /// Whether the command changes shared data, and so is refused in read-only mode.
  public var isWrite: Bool {
    switch self {
    case .delete, .insert, .move, .update, .toggle, .action, .undo, .redo: return true
    case .hello, .tap, .accessory, .back, .editing, .fetch, .reload, .search, .layout, .history,
      .activity:
      return false
    }
  }

  /// The list the command acts on; nil for those that act on the session.
  public var list: String? {
    switch self {
    case .hello, .back, .editing, .reload, .layout, .undo, .redo: return nil
    case .tap(let list, _, _), .accessory(let list, _, _), .delete(let list, _),
      .insert(let list, _, _, _), .move(let list, _, _, _), .toggle(let list, _, _),
      .update(let list, _, _), .fetch(let list, _, _, _), .search(let list, _),
      .action(let list, _, _), .history(let list, _, _), .activity(let list, _, _):
      return list
    }
  }
}
