import TableModel

/// Row order without renumbering, and windows without scans.
///
/// The rows of a section are kept in *blocks*: runs of consecutive rows. A block has a
/// position among its section's blocks (`block.pos`) and counts of its rows (`size`) and
/// of its visible rows (`count`); a row has a position inside its block (`row.pos`). A
/// section's order is (`block.pos`, `row.pos`).
///
/// - Inserting or moving a row touches one block: the row takes the position halfway
///   between its neighbours (rows start 2^32 apart). Only when two neighbours are adjacent
///   is that one block renumbered (at most `blockCapacity` rows, one statement). A block
///   that grows past `blockCapacity` splits in two; a block that empties is dropped, and
///   one under a quarter full is folded into the next when both fit in half a block.
/// - Reading rows `from..<from+n` of a section sums block counts — a covering index of one
///   small entry per block, walked from whichever end of the section is nearer — to find
///   the block holding row `from`, then skips fewer than `blockCapacity` index entries in
///   it (the only OFFSET, bounded by a block). For 1,000,000 imported rows (768 to a block)
///   that is at most about 650 block entries, not a million rows: O(n/B + B) with
///   B ≈ 1,000.
extension Store {
  static let defaultBlockCapacity = 1_024

  /// How full import makes blocks, leaving room to insert without splitting at once.
  var importBlockFill: Int { max(1, blockCapacity * 3 / 4) }
  /// Room for 32 halvings between two rows before their block is renumbered.
  static let rowGap = 1 << 32
  static let blockGap = 1 << 32

  /// Where a row goes: a block, its position there, and how many rows the block holds
  /// before the row arrives.
  struct Slot {
    var block: Int
    var pos: Int
    var blockSize: Int
  }

  /// Where a row goes in section `sectionID`: right after `after`, or first when nil.
  /// Creates the section's first block when it has none. `after` must have been read in
  /// this transaction with no row added to or removed from its block since.
  func slot(inSection sectionID: Int, after: RowRecord?) throws(StoreError) -> Slot {
    guard let after else {
      guard
        let (first, size) = try fetchOne(
          "SELECT id, size FROM block WHERE section_id = ? ORDER BY pos LIMIT 1", [sectionID],
          { ($0.int(0), $0.int(1)) })
      else {
        return Slot(block: try makeBlock(inSection: sectionID, pos: 0), pos: 0, blockSize: 0)
      }
      var lowest = try fetchInt(
        "SELECT pos FROM row WHERE block_id = ? ORDER BY pos LIMIT 1", first)
      if let low = lowest, low < Int.min / 2 {  // after billions of inserts at the front
        try renumberRows(inBlock: first)
        lowest = 0
      }
      return Slot(block: first, pos: (lowest ?? Store.rowGap) - Store.rowGap, blockSize: size)
    }
    precondition(
      after.sectionID == sectionID,
      "row #\(after.id) is in section #\(after.sectionID), not #\(sectionID)")
    var pos = after.pos
    for attempt in 0..<2 {
      guard
        let next = try fetchInt(
          "SELECT pos FROM row WHERE block_id = ? AND pos > ? ORDER BY pos LIMIT 1", after.blockID,
          pos)
      else {
        return Slot(block: after.blockID, pos: pos + Store.rowGap, blockSize: after.blockSize)
      }
      if next - pos >= 2 {
        return Slot(block: after.blockID, pos: pos + (next - pos) / 2, blockSize: after.blockSize)
      }
      precondition(attempt == 0, "block #\(after.blockID) still has no gap after renumbering")
      try renumberRows(inBlock: after.blockID)
      guard let renumbered = try fetchInt("SELECT pos FROM row WHERE id = ?", after.id) else {
        throw .notFound("row \(after.key)")
      }
      pos = renumbered
    }
    preconditionFailure("unreachable")
  }

  /// Records that a row (visible or not) was placed in `slot`; splits the block when full.
  /// The section's count is the caller's (``addVisibleRows(_:toSection:)``).
  func didAddRow(to slot: Slot, visible: Bool) throws(StoreError) {
    try execute(
      "UPDATE block SET size = size + 1, count = count + ? WHERE id = ?", visible ? 1 : 0,
      slot.block)
    if slot.blockSize + 1 > blockCapacity { try split(slot.block) }
  }

  /// Records that `row` left its block: drops the block when it is empty, folds it into the
  /// next when sparse. `row` is the record read before it left (its `blockSize` counts it).
  /// The section's count is the caller's (``addVisibleRows(_:toSection:)``).
  func didRemoveRow(_ row: RowRecord) throws(StoreError) {
    let size = row.blockSize - 1
    if size == 0 {
      try execute("DELETE FROM block WHERE id = ?", row.blockID)
      return
    }
    try execute(
      "UPDATE block SET size = size - 1, count = count - ? WHERE id = ?", row.isVisible ? 1 : 0,
      row.blockID)
    if size < blockCapacity / 4 { try mergeIntoNext(row.blockID, size: size) }
  }

  /// Adds `delta` to the count of visible rows of section `sectionID`.
  func addVisibleRows(_ delta: Int, toSection sectionID: Int) throws(StoreError) {
    guard delta != 0 else { return }
    try execute("UPDATE section SET count = count + ? WHERE id = ?", delta, sectionID)
  }

