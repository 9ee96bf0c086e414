import TableModel

/// `POST /api/commands`: protocol commands from programs that do not keep a session (a
/// cron job, a script): one command object, or an array of them applied in order. The
/// answer is the `ack` or `error` of each, in the same shape (an object, or an array).
/// Viewers get the diffs as for any command.
extension SessionHost: HTTPResponder {
  static let commandsPath = WebSocketServer.apiPathPrefix + "/commands"

  public func respond(to request: HTTPRequest) -> HTTPResponse? {
    thread.check()
    guard request.path == Self.commandsPath else { return nil }
    guard request.method == "POST" else {
      return Self.json(405, .error(ref: nil, ProtocolError(.badMessage, "POST commands here")))
    }
    let identity: AccessIdentity?
    switch server?.authenticate(
      UpgradeRequest(authorization: request.authorization, peerAddress: request.peerAddress))
    {
    case .success(let found)?: identity = found
    case .failure(let error)?: return Self.json(401, .error(ref: nil, error))
    case nil: return Self.json(503, .error(ref: nil, ProtocolError(.internal, "stopping")))
    }
    let body: JSONValue
    do {
      body = try JSONValue(parsing: request.body)
    } catch {
      return Self.json(400, .error(ref: nil, ProtocolError(error)))
    }
    guard case .array(let commands) = body else {
      return HTTPResponse(status: 200, body: run(body, position: 0, as: identity).serializedUTF8)
    }
    let answers = commands.enumerated().map { run($1, position: $0, as: identity).jsonValue }
    return HTTPResponse(status: 200, body: JSONValue.array(answers).serializedUTF8)
  }

  /// One command: decoded, applied, its diffs sent to viewers at once. Its answer
  /// carries its `ref`, or its position in the request when it has none.
  private func run(_ command: JSONValue, position: Int, as identity: AccessIdentity?)
    -> ServerMessage
  {
    let (given, decoded) = ClientMessage.decode(command)
    let ref = given ?? position
    switch decoded {
    case .failure(let error):
      return .error(ref: ref, error)
    case .success(let message):
      guard let (answer, effects) = server?.handleWithoutSession(message, ref: ref, as: identity)
      else {
        return .error(ref: ref, ProtocolError(.internal, "the server is stopping"))
      }
      perform(effects)
      return answer
    }
  }

  private static func json(_ status: Int, _ message: ServerMessage) -> HTTPResponse {
    HTTPResponse(status: status, body: message.serializedUTF8)
  }
}
