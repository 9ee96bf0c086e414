/// A section of a table: an optional header and footer around an ordered run of rows.
public struct Section: Sendable, Hashable, Identifiable {
  public var id: String
  public var header: String?
  public var footer: String?
  public var rows: [Row]

  public init(id: String, header: String? = nil, footer: String? = nil, rows: [Row] = []) {
    self.id = id
    self.header = header
    self.footer = footer
    self.rows = rows
  }

  /// The section without its rows: what `updateSection` compares.
  public func hasSameHeaderAndFooter(as other: Section) -> Bool {
    header == other.header && footer == other.footer
  }
}
