extension TableDiff {
  /// The diff that takes a list from `old` to `new` (its sections at versions `from` and
  /// `from + 1`).
  public init(list: String, from: Int, old: [Section], new: [Section]) throws(DiffError) {
    self.init(list: list, from: from, ops: try Self.ops(from: old, to: new))
  }

  /// The ops that take `old` to `new`, with UIKit's batch-update rules.
  ///
  /// Rows and sections are matched by id. A section only in `old` is deleted, one only in
  /// `new` is inserted with all its rows; sections have no move, so of the sections in
  /// both, those off a longest run in unchanged order are deleted and inserted again. A
  /// section with another header or footer is updated. A row of a surviving old section
  /// whose id no surviving new section holds is deleted; a row of a surviving new section
  /// that no surviving old section held is inserted. Rows that change section move; of the
  /// rows that keep theirs, those off a longest increasing run of old positions move, so
  /// the moves are as few as they can be. A row with the same id and other content is also
  /// updated, at its new index path.
  ///
  /// Ids are compared as UTF-8 bytes, the way the browser compares them.
  ///
  /// - Throws: ``DiffError/duplicateSectionID(_:)`` or ``DiffError/duplicateRowID(_:)``
  ///   (row ids are unique across the list's sections), in `old` or in `new`.
  public static func ops(from old: [Section], to new: [Section]) throws(DiffError) -> [DiffOp] {
    var differ = TableDiffer(old: old, new: new)
    return try differ.ops()
  }
}
