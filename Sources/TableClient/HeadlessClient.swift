import TableModel

/// What the headless client knows and does, without sockets: which message a script line
/// sends, and how each message from the server changes the screen. The I/O around it
/// (``HeadlessClientRunner``) only carries its answers out.
public struct HeadlessClient: Sendable {
  /// What to do for a script line.
  public enum Action: Sendable, Equatable {
    /// Send `text`, then wait for the answer to `ref`.
    case send(text: String, ref: Int)
    case wait(milliseconds: Int)
    case quit
    /// The line cannot be carried out on this screen.
    case refuse(String)
  }

  /// What a received message did.
  public enum Effect: Sendable, Equatable {
    case welcomed(session: String, resumed: Bool)
    case screenChanged
    case answered(ref: Int, version: Int?)
    case failed(ref: Int?, ProtocolError)
    case notice(String)
    /// Entries of a list's history: the answer to `history`, or new ones as they came.
    case history(HistoryMessage)
    /// Who shows a list now (`presence`).
    case presence(Presence)
    /// The client fell behind (a version gap, a diff that does not apply): it sends this
    /// `reload` to get the screen again.
    case resync(text: String, reason: String)
    /// A message this client does not use (another list's diff, a stale `rows`, a newer
    /// server's message type).
    case ignored
    /// A frame that is not a server message.
    case unreadable(String)
  }

  public private(set) var session: String?
  /// The screen shown: the last `screen` message's, with every diff and fetched row since
  /// applied.
  public private(set) var screen: LoadedScreen?
  /// The navigation stack's titles, root first, as the last `screen` message gave them.
  public private(set) var stack: [String] = []
  /// Commands sent and not answered yet.
  public private(set) var unanswered: Set<Int> = []
  private var nextRef = 1
  /// How many rows a `fetch` asks for.
  public var fetchCount = 100

  /// The credential `hello` carries, for a server that requires access.
  public let access: String?
  /// The name `hello` gives (Presence): what others see this client as.
  public var name: String?

  /// - Parameters:
  ///   - session: a token from an earlier `welcome`, to resume that session.
  ///   - access: the credential of `tableweb access grant`, or nil.
  public init(session: String? = nil, access: String? = nil) {
    self.session = session
    self.access = access
  }

  /// The `hello` that opens the session. Said again after a reconnect, it carries the
  /// list and version shown (`have`), so that the server may send only the diffs missed
  /// (`welcome` with `caughtUp`) and the screen stays as it is.
  public func hello() -> String {
    let have = session == nil ? nil : screen.map { ListVersion(list: $0.list, version: $0.version) }
    return ClientMessage.hello(
      session: session, client: "tableweb client", access: access, have: have, name: name
    )
    .serialized()
  }

  // MARK: - Script lines

  public mutating func run(_ command: ScriptCommand) -> Action {
    switch command {
    case .wait(let milliseconds): return .wait(milliseconds: milliseconds)
    case .quit: return .quit
    case .back: return send(.back)
    case .reload: return send(.reload)
    case .undo: return send(.undo)
    case .redo: return send(.redo)
    case .editing(let isOn): return send(.editing(isOn: isOn))
    default: break
    }
    guard let screen else { return .refuse("no screen yet") }
    let list = screen.list
    do throws(ScriptError) {
      switch command {
      case .tap(let reference):
        return send(.tap(list: list, row: try row(reference).row.id))
      case .accessory(let reference):
        return send(.accessory(list: list, row: try row(reference).row.id))
      case .delete(let references):
        var ids: [String] = []
        for reference in references { ids.append(try row(reference).row.id) }
        return send(.delete(list: list, rows: ids))
      case .insert(let text, let after):
        if let after {
          let (section, row) = try row(after)
          return send(
            .insert(list: list, section: section.id, after: row.id, row: NewRow(text: text)))
        }
        guard let last = screen.sections.last else {
          return .refuse("the screen has no section")
        }
        return send(
          .insert(list: list, section: last.id, after: last.rows.last?.id, row: NewRow(text: text)))
      case .move(let reference, let after):
        let (section, moving) = try row(reference)
        guard let after else {
          return send(.move(list: list, row: moving.id, section: section.id, after: nil))
        }
        let (targetSection, target) = try row(after)
        return send(.move(list: list, row: moving.id, section: targetSection.id, after: target.id))
      case .toggle(let reference, let isOn):
        let (_, row) = try row(reference)
        guard let current = row.control?.isOn else { return .refuse("\(row.text) has no switch") }
        return send(.toggle(list: list, row: row.id, isOn: isOn ?? !current))
      case .update(let reference, var edit):
        let (_, target) = try row(reference)
        if let values = edit.values {
          guard screen.cell != nil else { return .refuse("\(screen.title) has no custom cell") }
          // The wire replaces all of a row's values: keep the slots not named.
          edit.values = target.values.merging(values) { $1 }
        }
        return send(.update(list: list, row: target.id, edit: edit))
      case .action(let name, let reference):
        let wanted = name.lowercased()
        guard
          let action = screen.actions.first(where: {
            $0.id.lowercased() == wanted || $0.title.lowercased() == wanted
          })
        else {
          let offered = screen.actions.map(\.title).joined(separator: ", ")
          return .refuse(
            offered.isEmpty
              ? "\(screen.title) has no row actions" : "no action \(name) here (\(offered))")
        }
        let target = try row(reference).row
        if let offered = target.actions, !offered.contains(action.id) {
          let titles = offered.compactMap { id in screen.actions.first { $0.id == id }?.title }
          return .refuse(
            "\(target.text) does not offer \(action.title)"
              + (titles.isEmpty ? " (it offers none)" : " (\(titles.joined(separator: ", ")))"))
        }
        return send(.action(list: list, row: target.id, action: action.id))
      case .activity(let kind, let reference):
        var rowID: String?
        if let reference { rowID = try row(reference).row.id }
        return send(.activity(list: list, row: rowID, kind: kind))
      case .fetch:
        guard let (section, from) = screen.firstIncompleteSection else {
          return .refuse("every row is loaded")
        }
        return send(
          .fetch(
            list: list, section: section.id, from: from,
            count: min(section.count - from, fetchCount)))
      case .history(let count):
        return send(
          .history(list: list, before: nil, count: count ?? HistoryMessage.defaultCount))
      case .wait, .quit, .back, .reload, .editing, .undo, .redo:
        preconditionFailure("handled above")
      }
    } catch {
      return .refuse(error.message)
    }
  }

