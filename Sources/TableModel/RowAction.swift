/// A swipe action and context-menu item of a list's rows (`UIContextualAction`): a full
/// swipe performs the first action of its edge. Choosing one sends `action` to the server.
public struct RowAction: Sendable, Hashable, Identifiable {
  /// The side a swipe reveals it from: leading (swipe right) or trailing (swipe left).
  public enum Edge: String, Sendable, Hashable, CaseIterable {
    case leading, trailing
  }

  /// The named colours a button may take (system colours, light and dark).
  public enum Color: String, Sendable, Hashable, CaseIterable {
    case red, orange, yellow, green, blue, purple, gray
  }

  /// What the server is told; unique within the list.
  public var id: String
  public var title: String
  public var edge: Edge
  public var color: Color

  public init(id: String, title: String, edge: Edge = .trailing, color: Color = .gray) {
    self.id = id
    self.title = title
    self.edge = edge
    self.color = color
  }
}

extension RowAction {
  /// The wire form, an element of a screen's `actions`.
  public var jsonValue: JSONValue {
    .object(
      JSONObject(uniqueMembers: [
        (WireKey.id, .string(id)), (WireKey.title, .string(title)),
        ("edge", .string(edge.rawValue)), ("color", .string(color.rawValue)),
      ]))
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    self.init(
      id: try fields.string(WireKey.id), title: try fields.string(WireKey.title),
      edge: try fields.name("edge", as: Edge.self), color: try fields.name("color", as: Color.self))
  }
}
