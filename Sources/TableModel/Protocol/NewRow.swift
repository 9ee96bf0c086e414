/// The content of a row a client inserts; the server gives it its id and the rest.
public struct NewRow: Sendable, Hashable {
  public var text: String
  public var detail: String?
  /// Extension: the cell style; nil lets the server choose (the list's usual style).
  public var style: CellStyle?
  /// Not on the wire: what a server-side insert (import, an app's own code) may also set.
  public var image: String?
  /// nil: the default for where the row goes.
  public var accessory: AccessoryType?
  /// A switch in the row, and its state.
  public var isOn: Bool?

  public init(
    text: String, detail: String? = nil, style: CellStyle? = nil, image: String? = nil,
    accessory: AccessoryType? = nil, isOn: Bool? = nil
  ) {
    self.text = text
    self.detail = detail
    self.style = style
    self.image = image
    self.accessory = accessory
    self.isOn = isOn
  }
}

extension NewRow {
  /// `{"text":..,"detail":..}`, and `style` only when set.
  public var jsonValue: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      (WireKey.text, .string(text)),
      (WireKey.detail, .string(detail)),
    ]
    if let style { members.append((WireKey.style, .string(style.rawValue))) }
    return .object(JSONObject(uniqueMembers: members))
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    let style: CellStyle?
    if fields.optional(WireKey.style) != nil {
      style = try fields.name(WireKey.style, as: CellStyle.self)
    } else {
      style = nil
    }
    self.init(
      text: try fields.string(WireKey.text), detail: try fields.optionalString(WireKey.detail),
      style: style)
  }
}
