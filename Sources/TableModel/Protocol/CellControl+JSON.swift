extension CellControl {
  /// `{"kind":"switch","on":true}`.
  public var jsonValue: JSONValue {
    switch self {
    case .switch(let isOn):
      return .object(
        JSONObject(uniqueMembers: [
          (WireKey.kind, .string(ControlKind.switch)),
          (WireKey.on, .bool(isOn)),
        ]))
    }
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    let kind = try fields.string(WireKey.kind)
    switch kind {
    case ControlKind.switch: self = .switch(isOn: try fields.bool(WireKey.on))
    default:
      throw FieldReader.mistyped(fields.name(of: WireKey.kind), "\"\(ControlKind.switch)\"")
    }
  }
}
