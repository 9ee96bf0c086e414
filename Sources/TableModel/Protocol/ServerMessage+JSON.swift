extension ServerMessage {
  /// The message as a JSON object, members in the order the protocol documents them.
  public var jsonValue: JSONValue {
    var members: [(key: String, value: JSONValue)] = [(WireKey.type, .string(typeName))]
    switch self {
    case .welcome(let session, let resumed, let role, let user, let caughtUp):
      members.append((WireKey.session, .string(session)))
      members.append((WireKey.resumed, .bool(resumed)))
      if caughtUp { members.append((WireKey.caughtUp, .bool(true))) }
      if let role {
        members.append((WireKey.role, .string(role)))
        members.append((WireKey.user, .string(user)))
      }
    case .screen(let screen):
      members.append(contentsOf: screen.jsonMembers)
    case .diff(let diff):
      members.append(contentsOf: diff.jsonMembers)
    case .rows(let rows):
      members.append(contentsOf: rows.jsonMembers)
    case .ack(let ref, let version):
      members.append((WireKey.ref, .int(ref)))
      members.append((WireKey.version, version.map(JSONValue.int) ?? .null))
    case .error(let ref, let error):
      members.append((WireKey.ref, ref.map(JSONValue.int) ?? .null))
      members.append((WireKey.code, .string(error.code.rawValue)))
      members.append((WireKey.message, .string(error.message)))
    case .notice(let text):
      members.append((WireKey.text, .string(text)))
    case .history(let history):
      members.append(contentsOf: history.jsonMembers)
    case .presence(let presence):
      members.append(contentsOf: presence.jsonMembers)
    case .unknown:
      break
    }
    return .object(JSONObject(uniqueMembers: members))
  }

  /// The message as one compact JSON text frame.
  public var serialized: String { jsonValue.serialized }

  /// The frame's UTF-8 bytes, as a WebSocket sends them.
  public var serializedUTF8: [UInt8] { jsonValue.serializedUTF8 }

  /// Decodes one frame from the server. Unknown fields are ignored and an unknown `type`
  /// is ``unknown(type:)``; text that is not JSON is `bad_json`, anything else wrong
  /// `bad_message`.
  public static func decode(_ text: String) -> Result<ServerMessage, ProtocolError> {
    let json: JSONValue
    do {
      json = try JSONValue(parsing: text)
    } catch {
      return .failure(ProtocolError(error))
    }
    return decode(json)
  }

  /// Decodes one parsed frame from the server; see ``decode(_:)-(String)``.
  public static func decode(_ json: JSONValue) -> Result<ServerMessage, ProtocolError> {
    do {
      return .success(try ServerMessage(reading: FieldReader(message: json)))
    } catch {
      return .failure(error)
    }
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    let typeName = try fields.string(WireKey.type)
    guard let kind = Kind(rawValue: typeName) else {
      self = .unknown(type: typeName)
      return
    }
    switch kind {
    case .welcome:
      self = .welcome(
        session: try fields.string(WireKey.session), resumed: try fields.bool(WireKey.resumed),
        role: try fields.optionalString(WireKey.role),
        user: try fields.optionalString(WireKey.user),
        caughtUp: fields.optional(WireKey.caughtUp) == nil
          ? false : try fields.bool(WireKey.caughtUp))
    case .screen:
      self = .screen(try ScreenMessage(reading: fields))
    case .diff:
      self = .diff(try TableDiff(reading: fields))
    case .rows:
      self = .rows(try RowsMessage(reading: fields))
    case .ack:
      self = .ack(
        ref: try fields.int(WireKey.ref), version: try fields.optionalInt(WireKey.version))
    case .error:
      let codeName = try fields.string(WireKey.code)
      // A code from a newer server is still an error; treat it as the catch-all.
      let code = ErrorCode(rawValue: codeName) ?? .internal
      self = .error(
        ref: try fields.optionalInt(WireKey.ref),
        ProtocolError(code, try fields.string(WireKey.message)))
    case .notice:
      self = .notice(text: try fields.string(WireKey.text))
    case .history:
      self = .history(try HistoryMessage(reading: fields))
    case .presence:
      self = .presence(try Presence(reading: fields))
    }
  }
}