  /// Folds a sparse block into the block after it when both fit in half a block, so that
  /// deletions cannot leave a long section made of near-empty blocks.
  private func mergeIntoNext(_ blockID: Int, size: Int) throws(StoreError) {
    guard
      let (next, nextSize) = try fetchOne(
        """
        SELECT n.id, n.size FROM block b JOIN block n ON n.section_id = b.section_id AND n.pos > b.pos
        WHERE b.id = ? ORDER BY n.pos LIMIT 1
        """, [blockID], { ($0.int(0), $0.int(1)) }),
      size + nextSize <= blockCapacity / 2
    else { return }
    try execute(
      """
      UPDATE row SET block_id = ?2, pos = o.n * ?3
      FROM (
        SELECT id, row_number() OVER (ORDER BY block_id = ?2, pos) - 1 AS n
        FROM row WHERE block_id IN (?1, ?2)
      ) AS o
      WHERE row.id = o.id
      """, blockID, next, Store.rowGap)
    try execute(
      """
      UPDATE block SET size = (SELECT count(*) FROM row WHERE block_id = block.id),
        count = (SELECT count(*) FROM row WHERE block_id = block.id AND visible)
      WHERE id = ?
      """, next)
    try execute("DELETE FROM block WHERE id = ?", blockID)
  }

  /// Shows or hides a row (its `showWhen` rule changed), keeping the counts right.
  func setVisible(_ row: RowRecord, _ visible: Bool) throws(StoreError) {
    guard row.isVisible != visible else { return }
    let delta = visible ? 1 : -1
    try execute("UPDATE row SET visible = ? WHERE id = ?", visible, row.id)
    try execute("UPDATE block SET count = count + ? WHERE id = ?", delta, row.blockID)
    try addVisibleRows(delta, toSection: row.sectionID)
  }

  func makeBlock(inSection sectionID: Int, pos: Int) throws(StoreError) -> Int {
    try execute(
      "INSERT INTO block (section_id, pos, count, size) VALUES (?, ?, 0, 0)", sectionID, pos)
    return try database.lastInsertID()
  }

  /// Moves the upper half of a full block into a new block right after it.
  private func split(_ blockID: Int) throws(StoreError) {
    guard
      let (sectionID, blockPos, size) = try fetchOne(
        "SELECT section_id, pos, size FROM block WHERE id = ?", [blockID],
        { ($0.int(0), $0.int(1), $0.int(2)) })
    else { throw .notFound("block #\(blockID)") }
    guard
      let median = try fetchInt(
        "SELECT pos FROM row WHERE block_id = ? ORDER BY pos LIMIT 1 OFFSET ?", blockID, size / 2)
    else { return }
    let newPos: Int
    if let next = try fetchInt(
      "SELECT pos FROM block WHERE section_id = ? AND pos > ? ORDER BY pos LIMIT 1", sectionID,
      blockPos)
    {
      if next - blockPos < 2 {
        try renumberBlocks(inSection: sectionID)
        return try split(blockID)
      }
      newPos = blockPos + (next - blockPos) / 2
    } else {
      newPos = blockPos + Store.blockGap
    }
    let newBlock = try makeBlock(inSection: sectionID, pos: newPos)
    try execute(
      "UPDATE row SET block_id = ? WHERE block_id = ? AND pos >= ?", newBlock, blockID, median)
    try execute(
      """
      UPDATE block SET size = (SELECT count(*) FROM row WHERE block_id = block.id),
        count = (SELECT count(*) FROM row WHERE block_id = block.id AND visible)
      WHERE id IN (?, ?)
      """, blockID, newBlock)
  }

  /// Spreads a block's rows out again, in one statement: at most `blockCapacity` rows.
  private func renumberRows(inBlock blockID: Int) throws(StoreError) {
    try execute(
      """
      UPDATE row SET pos = o.n * ?2
      FROM (SELECT id, row_number() OVER (ORDER BY pos) - 1 AS n FROM row WHERE block_id = ?1) AS o
      WHERE row.id = o.id
      """, blockID, Store.rowGap)
  }

  /// Spreads a section's blocks out again; O(blocks), and rare: only when two blocks that
  /// were split between again and again have no position left between them.
  private func renumberBlocks(inSection sectionID: Int) throws(StoreError) {
    // First to distinct negative positions in the same order, so that no two blocks share
    // a position on the way; then spread out.
    let positions: [(String, [any DatabaseValueConvertible])] = [
      ("o.n - o.total", [sectionID]), ("o.n * ?2", [sectionID, Store.blockGap]),
    ]
    for (target, arguments) in positions {
      try execute(
        """
        UPDATE block SET pos = \(target)
        FROM (
          SELECT id, row_number() OVER (ORDER BY pos) - 1 AS n, count(*) OVER () AS total
          FROM block WHERE section_id = ?1
        ) AS o
        WHERE block.id = o.id
        """, arguments: arguments)
    }
  }

  /// The visible row just before `row` in its section, or nil when it is first.
  func previousVisibleRow(_ row: RowRecord) throws(StoreError) -> String? {
    if let key = try fetchOne(
      "SELECT key FROM row WHERE block_id = ? AND pos < ? AND visible ORDER BY pos DESC LIMIT 1",
      [row.blockID, row.pos], { $0.string(0) })
    {
      return key
    }
    let blockPos = try fetchInt("SELECT pos FROM block WHERE id = ?", row.blockID) ?? 0
    guard
      let previous = try fetchInt(
        "SELECT id FROM block WHERE section_id = ? AND pos < ? AND count > 0 ORDER BY pos DESC LIMIT 1",
        row.sectionID, blockPos)
    else { return nil }
    return try fetchOne(
      "SELECT key FROM row WHERE block_id = ? AND visible ORDER BY pos DESC LIMIT 1", [previous],
      { $0.string(0) })
  }
}
