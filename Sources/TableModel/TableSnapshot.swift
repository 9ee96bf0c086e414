/// Everything a screen shows of one list at one version: the data behind a table view.
///
/// A snapshot is shared by every session viewing the list. What belongs to one session
/// (the back title, editing mode) is added when it is sent, as a ``LoadedScreen``.
public struct TableSnapshot: Sendable, Hashable {
  /// The list's id (`"L7"`).
  public var list: String
  /// Grows by exactly one with each change to the list. Only a data source that keeps its
  /// own versions (`keepsVersions`) sets it; for any other the server counts versions and
  /// this stays 0, as the initializer leaves it.
  public var version: Int
  public var title: String
  public var style: TableStyle
  public var selection: SelectionMode
  /// Whether rows may be deleted, inserted, moved and renamed.
  public var isEditable: Bool
  /// The section index titles (`sectionIndexTitles(for:)`), or nil for no index strip.
  public var indexTitles: [String]?
  /// The table's own header and footer views, as text.
  public var header: String?
  public var footer: String?
  public var sections: [Section]
  /// Whether screens of the list show a search field (`UISearchController`).
  public var isSearchable: Bool
  /// The swipe actions and context menu of the list's rows (empty: none but Delete's
  /// swipe); a row offers them all unless its ``Row/actions`` names some.
  public var actions: [RowAction] = []
  /// The list's custom cell layout, which rows with `values` fill; nil: none.
  public var cell: CellTemplate?
  /// The language of the list's text, a BCP 47 tag (`"he"`, `"pt-BR"`, `"zh-Hans"`); nil:
  /// not known. Sent with every `screen`: the page takes `lang`, `dir` and its own words
  /// from it. Set it on every snapshot of an app in one language.
  public var language: String?

  public init(
    list: String, version: Int = 0, title: String, style: TableStyle = .plain,
    selection: SelectionMode = .none, isEditable: Bool = false, indexTitles: [String]? = nil,
    header: String? = nil, footer: String? = nil, sections: [Section] = [],
    isSearchable: Bool = false
  ) {
    self.list = list
    self.version = version
    self.title = title
    self.style = style
    self.selection = selection
    self.isEditable = isEditable
    self.indexTitles = indexTitles
    self.header = header
    self.footer = footer
    self.sections = sections
    self.isSearchable = isSearchable
  }

  public var numberOfRows: Int { sections.reduce(0) { $0 + $1.rows.count } }

  public subscript(indexPath: TableIndexPath) -> Row {
    get { sections[indexPath.section].rows[indexPath.row] }
    set { sections[indexPath.section].rows[indexPath.row] = newValue }
  }
}
