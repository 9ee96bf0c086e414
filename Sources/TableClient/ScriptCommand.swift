import TableModel

/// One line of a headless-client script, as a person types it: rows are named by their
/// text or their id (`tap Wi-Fi`, `tap R42`); text with spaces may be quoted.
public enum ScriptCommand: Sendable, Equatable {
  case tap(RowReference)
  case accessory(RowReference)
  case back
  case editing(Bool)
  case delete([RowReference])
  /// Inserts `text` after `after`, or at the end of the last section when nil.
  case insert(text: String, after: RowReference?)
  /// Moves the row after `after`, or to the top of its section when nil.
  case move(RowReference, after: RowReference?)
  /// Flips a switch, or sets it when `isOn` is given.
  case toggle(RowReference, isOn: Bool?)
  /// Changes a row's text, detail, flag or custom-cell values: only what `edit` sets.
  /// Its `values` are the slots named on the line; the client keeps the row's other
  /// slots (the wire's `values` replaces them all).
  case update(RowReference, RowUpdate)
  /// One of the list's row actions (a swipe action or context-menu item), by its id or
  /// title, on a row.
  case action(String, RowReference)
  /// Tells the others what this client is doing on a row (Presence): `swiping`,
  /// `editing` or `moving` it; `activity none` ends it.
  case activity(Presence.Activity?, RowReference?)
  /// Loads the next rows of the first section not fully loaded.
  case fetch
  case reload
  /// Undoes this session's latest change (the protocol's `undo`).
  case undo
  /// Applies this session's latest undone change again (the protocol's `redo`).
  case redo
  /// Asks for the newest `count` entries of the shown list's history (the server's
  /// default when nil), then shows new ones as they come.
  case history(count: Int?)
  /// Waits, showing what arrives; the default when no time is given.
  case wait(milliseconds: Int)
  case quit

  /// A row named by id or text; ids win (see ``HeadlessClient``).
  public struct RowReference: Sendable, Equatable, ExpressibleByStringLiteral,
    CustomStringConvertible
  {
    public var name: String
    public init(_ name: String) { self.name = name }
    public init(stringLiteral name: String) { self.name = name }
    public var description: String { name }
  }

  public static let defaultWaitMilliseconds = 500

  public static let usage = """
    tap ROW | accessory ROW | back | edit on|off | delete ROW… | insert [after ROW] TEXT
    move ROW after ROW | move ROW to top | toggle ROW [on|off]
    update ROW [TEXT] [--detail TEXT | --no-detail] [--flagged on|off] [--value SLOT=TEXT]…
    action ACTION ROW       (ACTION: a row action's id or title, e.g. action Flag "Buy milk")
    undo | redo             (this session's latest change, or latest undone one)
    activity swiping|editing|moving ROW | activity none     (what others see you doing)
    fetch | reload | history [COUNT] | wait [ms] | quit
                                             (ROW: its text or id; quote text with spaces)
    """

  /// The command on `line`; nil for a blank line or a `#` comment.
  public static func parse(_ line: String) throws(ScriptError) -> ScriptCommand? {
    let words = try split(line)
    guard let verb = words.first?.lowercased() else { return nil }
    let arguments = Array(words.dropFirst())
    func rest(from index: Int) throws(ScriptError) -> String {
      guard arguments.count > index else { throw ScriptError("\(verb): text missing", line: line) }
      return arguments[index...].joined(separator: " ")
    }
    func one() throws(ScriptError) -> RowReference {
      guard arguments.count >= 1 else { throw ScriptError("\(verb): which row?", line: line) }
      return RowReference(arguments[0...].joined(separator: " "))
    }
    switch verb {
    case "tap": return .tap(try one())
    case "accessory", "info", "detail": return .accessory(try one())
    case "back": return .back
    case "edit", "editing":
      guard arguments.count == 1, let isOn = onOff(arguments[0]) else {
        throw ScriptError("edit on|off", line: line)
      }
      return .editing(isOn)
    case "delete":
      guard !arguments.isEmpty else { throw ScriptError("delete: which rows?", line: line) }
      return .delete(arguments.map { RowReference($0) })
    case "insert":
      if arguments.first?.lowercased() == "after" {
        guard arguments.count >= 3 else { throw ScriptError("insert after ROW TEXT", line: line) }
        return .insert(text: try rest(from: 2), after: RowReference(arguments[1]))
      }
      return .insert(text: try rest(from: 0), after: nil)
    case "move":
      if arguments.count == 3, arguments[1].lowercased() == "to", arguments[2].lowercased() == "top"
      {
        return .move(RowReference(arguments[0]), after: nil)
      }
      guard arguments.count == 3, arguments[1].lowercased() == "after" else {
        throw ScriptError("move ROW after ROW, or move ROW to top", line: line)
      }
      return .move(RowReference(arguments[0]), after: RowReference(arguments[2]))
    case "toggle", "switch":
      if arguments.count >= 2, let isOn = onOff(arguments[arguments.count - 1]) {
        return .toggle(RowReference(arguments.dropLast().joined(separator: " ")), isOn: isOn)
      }
      return .toggle(try one(), isOn: nil)
    case "update", "rename":
      return try parseUpdate(arguments, line: line)
    case "action":
      guard arguments.count >= 2 else { throw ScriptError("action ACTION ROW", line: line) }
      return .action(arguments[0], RowReference(arguments[1...].joined(separator: " ")))
    case "activity":
      let usage = "activity swiping|editing|moving ROW | activity none"
      guard let name = arguments.first?.lowercased() else { throw ScriptError(usage, line: line) }
      if ["none", "off", "done"].contains(name), arguments.count == 1 {
        return .activity(nil, nil)
      }
      guard let kind = Presence.Activity(rawValue: name), arguments.count >= 2 else {
        throw ScriptError(usage, line: line)
      }
      return .activity(kind, RowReference(arguments[1...].joined(separator: " ")))
    case "fetch", "more": return .fetch
    case "reload": return .reload
    case "undo": return .undo
    case "redo": return .redo
    case "history":
      guard let text = arguments.first else { return .history(count: nil) }
      guard arguments.count == 1, let count = Int(text), count >= 1 else {
        throw ScriptError("history [count]", line: line)
      }
      return .history(count: count)
    case "wait", "sleep":
      guard let text = arguments.first else { return .wait(milliseconds: defaultWaitMilliseconds) }
      guard arguments.count == 1, let milliseconds = Int(text), milliseconds >= 0 else {
        throw ScriptError("wait [milliseconds]", line: line)
      }
      return .wait(milliseconds: milliseconds)
    case "quit", "exit": return .quit
    default: throw ScriptError("unknown command \(verb)", line: line)
    }
  }

