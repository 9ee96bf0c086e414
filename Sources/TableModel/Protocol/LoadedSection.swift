/// A section as a client holds it: its header and footer, how many rows it has in all,
/// and the rows loaded so far — always a prefix, rows `0..<rows.count`.
///
/// The server sends only the first rows of a long section; the client asks for more with
/// `fetch`.
public struct LoadedSection: Sendable, Hashable, Identifiable {
  public var id: String
  public var header: String?
  public var footer: String?
  /// The section's total number of rows.
  public var count: Int
  /// The first `rows.count` rows of the section.
  public var rows: [Row]

  public init(id: String, header: String?, footer: String?, count: Int, rows: [Row]) {
    precondition(rows.count <= count, "section \(id): \(rows.count) rows loaded of \(count)")
    self.id = id
    self.header = header
    self.footer = footer
    self.count = count
    self.rows = rows
  }

  /// `section` with its first `rowLimit` rows.
  public init(_ section: Section, rowLimit: Int = .max) {
    precondition(rowLimit >= 0, "negative row limit \(rowLimit)")
    self.init(
      id: section.id, header: section.header, footer: section.footer, count: section.rows.count,
      rows: section.rows.count <= rowLimit ? section.rows : Array(section.rows.prefix(rowLimit)))
  }

  /// Whether every row of the section is loaded.
  public var isComplete: Bool { rows.count == count }
}
