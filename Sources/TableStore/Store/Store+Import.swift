import Foundation
import TableModel

extension Store {
  /// Replaces all of the app's data with a data file's text. An invalid file throws
  /// ``StoreError/invalidData(path:message:)`` naming the first problem, and nothing is
  /// written; so does any failure while writing (one transaction).
  ///
  /// A flat screen (ids everywhere, no `showWhen` or `children`) is written while it is
  /// checked: its rows go in as they pass the checks, which run on a second thread, and
  /// the first problem rolls the write back. Other files are checked whole first.
  public func importJSON(_ text: String) throws(StoreError) {
    let tree: JSONValue
    do {
      tree = try JSONValue(parsing: text)
    } catch {
      throw .invalidData(path: "", message: "not JSON: \(error.described(in: text.utf8))")
    }
    _ = try importJSON(tree: tree)
  }

  /// ``importJSON(_:)`` of a file already parsed (`tableweb import` reports a syntax
  /// error before it opens the database): its checks overlap the write as there. Returns
  /// how many rows the file has, at every level.
  package func importJSON(tree: JSONValue) throws(StoreError) -> Int {
    guard importsInBulk, let (screen, rows) = StreamedRows.skeleton(of: tree) else {
      let root = try AppScreen(json: tree)
      try replaceContents(with: root, by: nil)
      return root.totalRows
    }
    rows.fold = dialect == .sqlite ? .all : try foldsASCIILikeSwift() ? .ascii : .none
    rows.check(tree)
    try replaceContents(with: screen, by: nil, streaming: rows)
    return rows.counts.reduce(0, +)
  }

  /// Replaces all of the app's data with `screen` after checking it as a file is checked.
  public func importApp(_ screen: AppScreen) throws(StoreError) {
    try importFile(AppFile(validating: screen))
  }

  /// Replaces all of the app's data with a checked data file, in one transaction.
  public func importFile(_ file: AppFile) throws(StoreError) {
    try replaceContents(with: file.root, by: nil)
  }

  /// ``importFile(_:)``, recorded in `change_log` as one record by `author` with the
  /// command `import` (list `""`: every list).
  public func importFile(_ file: AppFile, by author: ChangeAuthor) throws(StoreError) {
    try replaceContents(with: file.root, by: author)
  }

