import TableModel

extension Store {
  /// Visible rows `from..<from+count` of a stored section holding `total` visible rows:
  /// block counts find the block holding row `from`, then only the window is read (the
  /// scheme is described in Store+Ordering.swift).
  func window(ofSection sectionID: Int, total: Int, from: Int, count: Int, list: ListRecord)
    throws(StoreError) -> [Row]
  {
    guard from < total, count > 0 else { return [] }
    // Find the block holding row `from`, walking from the nearer end.
    var startPos = 0
    var offset = 0
    if from < total / 2 {
      var before = 0
      try forEach("SELECT pos, count FROM block WHERE section_id = ? ORDER BY pos", [sectionID]) {
        s in
        let blockCount = s.int(1)
        if before + blockCount > from {
          startPos = s.int(0)
          offset = from - before
          return false
        }
        before += blockCount
        return true
      }
    } else {
      var after = 0
      try forEach(
        "SELECT pos, count FROM block WHERE section_id = ? ORDER BY pos DESC", [sectionID]
      ) { s in
        after += s.int(1)
        let start = total - after
        if start <= from {
          startPos = s.int(0)
          offset = from - start
          return false
        }
        return true
      }
    }
    // The blocks that hold the window.
    var blocks: [Int] = []
    var covered = -offset
    try forEach(
      "SELECT id, count FROM block WHERE section_id = ? AND pos >= ? ORDER BY pos",
      [sectionID, startPos]
    ) { s in
      guard s.int(1) > 0 else { return true }
      blocks.append(s.int(0))
      covered += s.int(1)
      return covered < count
    }
    var rows: [Row] = []
    rows.reserveCapacity(count)
    for block in blocks {
      rows += try fetchAll(
        Store.rowSelect + " WHERE r.block_id = ? AND r.visible ORDER BY r.pos LIMIT ? OFFSET ?",
        [block, count - rows.count, offset], { makeRow($0, in: list) })
      offset = 0
    }
    return rows
  }
}
