extension Row {
  /// The protocol's ROW: every v1 key present, `null` where the row has no detail, image
  /// or control; v1.1's `lines` only when it is not 1.
  public var jsonValue: JSONValue {
    var members: [(String, JSONValue)] = [
      (WireKey.id, .string(id)),
      (WireKey.style, .string(style.rawValue)),
      (WireKey.text, .string(text)),
      (WireKey.detail, .string(detail)),
      (WireKey.image, .string(image)),
      (WireKey.accessory, .string(accessory.rawValue)),
      (WireKey.control, control?.jsonValue ?? .null),
      (WireKey.editing, .string(editingStyle.rawValue)),
      (WireKey.movable, .bool(isMovable)),
      (WireKey.selectable, .bool(isSelectable)),
    ]
    if lines != 1 { members.append((WireKey.lines, .int(lines))) }
    if isFlagged { members.append((WireKey.flagged, .bool(true))) }
    if !values.isEmpty { members.append((WireKey.values, Row.valuesJSON(values))) }
    if let actions { members.append((WireKey.actions, .array(actions.map { .string($0) }))) }
    return .object(JSONObject(uniqueMembers: members))
  }

  /// Custom cell values as a JSON object, keys in order.
  public static func valuesJSON(_ values: [String: String]) -> JSONValue {
    .object(JSONObject(values.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
  }

  /// Reads a ROW; a missing or mistyped field throws `bad_message`.
  public init(json: JSONValue) throws(ProtocolError) {
    try self.init(reading: FieldReader(json, at: WireKey.row))
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    let control: CellControl?
    if fields.optional(WireKey.control) != nil {
      control = try CellControl(reading: fields.object(WireKey.control))
    } else {
      control = nil
    }
    self.init(
      id: try fields.string(WireKey.id),
      style: try fields.name(WireKey.style, as: CellStyle.self),
      text: try fields.string(WireKey.text),
      detail: try fields.optionalString(WireKey.detail),
      image: try fields.optionalString(WireKey.image),
      accessory: try fields.name(WireKey.accessory, as: AccessoryType.self),
      control: control,
      editingStyle: try fields.name(WireKey.editing, as: EditingStyle.self),
      isMovable: try fields.bool(WireKey.movable),
      isSelectable: try fields.bool(WireKey.selectable),
      lines: fields.optional(WireKey.lines) == nil ? 1 : try fields.int(WireKey.lines, atLeast: 0))
    isFlagged = fields.optional(WireKey.flagged) == nil ? false : try fields.bool(WireKey.flagged)
    if fields.optional(WireKey.values) != nil {
      let object = try fields.object(WireKey.values)
      for key in object.object.keys { values[key] = try object.string(key) }
    }
    actions = try fields.optionalStrings(WireKey.actions)
  }

  /// Reads the array `key` of ROWs.
  static func rows(_ key: String, of fields: FieldReader) throws(ProtocolError) -> [Row] {
    var rows: [Row] = []
    for rowFields in try fields.objects(key) { rows.append(try Row(reading: rowFields)) }
    return rows
  }
}
