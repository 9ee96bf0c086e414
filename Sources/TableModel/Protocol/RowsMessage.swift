/// The `rows` message, the answer to `fetch`: rows `from..<from + rows.count` of one
/// section of a list at one version.
public struct RowsMessage: Sendable, Hashable {
  public var list: String
  public var version: Int
  /// The section's index at `version`.
  public var section: Int
  /// The index of the first row.
  public var from: Int
  public var rows: [Row]

  public init(list: String, version: Int, section: Int, from: Int, rows: [Row]) {
    self.list = list
    self.version = version
    self.section = section
    self.from = from
    self.rows = rows
  }
}