  /// Replaces everything with a screen that has passed the format's checks. A list that
  /// existed before under the same id gets its old version plus one, so that a client
  /// still showing it sees a gap and reloads. Sessions are kept; the server pops them to
  /// the levels that still exist.
  ///
  /// The rows go in as a bulk load (`bulkLoad(_:whenKeyed:)`: indexes and triggers made again once
  /// at the end), each row's search text and stored JSON prepared on a second thread
  /// while this one inserts the rows before it; `importsInBulk` off writes row by row
  /// instead, with every index and trigger in place (what tests compare the bulk load
  /// with). The change log gets one `replaced` entry (every client reloads) and, with an
  /// author, one `change_log` record.
  ///
  /// `streaming`: `root` has no rows yet; they come from `StreamedRows` as they pass the
  /// file's checks, and the write waits for the checks' end before it commits.
  func replaceContents(
    with root: AppScreen, by author: ChangeAuthor?, streaming streamed: StreamedRows? = nil
  ) throws(StoreError) {
    // Recorded even without an author (`tableweb import`): user NULL, role editor.
    let record = ChangeRecord(
      list: "", command: "import", author: author ?? ChangeAuthor(name: nil, role: .editor))
    // SQLite looks up a row's references as it goes in (its block) and deletes the old
    // rows through the cascades, row by row. A bulk load that is a transaction of its own
    // has that off, empties the lists' tables whole and checks every reference in one pass
    // before it commits (`tablebench import`, 1,000,000 rows: the check 0.06 s; an import
    // over them deletes the old rows in 0.27 s instead of 1.8 s).
    // Such a load also builds its search index on a thread of its own (SearchIndexBuilder),
    // attached to this connection at its end until the transaction is over.
    let referencesOff = try turnReferencesOffForLoad()
    defer {
      if referencesOff {
        detachSearchLoad()
        try? execute("PRAGMA foreign_keys = ON")
      }
    }
    // Every list is replaced: every writer waits (on PostgreSQL, the exclusive write lock).
    try write(recording: record, locking: .all) { (_: inout WriteContext) throws(StoreError) in
      let versions = Dictionary(
        try fetchAll("SELECT key, version FROM list", [], { ($0.string(0), $0.int(1)) }),
        uniquingKeysWith: { a, _ in a })
      // The search index goes before the old rows do (no index entry removed row by row)
      // and is built once from the new rows, after them.
      importPhases = []
      if importsInBulk {
        try phase("search index dropped") { () throws(StoreError) in try dropSearchIndex() }
      }
      try phase("old data deleted") { () throws(StoreError) in
        if importsInBulk && dialect == .postgres {
          // Every list goes (each is a root or under a row of one): the tables emptied at
          // once rather than row by row through the cascades (1,000,000 rows: 4.2 s). The
          // load's ALTER TABLEs lock `row` and `list` for the transaction anyway; a table
          // left out that refers to these makes TRUNCATE fail rather than cascade.
          try execute("TRUNCATE \(Store.listTables.joined(separator: ", "))")
        } else if referencesOff {
          // Each emptied whole (SQLite drops a table's pages at once when no trigger or
          // reference check runs); a table left out is caught by `checkReferences()`.
          for table in Store.listTables { try execute("DELETE FROM \(table)") }
        } else {
          try execute("DELETE FROM list WHERE parent_row IS NULL")
        }
        try flushUndoSteps()
        try execute("DELETE FROM undo_step")  // an import is not undone, nor what came before
      }
      var importer = Importer(
        store: self, versions: versions, root: root,
        counter: try fetchInt("SELECT value FROM meta WHERE key = 'next_id'") ?? 1,
        nextRowID: importsInBulk
          ? (try fetchInt("SELECT coalesce(max(id), 0) + 1 FROM row") ?? 1) : nil)
      if importsInBulk {
        let builder = referencesOff ? SearchIndexBuilder() : nil
        searchIndexBuilder = builder
        defer {
          builder?.cancel()
          searchIndexBuilder = nil
        }
        try bulkLoad(
          { () throws(StoreError) in
            importer.streamed = streamed
            _ = try importer.insert(root, parentRow: nil, inheriting: nil)
            // The file's last checks (a problem after the last row) before anything more.
            if let streamed { _ = try streamed.end() }
            // The search index's thread optimizes it while the other indexes are built.
            builder?.close()
          },
          whenKeyed: { () throws(StoreError) in
            try phase("showWhen rules written") { () throws(StoreError) in
              try importer.applyShowWhen()
            }
          })
        if dialect == .postgres {
          // The rows were given their ids: the identity goes on after the last.
          try execute(
            "SELECT setval(pg_get_serial_sequence('row', 'id'), max(id)) FROM row HAVING count(*) > 0"
          )
        }
        try phase("search index built") { () throws(StoreError) in
          if let builder {
            try buildSearchIndex(from: builder)
          } else {
            try buildSearchIndex()
          }
        }
        if referencesOff {
          try phase("references checked") { () throws(StoreError) in try checkReferences() }
        }
      } else {
        _ = try importer.insert(root, parentRow: nil, inheriting: nil)
      }
      try execute("UPDATE meta SET value = ? WHERE key = 'next_id'", importer.counter)
      try appendReplacedToLog(by: author)
    }
  }
}

extension Store {
  /// The tables that hold the lists, each row of them under a list: what an import
  /// replaces whole.
  static let listTables = ["list", "section", "block", "row", "list_action", "list_cell"]

  /// Turns SQLite's reference checks (`foreign_keys`) off for an import's bulk load when
  /// it will be a transaction of its own (not in a group, nor inside another transaction,
  /// where the setting cannot change): whether it did. The caller turns them on again
  /// after the transaction and calls `checkReferences()` before it commits.
  func turnReferencesOffForLoad() throws(StoreError) -> Bool {
    guard importsInBulk, dialect == .sqlite, !isReadOnly, composing == nil,
      case .alone = scope, !database.isInTransaction
    else { return false }
    try execute("PRAGMA foreign_keys = OFF")
    return true
  }

  /// Throws SQLite's own error for a broken reference (`SQLITE_CONSTRAINT_FOREIGNKEY`),
  /// naming the first, when any row refers to one that is not there: the one pass that
  /// stands for the checks a load made with them off skipped.
  func checkReferences() throws(StoreError) {
    let broken = try fetchAll("PRAGMA foreign_key_check", []) {
      "\($0.string(0)) row \($0.int(1)) refers to a missing \($0.string(2))"
    }
    guard let first = broken.first else { return }
    throw .sqlite(
      code: 787,
      message: "FOREIGN KEY constraint failed: \(first) (\(broken.count) in all)",
      sql: "PRAGMA foreign_key_check")
  }
}

