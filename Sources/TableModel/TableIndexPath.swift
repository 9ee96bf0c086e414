/// A row's position: its section and its row within that section.
///
/// On the wire an index path is the array `[section, row]`. Named apart from Foundation's
/// `IndexPath`, so that an app importing both writes either without qualifying it.
public struct TableIndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
  public var section: Int
  public var row: Int

  public init(row: Int, section: Int) {
    self.row = row
    self.section = section
  }

  public static func < (lhs: TableIndexPath, rhs: TableIndexPath) -> Bool {
    (lhs.section, lhs.row) < (rhs.section, rhs.row)
  }

  public var description: String { "[\(section),\(row)]" }
}
