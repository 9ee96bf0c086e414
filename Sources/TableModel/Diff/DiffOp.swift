/// One step of a batch update, with UIKit's index rules: removals (`delete`, the `from`
/// of `move`, `deleteSection`) index the list before the change; placements (`insert`,
/// the `to` of `move`, `insertSection`) and updates index it after.
public enum DiffOp: Sendable, Hashable {
  case delete(at: IndexPath)
  case insert(at: IndexPath, row: Row)
  case move(from: IndexPath, to: IndexPath)
  /// Same id, new content.
  case update(at: IndexPath, row: Row)
  /// Removes the section and every row still in it.
  case deleteSection(at: Int)
  /// Places the section with all its rows.
  case insertSection(at: Int, section: Section)
  case updateSection(at: Int, header: String?, footer: String?)
}
