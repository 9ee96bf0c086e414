/// A row's position: its section and its row within that section.
///
/// On the wire an index path is the array `[section, row]`.
public struct IndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
  public var section: Int
  public var row: Int

  public init(row: Int, section: Int) {
    self.row = row
    self.section = section
  }

  public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
    (lhs.section, lhs.row) < (rhs.section, rhs.row)
  }

  public var description: String { "[\(section),\(row)]" }
}
