/// An index path packed into 8 bytes, for the diff's long intermediate lists: half the
/// memory of `TableIndexPath`, and a diff of 100,000 rows allocates less fresh memory (every new
/// page is a page fault).
struct RowPosition: Comparable {
  private var section: Int32
  private var row: Int32

  init(row: Int, section: Int) {
    self.section = Int32(truncatingIfNeeded: section)
    self.row = Int32(truncatingIfNeeded: row)
  }

  var indexPath: TableIndexPath { TableIndexPath(row: Int(row), section: Int(section)) }

  static func < (a: RowPosition, b: RowPosition) -> Bool {
    (a.section, a.row) < (b.section, b.row)
  }
}