  private mutating func send(_ message: ClientMessage) -> Action {
    let ref = nextRef
    nextRef += 1
    unanswered.insert(ref)
    return .send(text: message.serialized(ref: ref), ref: ref)
  }

  /// The row a person means: by id first, then by exact text, then by text ignoring case.
  func row(_ reference: ScriptCommand.RowReference) throws(ScriptError) -> (
    section: LoadedSection, row: Row
  ) {
    let rows = screen?.loadedRows ?? []
    let name = reference.name
    if let match = rows.first(where: { $0.row.id == name }) { return match }
    let byText = rows.filter { $0.row.text == name }
    if byText.count == 1 { return byText[0] }
    if byText.count > 1 {
      throw ScriptError("\(byText.count) rows read \"\(name)\": use its id", line: name)
    }
    let folded = rows.filter { $0.row.text.lowercased() == name.lowercased() }
    if folded.count == 1 { return folded[0] }
    throw ScriptError("no row \"\(name)\" on this screen", line: name)
  }

  /// The connection dropped: answers to the commands sent on it will not come.
  public mutating func connectionLost() {
    unanswered.removeAll()
  }

  // MARK: - Messages from the server

  public mutating func receive(_ text: String) -> Effect {
    switch ServerMessage.decode(text) {
    case .failure(let error):
      return .unreadable(error.description)
    case .success(let message):
      return receive(message)
    }
  }

  public mutating func receive(_ message: ServerMessage) -> Effect {
    switch message {
    case .welcome(let token, let resumed, _, _, _):
      session = token
      return .welcomed(session: token, resumed: resumed)
    case .screen(let message):
      screen = message.screen
      stack = message.stack
      return .screenChanged
    case .diff(let diff):
      guard var current = screen else { return .ignored }
      do {
        switch try current.apply(diff) {
        case .skipped:
          return .ignored
        case .gap:
          return resync("missed versions \(current.version)..<\(diff.from) of \(diff.list)")
        case .applied:
          screen = current
          return .screenChanged
        }
      } catch {
        return resync("diff \(diff.from)→\(diff.to) does not apply: \(error.message)")
      }
    case .rows(let rows):
      guard var current = screen, current.add(rows) else { return .ignored }
      screen = current
      return .screenChanged
    case .ack(let ref, let version):
      unanswered.remove(ref)
      return .answered(ref: ref, version: version)
    case .error(let ref, let error):
      if let ref { unanswered.remove(ref) }
      return .failed(ref: ref, error)
    case .notice(let text):
      return .notice(text)
    case .history(let history):
      return .history(history)
    case .presence(let presence):
      return .presence(presence)
    case .unknown:
      return .ignored
    }
  }

  private mutating func resync(_ reason: String) -> Effect {
    guard case .send(let text, _) = send(.reload) else { preconditionFailure() }
    return .resync(text: text, reason: reason)
  }
}
