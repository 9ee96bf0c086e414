extension ClientMessage {
  /// What decoding a frame gives: the `ref` when it could be read, and the command or
  /// the error to answer with.
  public typealias Decoded = (ref: Int?, result: Result<ClientMessage, ProtocolError>)

  /// Decodes one frame from a client. The `ref` is recovered whenever the frame is an
  /// object with an integer `ref`, even when the rest is bad, so that the `error` can
  /// carry it. Unknown fields are ignored.
  ///
  /// Text that is not JSON is `bad_json`; anything else wrong is `bad_message`, naming
  /// the field.
  public static func decode(_ text: String) -> Decoded {
    let json: JSONValue
    do {
      json = try JSONValue(parsing: text)
    } catch {
      return (nil, .failure(ProtocolError(error)))
    }
    return decode(json)
  }

  /// Decodes one parsed frame from a client; see ``decode(_:)-(String)``.
  public static func decode(_ json: JSONValue) -> Decoded {
    let fields: FieldReader
    let ref: Int?
    do {
      fields = try FieldReader(message: json)
      ref = try fields.optionalInt(WireKey.ref)
    } catch {
      return (nil, .failure(error))
    }
    do {
      return (ref, .success(try ClientMessage(reading: fields)))
    } catch {
      return (ref, .failure(error))
    }
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    let typeName = try fields.string(WireKey.type)
    guard let kind = Kind(rawValue: typeName) else {
      throw ProtocolError(.badMessage, "unknown message type \"\(typeName)\"")
    }
    switch kind {
    case .hello:
      self = .hello(
        session: try fields.optionalString(WireKey.session),
        client: try fields.optionalString(WireKey.client),
        access: try fields.optionalString(WireKey.access),
        have: try ListVersion(readingOptional: fields, WireKey.have),
        name: try Presence.checkedName(fields.optionalString(WireKey.name)))
    case .tap:
      self = .tap(
        list: try fields.string(WireKey.list), row: try fields.string(WireKey.row),
        scrollAnchor: try fields.optionalString(WireKey.scroll))
    case .accessory:
      self = .accessory(
        list: try fields.string(WireKey.list), row: try fields.string(WireKey.row),
        scrollAnchor: try fields.optionalString(WireKey.scroll))
    case .back:
      self = .back
    case .editing:
      self = .editing(isOn: try fields.bool(WireKey.on))
    case .delete:
      let list = try fields.string(WireKey.list)
      let rows = try fields.strings(WireKey.rows)
      guard !rows.isEmpty else {
        throw FieldReader.mistyped(WireKey.rows, "a non-empty array of row ids")
      }
      self = .delete(list: list, rows: rows)
    case .insert:
      self = .insert(
        list: try fields.string(WireKey.list), section: try fields.string(WireKey.section),
        after: try fields.optionalString(WireKey.after),
        row: try NewRow(reading: fields.object(WireKey.row)))
    case .move:
      self = .move(
        list: try fields.string(WireKey.list), row: try fields.string(WireKey.row),
        section: try fields.string(WireKey.section),
        after: try fields.optionalString(WireKey.after))
    case .toggle:
      self = .toggle(
        list: try fields.string(WireKey.list), row: try fields.string(WireKey.row),
        isOn: try fields.bool(WireKey.on))
    case .update:
      self = .update(
        list: try fields.string(WireKey.list), row: try fields.string(WireKey.row),
        edit: try RowUpdate(reading: fields))
    case .fetch:
      self = .fetch(
        list: try fields.string(WireKey.list), section: try fields.string(WireKey.section),
        from: try fields.int(WireKey.from, atLeast: 0),
        count: try fields.int(WireKey.count, atLeast: 1))
    case .reload:
      self = .reload
    case .search:
      self = .search(
        list: try fields.string(WireKey.list), query: try fields.string(WireKey.query))
    case .action:
      self = .action(
        list: try fields.string(WireKey.list), row: try fields.string(WireKey.row),
        action: try fields.string(WireKey.action))
    case .layout:
      self = .layout(split: try fields.bool(WireKey.split))
    case .undo:
      self = .undo
    case .redo:
      self = .redo
    case .history:
      let count =
        fields.optional(WireKey.count) == nil
        ? HistoryMessage.defaultCount : try fields.int(WireKey.count, atLeast: 1)
      guard count <= HistoryMessage.maximumCount else {
        throw ProtocolError(
          .badMessage,
          "field \"count\" must be at most \(HistoryMessage.maximumCount) (it was \(count))")
      }
      self = .history(
        list: try fields.string(WireKey.list), before: try fields.optionalInt(WireKey.before),
        count: count)
    case .activity:
      let row = try fields.optionalString(WireKey.row)
      if let row, row.unicodeScalars.count > Presence.rowLimit {
        throw FieldReader.mistyped(
          WireKey.row, "a row id of at most \(Presence.rowLimit) characters")
      }
      let kind =
        (fields.optional(WireKey.kind) ?? .null) == .null
        ? nil : try fields.name(WireKey.kind, as: Presence.Activity.self)
      self = .activity(list: try fields.string(WireKey.list), row: row, kind: kind)
    }
  }

  /// The command as a JSON object, with `ref` when given. Extensions appear only when
  /// they have a value.
  public func jsonValue(ref: Int? = nil) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [(WireKey.type, .string(kind.rawValue))]
    if let ref { members.append((WireKey.ref, .int(ref))) }
    switch self {
    case .hello(let session, let client, let access, let have, let name):
      members.append((WireKey.session, .string(session)))
      if let client { members.append((WireKey.client, .string(client))) }
      if let access { members.append((WireKey.access, .string(access))) }
      if let have { members.append((WireKey.have, have.jsonValue)) }
      if let name { members.append((WireKey.name, .string(name))) }
    case .tap(let list, let row, let scrollAnchor),
      .accessory(let list, let row, let scrollAnchor):
      members.append((WireKey.list, .string(list)))
      members.append((WireKey.row, .string(row)))
      if let scrollAnchor { members.append((WireKey.scroll, .string(scrollAnchor))) }
    case .back, .reload, .undo, .redo:
      break
    case .layout(let split):
      members.append((WireKey.split, .bool(split)))
    case .editing(let isOn):
      members.append((WireKey.on, .bool(isOn)))
    case .delete(let list, let rows):
      members.append((WireKey.list, .string(list)))
      members.append((WireKey.rows, .array(rows.map(JSONValue.string))))
    case .insert(let list, let section, let after, let row):
      members.append((WireKey.list, .string(list)))
      members.append((WireKey.section, .string(section)))
      members.append((WireKey.after, .string(after)))
      members.append((WireKey.row, row.jsonValue))
    case .move(let list, let row, let section, let after):
      members.append((WireKey.list, .string(list)))
      members.append((WireKey.row, .string(row)))
      members.append((WireKey.section, .string(section)))
      members.append((WireKey.after, .string(after)))
    case .toggle(let list, let row, let isOn):
      members.append((WireKey.list, .string(list)))
      members.append((WireKey.row, .string(row)))
      members.append((WireKey.on, .bool(isOn)))
    case .update(let list, let row, let edit):
      members.append((WireKey.list, .string(list)))
      members.append((WireKey.row, .string(row)))
      members.append(contentsOf: edit.jsonMembers)
    case .action(let list, let row, let action):
      members.append((WireKey.list, .string(list)))
      members.append((WireKey.row, .string(row)))
      members.append((WireKey.action, .string(action)))
    case .fetch(let list, let section, let from, let count):
      members.append((WireKey.list, .string(list)))
      members.append((WireKey.section, .string(section)))
      members.append((WireKey.from, .int(from)))
      members.append((WireKey.count, .int(count)))
    case .search(let list, let query):
      members.append((WireKey.list, .string(list)))
      members.append((WireKey.query, .string(query)))
    case .history(let list, let before, let count):
      members.append((WireKey.list, .string(list)))
      members.append((WireKey.before, before.map(JSONValue.int) ?? .null))
      members.append((WireKey.count, .int(count)))
    case .activity(let list, let row, let kind):
      members.append((WireKey.list, .string(list)))
      members.append((WireKey.row, .string(row)))
      members.append((WireKey.kind, .string(kind?.rawValue)))
    }
    return .object(JSONObject(uniqueMembers: members))
  }

  /// The command as one compact JSON text frame, with `ref` when given.
  public func serialized(ref: Int? = nil) -> String {
    jsonValue(ref: ref).serialized
  }
}
