/// A screen as the `screen` message carries it and a client holds it: one list at one
/// version, this session's back title and editing mode, and each section's first rows
/// with its full count.
public struct LoadedScreen: Sendable, Hashable {
  public var list: String
  public var version: Int
  public var title: String
  /// The previous level's title, for the back button; nil at the root.
  public var backTitle: String?
  public var style: TableStyle
  /// Whether this session has the table in editing mode.
  public var isEditing: Bool
  /// Whether rows may be deleted, inserted, moved and renamed.
  public var isEditable: Bool
  public var selection: SelectionMode
  public var indexTitles: [String]?
  public var header: String?
  public var footer: String?
  public var sections: [LoadedSection]
  /// Whether the screen shows a search field (v1.1).
  public var isSearchable: Bool
  /// The query whose results this screen shows, or nil when it shows the whole list.
  public var search: String?
  /// The list's row actions (an extension, sent only when there are some).
  public var actions: [RowAction] = []
  /// The list's custom cell layout (an extension, sent only when there is one).
  public var cell: CellTemplate?
  /// The language of the screen's text (an extension of v1.2, sent only when known).
  public var language: String?

  public init(
    list: String, version: Int, title: String, backTitle: String? = nil,
    style: TableStyle = .plain, isEditing: Bool = false, isEditable: Bool = false,
    selection: SelectionMode = .none, indexTitles: [String]? = nil, header: String? = nil,
    footer: String? = nil, sections: [LoadedSection] = [], isSearchable: Bool = false,
    search: String? = nil
  ) {
    self.list = list
    self.version = version
    self.title = title
    self.backTitle = backTitle
    self.style = style
    self.isEditing = isEditing
    self.isEditable = isEditable
    self.selection = selection
    self.indexTitles = indexTitles
    self.header = header
    self.footer = footer
    self.sections = sections
    self.isSearchable = isSearchable
    self.search = search
  }

  /// What the server sends of a list's snapshot to one session: each section cut to
  /// `rowLimit` rows, with this session's back title and editing mode.
  /// `search` is the query `snapshot` holds the results of.
  public init(
    snapshot: TableSnapshot, backTitle: String?, isEditing: Bool, rowLimit: Int = 300,
    search: String? = nil
  ) {
    var sections: [LoadedSection] = []
    sections.reserveCapacity(snapshot.sections.count)
    for section in snapshot.sections {
      sections.append(LoadedSection(section, rowLimit: rowLimit))
    }
    self.init(
      list: snapshot.list, version: snapshot.version, title: snapshot.title,
      backTitle: backTitle, style: snapshot.style, isEditing: isEditing,
      isEditable: snapshot.isEditable, selection: snapshot.selection,
      indexTitles: snapshot.indexTitles, header: snapshot.header, footer: snapshot.footer,
      sections: sections, isSearchable: snapshot.isSearchable, search: search)
    actions = snapshot.actions
    cell = snapshot.cell
    language = snapshot.language
  }
}
