/// One row of a table, as the server describes the cell to draw for it.
///
/// `id` is stable for the row's lifetime and unique within its list; clients key rows by
/// it, never by text. Two rows with the same `id` and different content are one row that
/// was updated.
public struct Row: Sendable, Hashable, Identifiable {
  public var id: String
  public var style: CellStyle
  public var text: String
  public var detail: String?
  /// The most lines the text may take (`numberOfLines`); 0: as many as it needs, the row
  /// growing to fit (a self-sizing cell).
  public var lines: Int
  /// The URL of the row's image, shown when the style allows one.
  public var image: String?
  public var accessory: AccessoryType
  public var control: CellControl?
  /// The control shown in editing mode.
  public var editingStyle: EditingStyle
  /// Whether editing mode shows a reorder handle.
  public var isMovable: Bool
  /// Whether tapping the row does anything (highlights, drills down, checks).
  public var isSelectable: Bool
  /// Whether the row carries a flag (a row action's effect; shown beside its text).
  public var isFlagged: Bool = false
  /// The values of the list's custom cell slots, by slot name; empty: a standard cell.
  public var values: [String: String] = [:]
  /// The ids of the list's row actions this row offers, in the order shown (swipe buttons
  /// and context menu); nil: all of the list's; empty: none.
  public var actions: [String]?

  public init(
    id: String, style: CellStyle = .default, text: String, detail: String? = nil,
    image: String? = nil, accessory: AccessoryType = .none, control: CellControl? = nil,
    editingStyle: EditingStyle = .none, isMovable: Bool = false, isSelectable: Bool = true,
    lines: Int = 1
  ) {
    self.id = id
    self.style = style
    self.text = text
    self.detail = detail
    self.lines = lines
    self.image = image
    self.accessory = accessory
    self.control = control
    self.editingStyle = editingStyle
    self.isMovable = isMovable
    self.isSelectable = isSelectable
  }
}
