/// Computes the ops that take one version of a list's sections to the next: the work behind
/// ``TableDiff/ops(from:to:)``.
///
/// Built for 100,000 rows, where the cost is hashing ids and fetching memory, so it works
/// a section at a time and keeps its tables small enough for the CPU's caches:
/// 1. Sections are paired by id; those off a longest run in unchanged order are deleted
///    and inserted.
/// 2. Each surviving section is matched against its old self: equal ids at the start and
///    end pair up without a table; the rest meet in a table of that section's old rows.
///    The rows that stay in their section keep their place when they lie on a
///    `LongestIncreasingSubsequence` of old positions, and move otherwise.
/// 3. The rows left over (moved across sections, inserted, deleted, in inserted or deleted
///    sections) meet in one table.
/// 4. Duplicate ids: every old hash and the hashes of the new rows no old row matched
///    must all differ, or two of those rows share an id (`HashCollisions`). A new row
///    that repeats an id is never matched twice, so it lands among those hashes.
///
/// Every old row's id is hashed exactly once, while its section is visited; new rows are
/// hashed only when they do not follow the row matched before them.
struct TableDiffer {
  private let old: [Section]
  private let new: [Section]
  private let hasher = IDBytes.Hasher()
  private let rowContent = RowContent()

  /// Per old section: the index of the same section in `new`, or -1 when it is deleted
  /// (gone, or moved: sections have no move op).
  private var newIndexOfOldSection: [Int] = []
  /// Per new section: the index of the same section in `old`, or -1 when it is inserted.
  private var oldIndexOfNewSection: [Int] = []

