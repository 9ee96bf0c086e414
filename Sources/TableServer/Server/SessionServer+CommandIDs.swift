import TableModel

/// Commands sent again: a client that lost its connection before an answer came cannot
/// tell whether its command was applied, so it sends it again after the resume, with the
/// same `commandId` (an extension). The server answers each id once: a command whose id
/// it has answered in the same session before is not applied again, and gets that
/// answer (`ack` with the same version, or the same `error`), carrying the new `ref`.
///
/// The answers are kept in memory, the newest ``capacity`` of all sessions together: an id
/// sent again after that many later commands, after a restart, or to another server
/// sharing the database is applied again.
struct AnsweredCommands: Sendable {
  static let capacity = 65_536
  static let maxIDLength = 64

  struct Key: Hashable, Sendable {
    var session: SessionToken
    var id: String
  }

  /// What a command was answered: the version that holds it, or the refusal.
  typealias Answer = Result<Int?, ProtocolError>

  private var answers: [Key: Answer] = [:]
  /// The keys in the order they were answered; `oldest` is where the next one goes once full.
  private var order: [Key] = []
  private var oldest = 0
  /// The answers given inside a group commit, in order, kept apart until it has committed
  /// (``settle()``); nil outside one (``holdNew()``). The group's checkpoint of the core
  /// shares `answers` and `order`: one answer written into them would copy all of them,
  /// up to 65,536, for every group, and free the old copy after it.
  private var unsettled: [(key: Key, answer: Answer)]?

  subscript(key: Key) -> Answer? {
    if let unsettled, let given = unsettled.last(where: { $0.key == key }) { return given.answer }
    return answers[key]
  }

  /// From now until ``settle()``, new answers wait beside the others.
  mutating func holdNew() {
    unsettled = []
  }

  /// Keeps the answers that waited (their group committed), as if given one by one.
  mutating func settle() {
    guard let waiting = unsettled else { return }
    unsettled = nil
    for (key, answer) in waiting { remember(answer, for: key) }
  }

  mutating func remember(_ answer: Answer, for key: Key) {
    if unsettled != nil {
      unsettled?.append((key, answer))
      return
    }
    guard answers.updateValue(answer, forKey: key) == nil else { return }
    if order.count < Self.capacity {
      order.append(key)
    } else {
      answers[order[oldest]] = nil
      order[oldest] = key
      oldest = (oldest + 1) % Self.capacity
    }
  }
}

extension SessionServer {
  static let commandIDKey = "commandId"

  /// `ClientMessage.decode(_:)`, with the message's `commandId` beside it: nil when absent
  /// or null; a `commandId` that is not a string of 1 to 64 bytes is `bad_message`.
  static func decodeCommand(_ text: String) -> (
    ref: Int?, result: Result<ClientMessage, ProtocolError>, commandID: String?
  ) {
    guard let json = try? JSONValue(parsing: text) else {
      let (ref, result) = ClientMessage.decode(text)
      return (ref, result, nil)
    }
    let (ref, result) = ClientMessage.decode(json)
    guard case .success = result, let value = json[commandIDKey], !value.isNull else {
      return (ref, result, nil)
    }
    guard let id = value.stringValue, !id.isEmpty, id.utf8.count <= AnsweredCommands.maxIDLength
    else {
      return (
        ref,
        .failure(
          ProtocolError(
            .badMessage,
            "\(commandIDKey) must be a string of 1 to \(AnsweredCommands.maxIDLength) bytes")),
        nil
      )
    }
    return (ref, result, id)
  }

  /// The key a command id of `connection`'s session is remembered under; nil before hello.
  func answeredCommandKey(_ id: String?, on connection: ConnectionID) -> AnsweredCommands.Key? {
    guard let id, let token = connections[connection]?.session else { return nil }
    return AnsweredCommands.Key(session: token, id: id)
  }
}

extension AnsweredCommands.Answer {
  /// The same answer to a command sent again as `ref`: an `ack` only when there is a `ref`
  /// to answer, as for any command.
  func message(ref: Int?) -> ServerMessage? {
    switch self {
    case .success(let version): ref.map { .ack(ref: $0, version: version) }
    case .failure(let error): .error(ref: ref, error)
    }
  }
}
