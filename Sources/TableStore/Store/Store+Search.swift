import TableModel

extension Store {
  /// The rows of `list` that match `query` (case- and accent-insensitive, on text and
  /// detail), at the list's current version: `UISearchController`'s results, filtered in
  /// SQL over the whole list. Each row's folded text is kept in `row.search` and indexed
  /// by trigrams (`buildSearchIndex()`), so a search reads only the rows the index
  /// names and builds those that match.
  public func search(_ query: SearchQuery, in list: String) throws(StoreError) -> TableSnapshot {
    try search(query, in: list, usingIndex: true)
  }

  /// ``search(_:in:)``, or without the index (`usingIndex` false): every row of the list
  /// scanned, as before the index (what tests compare the index's results with).
  func search(_ query: SearchQuery, in list: String, usingIndex: Bool) throws(StoreError)
    -> TableSnapshot
  {
    try read { () throws(StoreError) in
      let record = try requireList(list)
      var results = record.emptySnapshot
      let matches = searchMatches(query, in: record.id, usingIndex: usingIndex)
      var sections: [Section] = []
      for section in try storedSections(of: record) {
        let rows = try fetchAll(
          Store.rowSelect
            + " JOIN block b ON b.id = r.block_id WHERE b.section_id = ? AND r.id IN ("
            + matches.sql + ") ORDER BY b.pos, r.pos",
          [section.id] + matches.arguments, { makeRow($0, in: record) })
        guard !rows.isEmpty else { continue }
        sections.append(
          Section(id: section.key, header: section.header, footer: section.footer, rows: rows))
      }
      results.sections =
        record.isIndexed
        ? record.collation.sections(list: record.key, rows: sections.flatMap(\.rows)).filter {
          !$0.rows.isEmpty
        } : sections
      return results
    }
  }

  /// The fewest characters (Unicode scalars) a word needs for the trigram index to find
  /// it; shorter words are only checked on the rows the longer ones found (or on the
  /// whole list, when no word is this long).
  static let indexedWordLength = 3

  /// A query selecting the ids of `list`'s visible rows that match `query`, and its
  /// arguments. Every word is checked exactly on `row.search` (`instr` on SQLite, `LIKE`
  /// on PostgreSQL), so the results are the scan's whatever the index returns; the index
  /// only narrows the rows checked:
  ///
  /// - SQLite: the trigrams of the words of three characters or more go to the FTS5
  ///   trigram table `row_search` as one MATCH, each a quoted string (never FTS syntax),
  ///   and the rows it names are checked.
  /// - PostgreSQL: `LIKE '%word%'`, which the `pg_trgm` GIN index on `row.search` serves
  ///   for words of three characters or more.
  func searchMatches(_ query: SearchQuery, in list: Int, usingIndex: Bool = true) -> (
    sql: String, arguments: [any DatabaseValueConvertible]
  ) {
    switch dialect {
    case .postgres where !usingIndex:
      return (
        "SELECT id FROM row WHERE list_id = ? AND visible"
          + String(repeating: " AND strpos(search, ?) > 0", count: query.terms.count),
        [list] + query.terms
      )
    case .postgres:
      let patterns = query.terms.map { "%" + Store.likeEscaped($0) + "%" }
      return (
        "SELECT id FROM row WHERE list_id = ? AND visible"
          + String(repeating: " AND search LIKE ?", count: patterns.count),
        [list] + patterns
      )
    case .sqlite:
      let check = String(repeating: " AND instr(r.search, ?) > 0", count: query.terms.count)
      let indexed = query.terms.filter {
        $0.unicodeScalars.count >= Store.indexedWordLength
      }
      guard usingIndex, !indexed.isEmpty else {
        return (
          "SELECT r.id FROM row r WHERE r.list_id = ? AND r.visible" + check, [list] + query.terms
        )
      }
      let match = indexed.flatMap(Store.trigrams).map(Store.ftsString).joined(separator: " AND ")
      // CROSS JOIN: the index first, then each row it names by id.
      return (
        "SELECT r.id FROM row_search CROSS JOIN row r ON r.id = row_search.rowid"
          + " WHERE row_search MATCH ? AND r.list_id = ? AND r.visible" + check,
        [match, list] + query.terms
      )
    }
  }

