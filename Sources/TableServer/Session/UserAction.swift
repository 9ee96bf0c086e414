import TableModel

/// What a person did, as one client command says it. The server core handles exactly
/// these; ``init(_:)`` reads them from the protocol's `ClientMessage`.
///
/// Rows, sections and lists are named by their stable ids, so a command means the same
/// thing while other people edit the list.
public enum UserAction: Sendable, Hashable {
  /// `hello`: join the session named by `token`, or start one.
  case helloSaid(token: String?)
  /// `tap`: select the row. `scrollAnchor` is the first row visible on the screen left
  /// behind, restored when the person comes back.
  case rowTapped(list: String, row: String, scrollAnchor: String?)
  /// `accessory`: the row's detail (disclosure) button.
  case accessoryButtonTapped(list: String, row: String, scrollAnchor: String?)
  case backButtonTapped
  /// `editing`: the Edit / Done button.
  case editingToggled(isOn: Bool)
  case deleteConfirmed(list: String, rows: [String])
  case rowInserted(list: String, section: String, after: String?, row: NewRow)
  case rowMoved(list: String, row: String, section: String, after: String?)
  /// `detail` is nil when the command leaves it out, `.some(nil)` when it clears it.
  case rowRenamed(list: String, row: String, text: String?, detail: String??)
  case switchToggled(list: String, row: String, isOn: Bool)
  /// `fetch`: more rows of a long section.
  case rowsScrolledIntoView(list: String, section: String, from: Int, count: Int)
  case reloadRequested

  /// Whether the action changes shared data, and so is refused in read-only mode.
  var isWrite: Bool {
    switch self {
    case .deleteConfirmed, .rowInserted, .rowMoved, .rowRenamed, .switchToggled: return true
    case .helloSaid, .rowTapped, .accessoryButtonTapped, .backButtonTapped, .editingToggled,
      .rowsScrolledIntoView, .reloadRequested:
      return false
    }
  }
}
