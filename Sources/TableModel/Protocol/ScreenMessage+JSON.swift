extension ScreenMessage {
  /// The members of a `screen` message after its `type`. The extensions appear only when
  /// they have a value.
  var jsonMembers: [(key: String, value: JSONValue)] {
    var members: [(key: String, value: JSONValue)] = [
      (WireKey.transition, .string(transition.rawValue)),
      (WireKey.depth, .int(depth)),
      (WireKey.stack, .array(stack.map(JSONValue.string))),
    ]
    if let scrollAnchor { members.append((WireKey.scroll, .string(scrollAnchor))) }
    if let selectedRow { members.append((WireKey.selected, .string(selectedRow))) }
    members.append((WireKey.screen, screen.jsonValue))
    if let sidebar {
      var inner: [(key: String, value: JSONValue)] = []
      if let row = sidebar.selectedRow { inner.append((WireKey.selected, .string(row))) }
      inner.append((WireKey.screen, sidebar.screen.jsonValue))
      members.append((WireKey.sidebar, .object(JSONObject(uniqueMembers: inner))))
    }
    return members
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    let transition = try fields.name(WireKey.transition, as: ScreenTransition.self)
    let stack = try fields.strings(WireKey.stack)
    guard !stack.isEmpty else {
      throw FieldReader.mistyped(fields.name(of: WireKey.stack), "a non-empty array of titles")
    }
    let depth = try fields.int(WireKey.depth)
    guard depth == stack.count - 1 else {
      throw FieldReader.mistyped(
        fields.name(of: WireKey.depth), "the stack's length - 1 (\(stack.count - 1))")
    }
    self.init(
      transition: transition, stack: stack,
      screen: try LoadedScreen(reading: fields.object(WireKey.screen)),
      scrollAnchor: try fields.optionalString(WireKey.scroll),
      selectedRow: try fields.optionalString(WireKey.selected),
      sidebar: try Self.sidebar(in: fields))
  }

  private static func sidebar(in fields: FieldReader) throws(ProtocolError) -> Sidebar? {
    guard fields.optional(WireKey.sidebar) != nil else { return nil }
    let sidebar = try fields.object(WireKey.sidebar)
    return Sidebar(
      screen: try LoadedScreen(reading: sidebar.object(WireKey.screen)),
      selectedRow: try sidebar.optionalString(WireKey.selected))
  }
}