  /// The trigrams of `word` (every run of three Unicode scalars, as FTS5's trigram
  /// tokenizer cuts text), each once: the index keeps no positions (`detail = none`), so
  /// a word is looked for as all of its trigrams rather than as a phrase — rows holding
  /// them apart too, which the exact check on `row.search` then leaves out.
  static func trigrams(_ word: String) -> [String] {
    let scalars = Array(word.unicodeScalars)
    guard scalars.count >= 3 else { return [word] }
    var seen = Set<String>()
    return (0...(scalars.count - 3)).compactMap { start in
      var trigram = ""
      trigram.unicodeScalars.append(contentsOf: scalars[start..<(start + 3)])
      return seen.insert(trigram).inserted ? trigram : nil
    }
  }

  /// `text` as an FTS5 string: in double quotes, each of its own doubled. FTS5 reads
  /// nothing inside as syntax (no operators, columns or prefixes).
  static func ftsString(_ text: String) -> String {
    var quoted = "\""
    for character in text {
      if character == "\"" { quoted.append("\"") }
      quoted.append(character)
    }
    return quoted + "\""
  }

  /// `text` with `LIKE`'s wildcards and its escape character (a backslash) escaped.
  static func likeEscaped(_ text: String) -> String {
    var escaped = ""
    for character in text {
      if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }

  // MARK: The search index

  /// SQLite's search index: an FTS5 table of trigrams (any substring of three characters
  /// or more) over each row's `row.search`, kept by triggers that follow the column
  /// however it is set (the column's own triggers fold text and detail into it). SQLite
  /// 3.40's trigram tokenizer has no `remove_diacritics`, so the index holds the text
  /// already folded, as `SearchQuery.key` folds it.
  ///
  /// The table is an external-content one (`content = 'row'`): it keeps the trigrams and
  /// no copy of the text, which a search never reads (it selects rowids only); and it keeps
  /// which rows hold each trigram but not where (`detail = none`): a word is looked for as
  /// its trigrams (`trigrams(_:)`), every result checked on `row.search` anyway. Building it
  /// (`'rebuild'`) reads `row.search` and writes only that: 1,000,000 rows, 0.84 s and a
  /// 22 MB commit, against 1.63 s and 60 MB for the table with its own copy and positions
  /// (Python's sqlite3 3.40, load ~2). Nor does it keep each row's length in tokens
  /// (`columnsize = 0`: no `row_search_docsize` row a row), which only ranking reads:
  /// 'rebuild' of 1,000,000 short rows, 0.35–0.50 s against 0.80–0.87 s.
  ///
  /// Then `'optimize'` merges what `'rebuild'` left into one segment. Without it the first
  /// few hundred single-row writes after a 1,000,000-row import each took a share of the
  /// merging, on the writer's thread: 13 of 400 commits over 5 ms, the longest 144–147 ms
  /// (FTS5's "crisis merge"); with it, 2 over 5 ms, the longest 5.3–9.5 ms, for 0.62 s
  /// more at the import (`python3 Benchmarks/fts_merges.py`: 1,000,000 rows, two runs at
  /// load 1.2–1.8).
  ///
  /// An import that is a transaction of its own builds the same index on a thread of its
  /// own while it writes the rows (`SearchIndexBuilder`) and copies it in
  /// (`buildSearchIndex(from:)`), rather than running this after them.
  static let sqliteSearchIndex = """
    \(sqliteSearchTable)
    INSERT INTO row_search (row_search) VALUES ('rebuild');
    INSERT INTO row_search (row_search) VALUES ('optimize');
    \(sqliteSearchIndexTriggers)
    """

  /// `row_search`, empty (see ``sqliteSearchIndex``).
  static let sqliteSearchTable = """
    CREATE VIRTUAL TABLE row_search USING fts5(
      search, tokenize = 'trigram', content = 'row', content_rowid = 'id', detail = none,
      columnsize = 0);
    """

  /// Fills the empty `row_search` with the index a `SearchIndexBuilder` built (attached
  /// as `search_load`): its data and term tables copied, nothing else of FTS5 touched in
  /// between, so that the table reads them afresh. (A read of the new table before the
  /// copy keeps its empty structure in FTS5's cache, and the next write through it then
  /// fails the commit with `SQLITE_CONSTRAINT`: measured with Python's sqlite3.)
  static let sqliteSearchIndexCopy = """
    DELETE FROM row_search_data;
    INSERT INTO row_search_data SELECT * FROM search_load.row_search_data;
    DELETE FROM row_search_idx;
    INSERT INTO row_search_idx SELECT * FROM search_load.row_search_idx;
    """

  /// The triggers that keep `row_search` in step with `row.search`. An external-content
  /// index is told what to remove (`'delete'` with the old text), so the index must hold
  /// exactly each row's text: a row's non-empty text is added when the row is inserted
  /// with it, or when it changes (a new row's own trigger folds its text into the empty
  /// column just after the insert; in whichever order the triggers run, the text is added
  /// once and removed as it was added). Empty text has no trigrams: nothing to add or
  /// remove.
  static let sqliteSearchIndexTriggers = """
    CREATE TRIGGER row_search_index_insert AFTER INSERT ON row WHEN NEW.search <> '' BEGIN
      INSERT INTO row_search (rowid, search) VALUES (NEW.id, NEW.search);
    END;
    CREATE TRIGGER row_search_index_update AFTER UPDATE OF search ON row
    WHEN OLD.search IS NOT NEW.search BEGIN
      INSERT INTO row_search (row_search, rowid, search)
        SELECT 'delete', OLD.id, OLD.search WHERE OLD.search <> '';
      INSERT INTO row_search (rowid, search) SELECT NEW.id, NEW.search WHERE NEW.search <> '';
    END;
    CREATE TRIGGER row_search_index_delete AFTER DELETE ON row WHEN OLD.search <> '' BEGIN
      INSERT INTO row_search (row_search, rowid, search) VALUES ('delete', OLD.id, OLD.search);
    END;
    """

  /// What `dropSearchIndex()` runs on SQLite.
  static let sqliteSearchIndexDrop = """
    DROP TRIGGER IF EXISTS row_search_index_insert;
    DROP TRIGGER IF EXISTS row_search_index_update;
    DROP TRIGGER IF EXISTS row_search_index_delete;
    DROP TABLE IF EXISTS row_search;
    """

  /// PostgreSQL's search index: `pg_trgm`'s GIN index on `row.search`, which serves
  /// `LIKE '%word%'`. PostgreSQL keeps it itself: no triggers.
  static let postgresSearchIndex = """
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX IF NOT EXISTS row_search_trgm ON row USING gin (search gin_trgm_ops);
    """

  /// Builds the search index from every row's `row.search` (and, on SQLite, the triggers
  /// that keep it): what the schema's migration does, for a bulk load that dropped it with
  /// ``dropSearchIndex()`` to write rows faster and builds it once at the end. Run it
  /// inside the load's write transaction, or alone.
  func buildSearchIndex() throws(StoreError) {
    switch dialect {
    case .sqlite: try database.runScript(Store.sqliteSearchIndex)
    case .postgres: try database.runScript(Store.postgresSearchIndex)
    }
  }

  /// Builds the search index of a bulk load, as ``buildSearchIndex()`` does, from what
  /// `builder` built beside the load (SQLite; see `SearchIndexBuilder`): the writer waits
  /// for the builder, then copies its index in. Should the builder have failed, the index
  /// is built here from the rows instead. Leaves the builder's database attached as
  /// `search_load`, which the caller detaches once the transaction has ended
  /// (`detachSearchLoad()`): SQLite cannot detach it inside the transaction that read it.
  func buildSearchIndex(from builder: SearchIndexBuilder) throws(StoreError) {
    guard let sqlite = database as? Database else { return try buildSearchIndex() }
    let image: DatabaseImage
    do {
      image = try builder.finish()
    } catch {
      return try buildSearchIndex()
    }
    importPhases.append(
      ImportPhase(
        name: "  of which waiting for the search index's thread", duration: builder.waited))
    importPhases.append(
      ImportPhase(name: "  (its own thread: search index built)", duration: builder.building))
    do {
      try sqlite.attach(image, as: "search_load")
    } catch {
      throw StoreError(error)
    }
    try database.runScript(
      Store.sqliteSearchTable + "\n" + Store.sqliteSearchIndexCopy + "\n"
        + Store.sqliteSearchIndexTriggers)
  }

  /// Detaches what ``buildSearchIndex(from:)`` attached, if it is there.
  func detachSearchLoad() {
    guard let sqlite = database as? Database, !sqlite.isInTransaction else { return }
    try? sqlite.detach("search_load")
  }

  /// Drops the search index and its triggers (see ``buildSearchIndex()``). Until it is
  /// built again, searches on SQLite fail: build it in the same transaction.
  func dropSearchIndex() throws(StoreError) {
    switch dialect {
    case .sqlite:
      try database.runScript(Store.sqliteSearchIndexDrop)
    case .postgres:
      try database.runScript("DROP INDEX IF EXISTS row_search_trgm;")
    }
  }
}