/// Writes a checked screen tree, block by block.
struct Importer {
  let store: Store
  let versions: [String: Int]
  let root: AppScreen
  /// The ids the file gives, which a made-up key must not take: gathered when the first
  /// key is made up (a file that gives every id never needs them).
  var reserved: Set<String>?
  var counter: Int
  /// The id the next row gets, in a bulk load (rows are given their ids, so that none is
  /// read back); nil: row by row, the database picks.
  var nextRowID: Int?
  /// A bulk load's `showWhen` rules, written once the rows can be found by id again
  /// (`applyShowWhen()`): PostgreSQL's primary key is dropped while the rows go in.
  var showWhenUpdates: [(row: Int, target: Int, isOn: Bool)] = []
  /// The root screen's rows as they pass the file's checks (the screen given has none).
  var streamed: StreamedRows?

  /// Writes the `showWhen` rules a bulk load gathered.
  func applyShowWhen() throws(StoreError) {
    for update in showWhenUpdates {
      try store.execute(
        "UPDATE row SET show_when_row = ?, show_when_on = ? WHERE id = ?", update.target,
        update.isOn, update.row)
    }
  }

  static func ids(in screen: AppScreen) -> [String] {
    var ids: [String] = []
    func visit(_ screen: AppScreen) {
      if let id = screen.id { ids.append(id) }
      for section in screen.sections {
        if let id = section.id { ids.append(id) }
        for row in section.rows {
          if let id = row.id { ids.append(id) }
          if let children = row.children { visit(children) }
        }
      }
    }
    visit(screen)
    return ids
  }

  mutating func key(_ given: String?, _ prefix: String) -> String {
    if let given { return given }
    let reserved = self.reserved ?? Set(Importer.ids(in: root))
    self.reserved = reserved
    while true {
      let key = "\(prefix)\(counter)"
      counter += 1
      if !reserved.contains(key) { return key }
    }
  }