  /// Old rows are keyed by their position in the flattened old list. Per old section: the
  /// key of its first row.
  private var firstKeyOfOldSection: [Int] = []
  // Raw storage, allocated and freed by `ops()`: the hot loops write these without
  // uniqueness checks.
  /// Per old row, by key: the high 32 bits of its id's hash, which is all that tables and
  /// duplicate checks after its section need.
  private var oldHashes = UnsafeMutableBufferPointer<UInt32>(start: nil, count: 0)
  /// Per old row, by key: the new section that holds it, or -1 while none does. Not kept
  /// for rows matched by place at the start and end of a section, which nothing looks up.
  private var newSectionOfOldRow = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)

  /// Rows not matched within their own section, for step 3.
  private var unmatchedOld: [RowPosition] = []
  private var unmatchedNew: [RowPosition] = []
  private var unmatchedNewHashes: [UInt32] = []
  /// New rows that no old row matches, for step 4.
  private var newOnly: [RowPosition] = []
  private var newOnlyHashes: [UInt32] = []

  private var deletes: [RowPosition] = []
  private var inserts: [RowPosition] = []
  private var moves: [(from: RowPosition, to: RowPosition)] = []
  private var updates: [RowPosition] = []

  // Reused from section to section.
  private let sectionTable = IDHashTable()
  /// Every old hash, and the hash of every new row no old row matches.
  private let collisions: HashCollisions
  private let staying = StayingRows()
  private let longestIncreasing = LongestIncreasingSubsequence()

  init(old: [Section], new: [Section]) {
    self.old = old
    self.new = new
    // Every old row, and the new rows no old row matches: a fraction, usually.
    let oldRowCount = old.reduce(0) { $0 + $1.rows.count }
    let newRowCount = new.reduce(0) { $0 + $1.rows.count }
    collisions = HashCollisions(count: oldRowCount + newRowCount / 4)
  }

  mutating func ops() throws(DiffError) -> [DiffOp] {
    defer {
      oldHashes.deallocate()
      newSectionOfOldRow.deallocate()
    }
    try pairSections()
    prepareOldRows()
    for newSection in new.indices {
      let oldSection = oldIndexOfNewSection[newSection]
      if oldSection >= 0 {
        try matchRows(of: newSection, with: oldSection)
      } else {
        for row in new[newSection].rows.indices {
          leaveUnmatched(RowPosition(row: row, section: newSection))
        }
      }
    }
    try matchAcrossSections()
    try findDuplicateIDs()
    findDeletes()
    return assembledOps()
  }

  /// Pairs sections by id and keeps those on a longest run in the same relative order.
  private mutating func pairSections() throws(DiffError) {
    var oldIndexByID: [SectionID: Int] = [:]
    oldIndexByID.reserveCapacity(old.count)
    for (index, section) in old.enumerated() {
      guard oldIndexByID.updateValue(index, forKey: SectionID(section.id)) == nil else {
        throw .duplicateSectionID(section.id)
      }
    }
    var newIDs: Set<SectionID> = []
    newIDs.reserveCapacity(new.count)
    var pairedOld: [Int] = []
    var pairedNew: [Int] = []
    for (index, section) in new.enumerated() {
      let id = SectionID(section.id)
      guard newIDs.insert(id).inserted else { throw .duplicateSectionID(section.id) }
      if let oldIndex = oldIndexByID[id] {
        pairedOld.append(oldIndex)
        pairedNew.append(index)
      }
    }
    let isKept = longestIncreasing.mark(pairedOld)
    newIndexOfOldSection = Array(repeating: -1, count: old.count)
    oldIndexOfNewSection = Array(repeating: -1, count: new.count)
    for pair in pairedOld.indices where isKept[pair] {
      newIndexOfOldSection[pairedOld[pair]] = pairedNew[pair]
      oldIndexOfNewSection[pairedNew[pair]] = pairedOld[pair]
    }
  }

  /// Keys the old rows; hashes those of deleted sections and leaves them for step 3.
  private mutating func prepareOldRows() {
    firstKeyOfOldSection.reserveCapacity(old.count)
    var rowCount = 0
    for section in old {
      firstKeyOfOldSection.append(rowCount)
      rowCount += section.rows.count
    }
    oldHashes = .allocate(capacity: rowCount)
    newSectionOfOldRow = .allocate(capacity: rowCount)
    newSectionOfOldRow.initialize(repeating: -1)
    for (index, section) in old.enumerated() where newIndexOfOldSection[index] < 0 {
      let firstKey = firstKeyOfOldSection[index]
      for row in section.rows.indices {
        keepOldHash(hasher.hash(section.rows[row].id), key: firstKey + row)
        unmatchedOld.append(RowPosition(row: row, section: index))
      }
    }
  }

  private mutating func matchRows(of newSection: Int, with oldSection: Int) throws(DiffError) {
    // Rows are read in place through buffer pointers: copying one retains all its strings.
    let oldRows = old[oldSection].rows
    let newRows = new[newSection].rows
    try oldRows.withUnsafeBufferPointer { (oldRows) throws(DiffError) in
      try newRows.withUnsafeBufferPointer { (newRows) throws(DiffError) in
        try matchRows(oldRows, of: oldSection, with: newRows, of: newSection)
      }
    }
  }

  private mutating func matchRows(
    _ oldRows: UnsafeBufferPointer<Row>, of oldSection: Int,
    with newRows: UnsafeBufferPointer<Row>, of newSection: Int
  ) throws(DiffError) {
    let firstKey = firstKeyOfOldSection[oldSection]

    // Equal ids at the start and the end stay where they are, without hashing. Rows that
    // still share their storage with the old version are equal throughout.
    let isShared = oldRows.baseAddress == newRows.baseAddress
    let common = min(oldRows.count, newRows.count)
    var prefix = isShared ? common : 0
    while prefix < common, IDBytes.areEqual(oldRows[prefix].id, newRows[prefix].id) {
      prefix += 1
    }
    var suffix = 0
    while suffix < common - prefix,
      IDBytes.areEqual(
        oldRows[oldRows.count - 1 - suffix].id, newRows[newRows.count - 1 - suffix].id)
    {
      suffix += 1
    }
    // Rows matched by place are in no table and never deleted: `newSectionOfOldRow` is
    // left alone for them.
    for row in 0..<prefix {
      keepOldHash(hasher.hash(oldRows[row].id), key: firstKey + row)
      if !isShared, !rowContent.isSame(oldRows.baseAddress! + row, newRows.baseAddress! + row) {
        updates.append(RowPosition(row: row, section: newSection))
      }
    }

    // The middle: the section's own old rows in a table, looked up by its new rows.
    let oldMiddle = prefix..<(oldRows.count - suffix)
    sectionTable.reset(capacity: oldMiddle.count)
    for row in oldMiddle {
      let hash = hasher.hash(oldRows[row].id)
      keepOldHash(hash, key: firstKey + row)
      let isDuplicate =
        sectionTable.findOrAdd(row, hash: hash) {
          IDBytes.areEqual(oldRows[$0].id, oldRows[row].id)
        } != nil
      if isDuplicate { throw .duplicateRowID(oldRows[row].id) }
    }
    staying.reset(capacity: newRows.count - suffix - prefix)
    // Most rows follow the row before them, as they did in the old list: try the old row
    // after the last match first, and hash and look up only when that is not the one.
    var expected = prefix
    for row in prefix..<(newRows.count - suffix) {
      var match: Int?
      if expected < oldMiddle.upperBound, IDBytes.areEqual(oldRows[expected].id, newRows[row].id) {
        match = expected
      }
      var hash: UInt64 = 0
      if match == nil {
        hash = hasher.hash(newRows[row].id)
        match = sectionTable.find(hash: hash) { IDBytes.areEqual(oldRows[$0].id, newRows[row].id) }
      }
      if let oldRow = match, newSectionOfOldRow[firstKey + oldRow] < 0 {
        newSectionOfOldRow[firstKey + oldRow] = Int32(newSection)
        staying.append(old: oldRow, new: row)
        expected = oldRow + 1
      } else {
        if match != nil { hash = hasher.hash(newRows[row].id) }
        unmatchedNew.append(RowPosition(row: row, section: newSection))
        unmatchedNewHashes.append(UInt32(truncatingIfNeeded: hash >> 32))
      }
    }
    for row in oldMiddle where newSectionOfOldRow[firstKey + row] < 0 {
      unmatchedOld.append(RowPosition(row: row, section: oldSection))
    }
    let isInOrder = longestIncreasing.mark(staying.oldRowsInNewOrder)
    for index in 0..<staying.count {
      let oldRow = staying.oldRows[index]
      let newRow = staying.newRows[index]
      let to = RowPosition(row: newRow, section: newSection)
      if !isInOrder[index] {
        moves.append((RowPosition(row: oldRow, section: oldSection), to))
      }
      if !rowContent.isSame(oldRows.baseAddress! + oldRow, newRows.baseAddress! + newRow) {
        updates.append(to)
      }
    }

    for offset in stride(from: suffix, to: 0, by: -1) {
      let oldRow = oldRows.count - offset
      let newRow = newRows.count - offset
      keepOldHash(hasher.hash(oldRows[oldRow].id), key: firstKey + oldRow)
      if !rowContent.isSame(oldRows.baseAddress! + oldRow, newRows.baseAddress! + newRow) {
        updates.append(RowPosition(row: newRow, section: newSection))
      }
    }
  }

  @inline(__always)
  private func keepOldHash(_ hash: UInt64, key: Int) {
    let high = UInt32(truncatingIfNeeded: hash >> 32)
    oldHashes[key] = high
  }

  private mutating func leaveUnmatched(_ position: RowPosition) {
    let at = position.indexPath
    unmatchedNew.append(position)
    let hash = hasher.hash(new[at.section].rows[at.row].id)
    unmatchedNewHashes.append(UInt32(truncatingIfNeeded: hash >> 32))
  }

  /// A kept 32-bit hash as `IDHashTable` takes one: the same bits pick the slot and
  /// make the tag.
  private static func tableHash(_ hash: UInt32) -> UInt64 { UInt64(hash) << 32 | UInt64(hash) }

  /// Rows moving between sections, leaving deleted sections (inserted here) and entering
  /// inserted sections (deleted there).
  private mutating func matchAcrossSections() throws(DiffError) {
    let table = IDHashTable()
    table.reset(capacity: unmatchedOld.count)
    // Ids are read only when 32 bits of their hashes agree: each read is a cache miss.
    for (index, position) in unmatchedOld.enumerated() {
      let at = position.indexPath
      let hash = Self.tableHash(oldHashes[firstKeyOfOldSection[at.section] + at.row])
      let existing = table.findOrAdd(index, hash: hash) {
        let other = unmatchedOld[$0].indexPath
        return IDBytes.areEqual(
          old[other.section].rows[other.row].id, old[at.section].rows[at.row].id)
      }
      if existing != nil { throw .duplicateRowID(old[at.section].rows[at.row].id) }
    }
    for (index, position) in unmatchedNew.enumerated() {
      let to = position.indexPath
      let isSurviving = oldIndexOfNewSection[to.section] >= 0
      let match = table.find(hash: Self.tableHash(unmatchedNewHashes[index])) {
        let other = unmatchedOld[$0].indexPath
        return IDBytes.areEqual(
          old[other.section].rows[other.row].id, new[to.section].rows[to.row].id)
      }
      guard let match else {
        newOnly.append(position)
        newOnlyHashes.append(unmatchedNewHashes[index])
        if isSurviving { inserts.append(position) }
        continue
      }
      let from = unmatchedOld[match].indexPath
      let key = firstKeyOfOldSection[from.section] + from.row
      guard newSectionOfOldRow[key] < 0 else {
        throw .duplicateRowID(new[to.section].rows[to.row].id)
      }
      newSectionOfOldRow[key] = Int32(to.section)
      guard isSurviving else { continue }
      if newIndexOfOldSection[from.section] < 0 {
        inserts.append(position)
      } else {
        moves.append((unmatchedOld[match], position))
        let isSame = old[from.section].rows.withUnsafeBufferPointer { oldRows in
          new[to.section].rows.withUnsafeBufferPointer { newRows in
            rowContent.isSame(oldRows.baseAddress! + from.row, newRows.baseAddress! + to.row)
          }
        }
        if !isSame { updates.append(position) }
      }
    }
  }

  private func findDuplicateIDs() throws(DiffError) {
    // Marked here in one pass rather than as they are computed, where the bitmaps would
    // share the caches with the rows being read.
    for hash in oldHashes { collisions.mark(hash) }
    for hash in newOnlyHashes { collisions.mark(hash) }
    let collisions = newOnlyHashes.withUnsafeBufferPointer { newOnlyHashes in
      self.collisions.entries(in: UnsafeBufferPointer(oldHashes), newOnlyHashes)
    }
    guard !collisions.isEmpty else { return }
    let ids = collisions.map { index in
      if index < oldHashes.count {
        let at = oldLocation(ofKey: index)
        return old[at.section].rows[at.row].id
      }
      let at = newOnly[index - oldHashes.count].indexPath
      return new[at.section].rows[at.row].id
    }
    // Equal hashes are adjacent; an equal hash is almost always an equal id.
    var start = 0
    while start < collisions.count {
      let hash = hash(ofCollision: collisions[start])
      var end = start + 1
      while end < collisions.count, self.hash(ofCollision: collisions[end]) == hash { end += 1 }
      for first in start..<end {
        for second in (first + 1)..<end where IDBytes.areEqual(ids[first], ids[second]) {
          throw .duplicateRowID(ids[first])
        }
      }
      start = end
    }
  }

  private func hash(ofCollision index: Int) -> UInt32 {
    index < oldHashes.count ? oldHashes[index] : newOnlyHashes[index - oldHashes.count]
  }

  private func oldLocation(ofKey key: Int) -> TableIndexPath {
    // The last section whose first key is not after `key` (sections may be empty).
    var low = 0
    var high = firstKeyOfOldSection.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if firstKeyOfOldSection[middle] <= key { low = middle } else { high = middle - 1 }
    }
    return TableIndexPath(row: key - firstKeyOfOldSection[low], section: low)
  }

  /// Rows of surviving old sections that no surviving new section holds: only rows left
  /// unmatched in their own section can be. Those were left section by section in new
  /// order, which for surviving sections is old order, so the deletes come out in order.
  private mutating func findDeletes() {
    for position in unmatchedOld {
      let at = position.indexPath
      guard newIndexOfOldSection[at.section] >= 0 else { continue }
      let newSection = Int(newSectionOfOldRow[firstKeyOfOldSection[at.section] + at.row])
      if newSection < 0 || oldIndexOfNewSection[newSection] < 0 {
        deletes.append(position)
      }
    }
  }

  /// Section deletes, inserts and updates, then row deletes, inserts, moves and updates,
  /// each in index order.
  private mutating func assembledOps() -> [DiffOp] {
    moves.sort { $0.to < $1.to }
    updates.sort()
    var ops: [DiffOp] = []
    // Section ops are at most one per old section and two per new one.
    ops.reserveCapacity(
      old.count + 2 * new.count + deletes.count + inserts.count + moves.count + updates.count)
    for (index, newIndex) in newIndexOfOldSection.enumerated() where newIndex < 0 {
      ops.append(.deleteSection(at: index))
    }
    for (index, oldIndex) in oldIndexOfNewSection.enumerated() where oldIndex < 0 {
      ops.append(.insertSection(at: index, section: new[index]))
    }
    for (index, oldIndex) in oldIndexOfNewSection.enumerated() where oldIndex >= 0 {
      let section = new[index]
      if !section.hasSameHeaderAndFooter(as: old[oldIndex]) {
        ops.append(.updateSection(at: index, header: section.header, footer: section.footer))
      }
    }
    for position in deletes { ops.append(.delete(at: position.indexPath)) }
    for position in inserts {
      let at = position.indexPath
      ops.append(.insert(at: at, row: new[at.section].rows[at.row]))
    }
    for move in moves { ops.append(.move(from: move.from.indexPath, to: move.to.indexPath)) }
    for position in updates {
      let at = position.indexPath
      ops.append(.update(at: at, row: new[at.section].rows[at.row]))
    }
    return ops
  }
}

/// A section id compared and hashed by its bytes, like row ids.
private struct SectionID: Hashable {
  let id: String

  init(_ id: String) { self.id = id }

  static func == (a: SectionID, b: SectionID) -> Bool { IDBytes.areEqual(a.id, b.id) }

  func hash(into hasher: inout Hasher) {
    var id = id
    id.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
