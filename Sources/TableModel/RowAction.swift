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

  /// What an action does to its row, for a client to show before the server answers.
  public enum Effect: String, Sendable, Hashable, CaseIterable {
    /// Deletes the row.
    case delete
    /// Checks or unchecks the row.
    case check
    /// Flags or unflags the row (`Row.isFlagged`).
    case flag
  }

  /// What the server is told; unique within the list.
  public var id: String
  public var title: String
  public var edge: Edge
  public var color: Color
  /// What choosing it does to the row, when that is one of the built-in effects; nil when
  /// only the data source knows (the client then waits for the server's diff).
  public var effect: Effect?

  public init(
    id: String, title: String, edge: Edge = .trailing, color: Color = .gray, effect: Effect? = nil
  ) {
    self.id = id
    self.title = title
    self.edge = edge
    self.color = color
    self.effect = effect
  }
}

extension RowAction {
  /// The wire form, an element of a screen's `actions`.
  public var jsonValue: JSONValue {
    .object(
      JSONObject(
        uniqueMembers: [
          (WireKey.id, .string(id)), (WireKey.title, .string(title)),
          ("edge", .string(edge.rawValue)), ("color", .string(color.rawValue)),
        ] + (effect.map { [("effect", JSONValue.string($0.rawValue))] } ?? [])))
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    self.init(
      id: try fields.string(WireKey.id), title: try fields.string(WireKey.title),
      edge: try fields.name("edge", as: Edge.self), color: try fields.name("color", as: Color.self),
      effect: try fields.optionalString("effect").map { name throws(ProtocolError) in
        guard let effect = Effect(rawValue: name) else {
          throw ProtocolError(.badMessage, "field \"effect\": unknown effect \"\(name)\"")
        }
        return effect
      })
  }
}