  /// `inheriting`: the language of the screen that leads to this one (nil at the root),
  /// which this one's screens are in unless it says its own.
  mutating func insert(_ screen: AppScreen, parentRow: Int?, inheriting: String?)
    throws(StoreError) -> Int
  {
    let listKey = key(screen.id, "L")
    let language = screen.language ?? inheriting
    guard
      let listID = try store.fetchInt(
        """
        INSERT INTO list (key, parent_row, title, style, selection, editable, indexed, header, footer, version, searchable, language, screen_language)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
        """, listKey, parentRow, screen.title, screen.style.rawValue, screen.selection.rawValue,
        screen.isEditable, screen.isIndexed, screen.header, screen.footer,
        (versions[listKey] ?? 0) + 1, screen.isSearchable, screen.language, language)
    else { throw .notFound("list \(listKey)") }
    try store.insertActions(screen.actions, list: listID)
    try store.insertCell(screen.cell, list: listID)

    var sections = screen.sections
    if sections.isEmpty { sections = [AppSection()] }  // an indexed list given no sections
    // A streamed screen's rows come later: every one visible (none has `showWhen`).
    let stream = streamed
    streamed = nil
    let counts = stream?.counts ?? sections.map(\.rows.count)
    let visible =
      stream == nil
      ? Importer.visibility(of: sections) : counts.map { Array(repeating: true, count: $0) }
    // The rows a `showWhen` names: the only ids needed after their row is written.
    let targets = Set(sections.lazy.flatMap(\.rows).compactMap(\.showWhen?.row))
    var rowIDs: [String: Int] = [:]
    var pending: [(row: Int, showWhen: ShowWhen)] = []
    var children: [(row: Int, screen: AppScreen)] = []
    for (sectionIndex, section) in sections.enumerated() {
      let rowCount = counts[sectionIndex]
      let visibleCount = visible[sectionIndex].reduce(0) { $0 + ($1 ? 1 : 0) }
      guard
        let sectionID = try store.fetchInt(
          "INSERT INTO section (key, list_id, pos, header, footer, count) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
          key(section.id, "S"), listID, sectionIndex, section.header, section.footer, visibleCount)
      else { throw .notFound("list \(listKey)") }
      // The section's blocks first, so that its rows go in as one stream (PostgreSQL: one
      // COPY, which the server writes while this thread makes the next piece).
      let fill = store.importBlockFill
      var blockIDs: [Int] = []
      for start in stride(from: 0, to: rowCount, by: fill) {
        let end = min(start + fill, rowCount)
        let blockVisible = (start..<end).reduce(0) { $0 + (visible[sectionIndex][$1] ? 1 : 0) }
        guard
          let blockID = try store.fetchInt(
            "INSERT INTO block (section_id, pos, count, size) VALUES (?, ?, ?, ?) RETURNING id",
            sectionID, blockIDs.count * Store.blockGap, blockVisible, end - start)
        else { throw .notFound("section #\(sectionID)") }
        blockIDs.append(blockID)
      }
      // A bulk load's rows, prepared on another thread while this one writes.
      let fold: PreparedRows.Fold =
        store.dialect == .sqlite ? .all : store.loadFoldsASCII ? .ascii : .none
      // (A streamed section's rows come prepared by the thread that checks them.)
      let feed = nextRowID == nil || stream != nil ? nil : PreparedRows(section.rows, search: fold)
      defer { feed?.cancel() }
      if nextRowID != nil {
        try store.beginLoadedRows(
          needingFold: fold == .none
            || (fold == .ascii
              && (stream != nil || section.rows.contains { !PreparedRows.isASCII($0) }))
        )
      }
      var chunk: [StreamedRows.Row] = []
      do {
        for index in 0..<rowCount {
          let row: AppRow
          var streamedFields: PreparedRows.Prepared?
          if let stream {
            let offset = index % StreamedRows.chunkSize
            if offset == 0 {
              chunk = try stream.chunk(
                section: sectionIndex, number: index / StreamedRows.chunkSize)
            }
            row = chunk[offset].row
            if stream.fold == fold { streamedFields = chunk[offset].prepared }
          } else {
            row = section.rows[index]
          }
          let blockID = blockIDs[index / fill]
          let pos = index % fill * Store.rowGap
          let rowKey = key(row.id, "R")
          let rowID: Int
          if let next = nextRowID {
            let prepared: PreparedRows.Prepared
            if let streamedFields {
              prepared = streamedFields
            } else if let feed {
              prepared = try feed.next(index)
            } else {
              prepared = PreparedRows.prepare(row, search: fold)
            }
            rowID = next
            nextRowID = next + 1
            store.searchIndexBuilder?.add(rowID, prepared.search ?? "")
            try store.insertLoadedRow(
              rowID, rowKey, listID, blockID, pos, row.text, row.detail, row.style.rawValue,
              row.image, row.accessory?.rawValue, row.isOn, row.isChecked,
              visible[sectionIndex][index], row.lines, row.isFlagged, prepared.values,
              prepared.actions, prepared.search ?? "")
          } else {
            try store.execute(
              """
              INSERT INTO row (key, list_id, block_id, pos, text, detail, style, image, accessory, switch,
                checked, visible, lines, flagged, slot_values, actions)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
              """, rowKey, listID, blockID, pos, row.text, row.detail, row.style.rawValue,
              row.image, row.accessory?.rawValue, row.isOn, row.isChecked,
              visible[sectionIndex][index], row.lines, row.isFlagged,
              Store.storedValues(row.values), Store.storedActions(row.actions))
            rowID = try store.database.lastInsertID()
          }
          if row.id != nil && targets.contains(rowKey) { rowIDs[rowKey] = rowID }
          if let showWhen = row.showWhen { pending.append((rowID, showWhen)) }
          if let child = row.children { children.append((rowID, child)) }
        }
      } catch {
        store.abandonLoadedRows()
        throw error
      }
      try store.flushLoadedRows()
      if let feed, feed.usesThread {
        store.importPhases.append(
          ImportPhase(name: "  of which waiting for prepared rows", duration: feed.waited))
        store.importPhases.append(
          ImportPhase(
            name: "  (second thread: search text and JSON prepared)", duration: feed.preparing))
      }
    }
    for (row, showWhen) in pending {
      guard let target = rowIDs[showWhen.row] else { throw .notFound("row \(showWhen.row)") }
      if nextRowID != nil {
        showWhenUpdates.append((row, target, showWhen.isOn))
        continue
      }
      try store.execute(
        "UPDATE row SET show_when_row = ?, show_when_on = ? WHERE id = ?", target, showWhen.isOn,
        row)
    }
    for (row, child) in children {
      _ = try insert(child, parentRow: row, inheriting: language)
    }
    return listID
  }

  /// Which rows of a screen are visible, from its switches' states and `showWhen` rules.
  static func visibility(of sections: [AppSection]) -> [[Bool]] {
    var rules: [String: ShowWhen] = [:]
    var switches: [String: Bool] = [:]
    for section in sections {
      for row in section.rows {
        guard let id = row.id else { continue }
        if let rule = row.showWhen { rules[id] = rule }
        if let isOn = row.isOn { switches[id] = isOn }
      }
    }
    func isVisible(_ rule: ShowWhen?, depth: Int) -> Bool {
      guard let rule, depth < 64 else { return true }
      return switches[rule.row] == rule.isOn && isVisible(rules[rule.row], depth: depth + 1)
    }
    return sections.map { $0.rows.map { isVisible($0.showWhen, depth: 0) } }
  }
}

