/// Every key the protocol writes, spelled once. Values that are names (message types,
/// op names, styles) are the raw values of their enums.
enum WireKey {
  // Every message
  static let type = "type"
  static let ref = "ref"

  // hello, welcome
  static let session = "session"
  static let resumed = "resumed"
  static let client = "client"
  static let access = "access"
  static let role = "role"
  static let user = "user"
  static let have = "have"
  static let caughtUp = "caughtUp"
  static let name = "name"

  // presence, activity
  static let viewers = "viewers"
  static let you = "you"
  static let activity = "activity"

  // Commands and their targets
  static let list = "list"
  static let row = "row"
  static let rows = "rows"
  static let section = "section"
  static let after = "after"
  static let on = "on"
  static let scroll = "scroll"

  // screen
  static let transition = "transition"
  static let depth = "depth"
  static let stack = "stack"
  static let screen = "screen"
  static let selected = "selected"
  static let sidebar = "sidebar"
  static let split = "split"
  static let version = "version"
  static let title = "title"
  static let back = "back"
  static let style = "style"
  static let editing = "editing"
  static let editable = "editable"
  static let selection = "selection"
  static let indexTitles = "indexTitles"
  static let header = "header"
  static let footer = "footer"
  static let sections = "sections"
  static let actions = "actions"
  static let action = "action"
  static let id = "id"
  static let count = "count"
  static let searchable = "searchable"
  static let search = "search"
  static let query = "query"
  // history (an extension)
  static let before = "before"
  static let entries = "entries"
  static let more = "more"
  static let live = "live"
  static let author = "author"
  static let summary = "summary"

  // ROW
  static let text = "text"
  static let detail = "detail"
  static let lines = "lines"
  static let flagged = "flagged"
  static let values = "values"
  static let cell = "cell"
  static let language = "language"
  static let image = "image"
  static let accessory = "accessory"
  static let control = "control"
  static let kind = "kind"
  static let movable = "movable"
  static let selectable = "selectable"

  // diff, rows, fetch
  static let from = "from"
  static let to = "to"
  static let ops = "ops"
  static let op = "op"
  static let at = "at"

  // error, notice
  static let code = "code"
  static let message = "message"
}

/// The `kind` of a row's `control` object.
enum ControlKind {
  static let `switch` = "switch"
}
