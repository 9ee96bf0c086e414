/// A custom cell layout (the guide's custom cells): named slots that each row of the list
/// fills with its `values`. Values are text, or for an image slot a checked URL; clients
/// set them as text and attributes, never as markup.
public struct CellTemplate: Sendable, Hashable {
  /// Where a slot goes in the cell.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The bold first line; the trailing text on its right (a time); a secondary line
    /// under it; a body of gray text clamped to `lines`; a count in a pill; an image.
    case title, trailing, subtitle, body, badge, image
  }

  public struct Slot: Sendable, Hashable {
    public var name: String
    public var kind: Kind
    /// The most lines the slot's text may take; 0: any.
    public var lines: Int

    public init(name: String, kind: Kind, lines: Int = 1) {
      self.name = name
      self.kind = kind
      self.lines = lines
    }
  }

  public var slots: [Slot]

  public init(slots: [Slot]) {
    self.slots = slots
  }

  /// The first of `values` this layout cannot show, as (slot name, why): a name that is
  /// not one of its slots, or an image slot's value that is not an allowed URL.
  public func problem(with values: [String: String]) -> (slot: String, message: String)? {
    for (name, value) in values.sorted(by: { $0.key < $1.key }) {
      guard let slot = slots.first(where: { $0.name == name }) else {
        return (name, "no such slot in the list's cell")
      }
      if slot.kind == .image, !CellTemplate.isAllowedURL(value) {
        return (name, "not an http, https or relative URL")
      }
    }
    return nil
  }

  /// Whether `url` may be an image slot's value: `https:`, `http:` or relative, nothing
  /// else (`javascript:`, `data:` are refused).
  public static func isAllowedURL(_ url: String) -> Bool {
    guard let colon = url.firstIndex(of: ":") else { return true }
    let head = url[..<colon]
    if head.contains("/") || head.contains("?") || head.contains("#") { return true }  // relative
    let scheme = head.lowercased()
    return scheme == "https" || scheme == "http"
  }
}

extension CellTemplate {
  /// `screen.cell` on the wire.
  public var jsonValue: JSONValue {
    .object(
      JSONObject(uniqueMembers: [
        (
          "slots",
          .array(
            slots.map {
              .object(
                JSONObject(uniqueMembers: [
                  ("name", .string($0.name)), ("kind", .string($0.kind.rawValue)),
                  ("lines", .int($0.lines)),
                ]))
            })
        )
      ]))
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    var slots: [Slot] = []
    for slot in try fields.objects("slots") {
      slots.append(
        Slot(
          name: try slot.string("name"), kind: try slot.name("kind", as: Kind.self),
          lines: try slot.int("lines", atLeast: 0)))
    }
    self.init(slots: slots)
  }
}

extension CellTemplate {
  /// Reads `screen.cell`; a missing or mistyped field throws `bad_message`.
  public init(json: JSONValue) throws(ProtocolError) {
    try self.init(reading: FieldReader(json, at: WireKey.cell))
  }
}