  /// `update ROW [TEXT] [--detail TEXT | --no-detail] [--flagged on|off]
  /// [--value SLOT=TEXT]…`: the words that are not options are the new text.
  private static func parseUpdate(_ arguments: [String], line: String) throws(ScriptError)
    -> ScriptCommand
  {
    let usage =
      "update ROW TEXT, or update ROW with --detail TEXT, --no-detail, --flagged on|off, --value SLOT=TEXT"
    guard let reference = arguments.first else { throw ScriptError(usage, line: line) }
    var edit = RowUpdate()
    var text: [String] = []
    var words = arguments.dropFirst()[...]
    func value(of option: String) throws(ScriptError) -> String {
      guard let word = words.popFirst() else {
        throw ScriptError("\(option) needs a value", line: line)
      }
      return word
    }
    while let word = words.popFirst() {
      switch word {
      case "--text": text.append(try value(of: word))
      case "--detail": edit.detail = .some(try value(of: word))
      case "--no-detail": edit.detail = .some(nil)
      case "--flagged":
        guard let isOn = onOff(try value(of: word)) else {
          throw ScriptError("--flagged on|off", line: line)
        }
        edit.flagged = isOn
      case "--value":
        let pair = try value(of: word)
        guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
          throw ScriptError("--value SLOT=TEXT (got \(pair))", line: line)
        }
        edit.values = (edit.values ?? [:]).merging(
          [String(pair[..<equals]): String(pair[pair.index(after: equals)...])]) { $1 }
      case _ where word.hasPrefix("--") && word.count > 2:
        throw ScriptError("update: unknown option \(word)", line: line)
      default: text.append(word)
      }
    }
    if !text.isEmpty { edit.text = text.joined(separator: " ") }
    guard !edit.isEmpty else { throw ScriptError(usage, line: line) }
    return .update(RowReference(reference), edit)
  }

  private static func onOff(_ word: String) -> Bool? {
    switch word.lowercased() {
    case "on", "true", "yes", "1": return true
    case "off", "false", "no", "0": return false
    default: return nil
    }
  }

  /// Words separated by spaces; "double quotes" keep spaces; `#` starts a comment.
  static func split(_ line: String) throws(ScriptError) -> [String] {
    var words: [String] = []
    var word = ""
    var isQuoted = false
    var hasWord = false
    for character in line {
      switch character {
      case "\"":
        isQuoted.toggle()
        hasWord = true
      case _ where character.isWhitespace && !isQuoted:
        if hasWord { words.append(word) }
        word = ""
        hasWord = false
      case "#" where !isQuoted && !hasWord:
        return words
      default:
        word.append(character)
        hasWord = true
      }
    }
    guard !isQuoted else { throw ScriptError("unbalanced quote", line: line) }
    if hasWord { words.append(word) }
    return words
  }
}

/// A script line that cannot be run, with the reason.
public struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  public var line: String

  public init(_ message: String, line: String) {
    self.message = message
    self.line = line
  }

  public var description: String { "\(message) (in: \(line))" }
}
