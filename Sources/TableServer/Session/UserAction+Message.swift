import TableModel

extension UserAction {
  /// The action a decoded client command stands for.
  public init(_ message: ClientMessage) {
    switch message {
    case .hello(let session, _): self = .helloSaid(token: session)
    case .tap(let list, let row, let scrollAnchor):
      self = .rowTapped(list: list, row: row, scrollAnchor: scrollAnchor)
    case .accessory(let list, let row, let scrollAnchor):
      self = .accessoryButtonTapped(list: list, row: row, scrollAnchor: scrollAnchor)
    case .back: self = .backButtonTapped
    case .editing(let isOn): self = .editingToggled(isOn: isOn)
    case .delete(let list, let rows): self = .deleteConfirmed(list: list, rows: rows)
    case .insert(let list, let section, let after, let row):
      self = .rowInserted(list: list, section: section, after: after, row: row)
    case .move(let list, let row, let section, let after):
      self = .rowMoved(list: list, row: row, section: section, after: after)
    case .toggle(let list, let row, let isOn):
      self = .switchToggled(list: list, row: row, isOn: isOn)
    case .update(let list, let row, let edit):
      self = .rowRenamed(list: list, row: row, text: edit.text, detail: edit.detail)
    case .fetch(let list, let section, let from, let count):
      self = .rowsScrolledIntoView(list: list, section: section, from: from, count: count)
    case .reload: self = .reloadRequested
    }
  }
}