/// A section's rows prepared for a bulk load on a thread of their own, a batch at a time,
/// while the writer inserts the batches before: each row's search text (`row.search`,
/// `SearchQuery/key(text:detail:)`; SQLite only, PostgreSQL folds it itself) and its
/// stored values and actions (JSON). At most `depth` batches wait, so the preparing
/// thread stays only a little ahead; a short section is prepared by the writer itself.
final class PreparedRows: @unchecked Sendable {
  struct Prepared: Sendable {
    var search: String?
    var values: String?
    var actions: String?
  }

  static let batchSize = 2_048
  static let depth = 4
  /// Sections shorter than this are prepared by the writer, without a thread.
  static let threadThreshold = 8_192

  private let condition = NSCondition()
  /// Batches ready, oldest first (guarded by `condition`).
  private var ready: [[Prepared]] = []
  private var isFinished = false
  private var isCancelled = false
  /// The writer's batch and where it is in it (the writer's thread only).
  private var current: [Prepared] = []
  private var taken = 0
  private var consumed = 0
  private let rows: [AppRow]
  private let search: Fold
  /// The time the writer waited for a batch (the writer's thread only).
  private(set) var waited = Duration.zero
  /// The time the preparing thread spent preparing (read once it is finished or cancelled).
  private var preparingTime = Duration.zero
  var usesThread: Bool { rows.count >= Self.threadThreshold }
  var preparing: Duration {
    condition.lock()
    defer { condition.unlock() }
    return preparingTime
  }

  /// Which rows' search text is computed here: every row's (SQLite), only the rows whose
  /// text and detail are all ASCII (PostgreSQL, whose `row_search` folds the others), or
  /// none.
  enum Fold { case all, ascii, none }

  init(_ rows: [AppRow], search: Fold) {
    self.rows = rows
    self.search = search
    guard rows.count >= Self.threadThreshold else { return }
    let thread = Thread { [self] in produce() }
    thread.name = "tableweb import"
    thread.start()
  }

  /// Whether `row`'s text and detail are all ASCII.
  static func isASCII(_ row: AppRow) -> Bool {
    row.text.utf8.allSatisfy { $0 < 0x80 } && (row.detail?.utf8.allSatisfy { $0 < 0x80 } ?? true)
  }

  static func prepare(_ row: AppRow, search: Fold) -> Prepared {
    let folds: Bool
    switch search {
    case .all: folds = true
    case .ascii: folds = isASCII(row)
    case .none: folds = false
    }
    return Prepared(
      search: folds ? SearchQuery.key(text: row.text, detail: row.detail) : nil,
      values: Store.storedValues(row.values), actions: Store.storedActions(row.actions))
  }

  private func produce() {
    var start = 0
    while start < rows.count {
      let end = min(start + Self.batchSize, rows.count)
      let began = ContinuousClock.now
      let batch = rows[start..<end].map { Self.prepare($0, search: search) }
      let took = ContinuousClock.now - began
      condition.lock()
      preparingTime += took
      while ready.count >= Self.depth && !isCancelled { condition.wait() }
      if isCancelled {
        condition.unlock()
        return
      }
      ready.append(batch)
      condition.signal()
      condition.unlock()
      start = end
    }
    condition.lock()
    isFinished = true
    condition.signal()
    condition.unlock()
  }

  /// The prepared fields of row `index`; rows are asked for in order, each once.
  func next(_ index: Int) throws(StoreError) -> Prepared {
    precondition(index == consumed, "rows are prepared in order")
    consumed += 1
    guard rows.count >= Self.threadThreshold else {
      return Self.prepare(rows[index], search: search)
    }
    if taken == current.count {
      let began = ContinuousClock.now
      condition.lock()
      while ready.isEmpty && !isFinished { condition.wait() }
      waited += ContinuousClock.now - began
      guard !ready.isEmpty else {
        condition.unlock()
        throw .invalidData(path: "", message: "the import's rows ran out")
      }
      current = ready.removeFirst()
      condition.signal()
      condition.unlock()
      taken = 0
    }
    taken += 1
    return current[taken - 1]
  }

  /// Stops the preparing thread (the writer is done or failed).
  func cancel() {
    condition.lock()
    isCancelled = true
    condition.broadcast()
    condition.unlock()
  }
}
