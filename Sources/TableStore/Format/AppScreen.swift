import TableModel

/// One screen of the data format (`docs/data-format.md`): a list, its sections and rows,
/// and through rows' `children` the screens below it. A data file is the root screen.
public struct AppScreen: Sendable, Hashable {
  /// The list's id; generated on import when nil.
  public var id: String?
  public var title: String
  public var style: TableStyle
  public var selection: SelectionMode
  public var isEditable: Bool
  public var isIndexed: Bool
  public var header: String?
  public var footer: String?
  public var sections: [AppSection]
  /// Whether the screen shows a search field (v1.1 `searchable`).
  public var isSearchable: Bool
  /// Swipe actions and context menu items of every row (see ``AppAction``).
  public var actions: [AppAction] = []
  /// The screen's custom cell layout, which rows with `values` fill.
  public var cell: CellTemplate?
  /// The language of the screen's text, a BCP 47 tag (v1.2 `language`); nil: the app's,
  /// which is the root screen's.
  public var language: String?

  public init(
    id: String? = nil, title: String, style: TableStyle = .plain, selection: SelectionMode = .none,
    isEditable: Bool = false, isIndexed: Bool = false, header: String? = nil, footer: String? = nil,
    sections: [AppSection] = [], isSearchable: Bool = false
  ) {
    self.id = id
    self.title = title
    self.style = style
    self.selection = selection
    self.isEditable = isEditable
    self.isIndexed = isIndexed
    self.header = header
    self.footer = footer
    self.sections = sections
    self.isSearchable = isSearchable
  }

  /// How many rows this screen and every screen below it hold.
  public var totalRows: Int {
    sections.reduce(0) { total, section in
      total + section.rows.reduce(0) { $0 + 1 + ($1.children?.totalRows ?? 0) }
    }
  }
}

public struct AppSection: Sendable, Hashable {
  public var id: String?
  public var header: String?
  public var footer: String?
  public var rows: [AppRow]

  public init(id: String? = nil, header: String? = nil, footer: String? = nil, rows: [AppRow] = [])
  {
    self.id = id
    self.header = header
    self.footer = footer
    self.rows = rows
  }
}

/// A row exists only while the switch in row `row` (of the same screen) is `isOn`.
public struct ShowWhen: Sendable, Hashable {
  public var row: String
  public var isOn: Bool

  public init(row: String, isOn: Bool) {
    self.row = row
    self.isOn = isOn
  }
}

/// A row of the data file. Not the wire's `NewRow` (what a client may insert): see there.
public struct AppRow: Sendable, Hashable {
  public var id: String?
  public var text: String
  public var detail: String?
  public var style: CellStyle
  /// The most lines the text may take; 0: as many as it needs (v1.1).
  public var lines: Int
  /// Whether the row carries a flag (see ``AppAction/Effect/flag``).
  public var isFlagged: Bool = false
  /// The values of the screen's custom cell slots, by slot name.
  public var values: [String: String] = [:]
  /// The ids of the screen's `actions` this row offers, in the order shown; nil: all of
  /// them; empty: none.
  public var actions: [String]?
  public var image: String?
  /// nil: the default (disclosure when the row has children, else none).
  public var accessory: AccessoryType?
  /// A switch in the row, and its state.
  public var isOn: Bool?
  public var isChecked: Bool
  public var showWhen: ShowWhen?
  /// The screen that tapping the row (or its detail button) pushes.
  public var children: AppScreen?

  public init(
    id: String? = nil, text: String, detail: String? = nil, style: CellStyle = .default,
    image: String? = nil, accessory: AccessoryType? = nil, isOn: Bool? = nil,
    isChecked: Bool = false,
    showWhen: ShowWhen? = nil, children: AppScreen? = nil, lines: Int = 1
  ) {
    self.id = id
    self.text = text
    self.detail = detail
    self.style = style
    self.lines = lines
    self.image = image
    self.accessory = accessory
    self.isOn = isOn
    self.isChecked = isChecked
    self.showWhen = showWhen
    self.children = children
  }
}
