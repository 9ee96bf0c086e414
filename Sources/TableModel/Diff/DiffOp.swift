/// One step of a batch update, with UIKit's index rules: removals (`delete`, the `from`
/// of `move`, `deleteSection`) index the list before the change; placements (`insert`,
/// the `to` of `move`, `insertSection`) and updates index it after.
public enum DiffOp: Sendable, Hashable {
  case delete(at: TableIndexPath)
  case insert(at: TableIndexPath, row: Row)
  case move(from: TableIndexPath, to: TableIndexPath)
  /// Same id, new content.
  case update(at: TableIndexPath, row: Row)
  /// Removes the section and every row still in it.
  case deleteSection(at: Int)
  /// Places the section with all its rows.
  case insertSection(at: Int, section: Section)
  case updateSection(at: Int, header: String?, footer: String?)
}
