/// A message from the server to a client.
public enum ServerMessage: Sendable, Hashable {
  /// The answer to `hello`: the session's token, and whether it already existed.
  /// `role` (`viewer`/`editor`) and `user` (v1.1) say who the server takes the client
  /// for, when it requires access. `caughtUp` (v1.1, gapless resume): the `have` of the
  /// `hello` is answered with the missed diffs, which follow, instead of a `screen`.
  case welcome(
    session: String, resumed: Bool, role: String? = nil, user: String? = nil,
    caughtUp: Bool = false)
  /// The whole top screen: after `welcome`, on push, on pop, on `reload`.
  case screen(ScreenMessage)
  /// A change to a list, from version `from` to `from + 1`.
  case diff(TableDiff)
  /// The answer to `fetch`.
  case rows(RowsMessage)
  /// Command `ref` was applied; `version` is the list version that contains it, nil when
  /// it changed no list.
  case ack(ref: Int, version: Int?)
  /// Command `ref` (nil when it had none, or it could not be read) failed.
  case error(ref: Int?, ProtocolError)
  /// Who shows a list and what they are doing (an extension, Presence).
  case presence(Presence)
  /// Something a person should be told.
  case notice(text: String)
  /// Entries of a list's history (an extension): the answer to `history`, and new entries
  /// as they come.
  case history(HistoryMessage)
  /// A message type this client does not know (from a newer server): ignore it.
  case unknown(type: String)

  /// The wire `type` of each known message.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case welcome, screen, diff, rows, ack, error, notice, history, presence
  }

  /// The wire `type`.
  public var typeName: String {
    switch self {
    case .welcome: return Kind.welcome.rawValue
    case .screen: return Kind.screen.rawValue
    case .diff: return Kind.diff.rawValue
    case .rows: return Kind.rows.rawValue
    case .ack: return Kind.ack.rawValue
    case .error: return Kind.error.rawValue
    case .notice: return Kind.notice.rawValue
    case .history: return Kind.history.rawValue
    case .presence: return Kind.presence.rawValue
    case .unknown(let type): return type
    }
  }
}
