extension Store {
  /// The schema versions, in order; `PRAGMA user_version` is how many have run. A
  /// migration PostgreSQL cannot run as written has its own text in
  /// ``postgresMigrations`` (Store+PostgresSchema.swift).
  static let migrations: [String] = [
    // 1: the hierarchy of screens, ordered rows in blocks, sessions.
    """
    CREATE TABLE meta (
      key TEXT PRIMARY KEY,
      value INTEGER NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO meta (key, value) VALUES ('next_id', 1);

    -- A screen's data. The root list has no parent row; every other list is the
    -- children of exactly one row, and goes when that row goes.
    CREATE TABLE list (
      id INTEGER PRIMARY KEY,
      key TEXT NOT NULL UNIQUE,
      parent_row INTEGER UNIQUE REFERENCES row(id) ON DELETE CASCADE,
      title TEXT NOT NULL,
      style TEXT NOT NULL,
      selection TEXT NOT NULL,
      editable INTEGER NOT NULL,
      indexed INTEGER NOT NULL,
      header TEXT,
      footer TEXT,
      version INTEGER NOT NULL
    );

    CREATE TABLE section (
      id INTEGER PRIMARY KEY,
      key TEXT NOT NULL UNIQUE,
      list_id INTEGER NOT NULL REFERENCES list(id) ON DELETE CASCADE,
      pos INTEGER NOT NULL,
      header TEXT,
      footer TEXT,
      count INTEGER NOT NULL -- visible rows
    );
    CREATE UNIQUE INDEX section_order ON section(list_id, pos);

    -- A run of consecutive rows of one section (see Store+Ordering.swift).
    CREATE TABLE block (
      id INTEGER PRIMARY KEY,
      section_id INTEGER NOT NULL REFERENCES section(id) ON DELETE CASCADE,
      pos INTEGER NOT NULL,
      count INTEGER NOT NULL, -- visible rows
      size INTEGER NOT NULL   -- all rows
    );
    CREATE UNIQUE INDEX block_order ON block(section_id, pos, count);

    CREATE TABLE row (
      id INTEGER PRIMARY KEY,
      key TEXT NOT NULL UNIQUE,
      list_id INTEGER NOT NULL,
      block_id INTEGER NOT NULL REFERENCES block(id) ON DELETE CASCADE,
      pos INTEGER NOT NULL,
      text TEXT NOT NULL,
      detail TEXT,
      style TEXT NOT NULL,
      image TEXT,
      accessory TEXT,           -- NULL: the default (disclosure when the row has children)
      switch INTEGER,           -- NULL: no switch
      checked INTEGER NOT NULL,
      show_when_row INTEGER REFERENCES row(id) ON DELETE CASCADE,
      show_when_on INTEGER,
      visible INTEGER NOT NULL  -- the showWhen rule holds
    );
    CREATE INDEX row_order ON row(block_id, pos, visible);
    CREATE INDEX row_checked ON row(list_id) WHERE checked;
    CREATE INDEX row_show_when ON row(show_when_row) WHERE show_when_row IS NOT NULL;
    CREATE INDEX row_dependent ON row(list_id) WHERE show_when_row IS NOT NULL;

    CREATE TABLE session (
      token TEXT PRIMARY KEY,
      stack TEXT NOT NULL,      -- JSON: the navigation levels, root first
      updated INTEGER NOT NULL  -- Unix time of the last save
    ) WITHOUT ROWID;
    """,
    // 2: access grants (a credential's SHA-256, never the credential) and who made
    // each change.
    """
    CREATE TABLE access_grant (
      name TEXT PRIMARY KEY,
      role TEXT NOT NULL,        -- viewer | editor
      digest TEXT NOT NULL,      -- SHA-256 of the credential, hex
      created INTEGER NOT NULL,  -- Unix time
      last_used INTEGER          -- Unix time of the last hello with it
    ) WITHOUT ROWID;

    CREATE TABLE change_log (
      id INTEGER PRIMARY KEY,
      at INTEGER NOT NULL,       -- Unix time
      list TEXT NOT NULL,
      command TEXT NOT NULL,     -- insert, delete, move, update, toggle, select
      user TEXT,                 -- the grant's name; NULL on an open server
      role TEXT NOT NULL
    );
    """,
    // 3: data format v1.1's `lines` of a row (the most lines its text may take; 0: any).
    """
    ALTER TABLE row ADD COLUMN lines INTEGER NOT NULL DEFAULT 1;
    """,
    // 4: the change log: every committed change to a list, with what it did and what the
    // rows it touched were before (see Store+ListLog.swift). Pruning always keeps the
    // newest entry, so ids only grow and a reader's high-water mark stays valid. No index
    // but the rowid: each commit appends to one page; a resume scans the bounded log.
    """
    CREATE TABLE list_log (
      id INTEGER PRIMARY KEY,
      at INTEGER NOT NULL,       -- Unix time
      list TEXT NOT NULL,
      version INTEGER,           -- the list's new version; NULL when removed or replaced
      kind TEXT NOT NULL,        -- edits | removed | replaced
      edits TEXT,                -- JSON [RowEdit]; NULL when not known
      prior TEXT                 -- JSON [PriorRow]: the touched rows before the change
    );
    """,
    // 5: data format v1.1's `searchable` screens, and each row's folded text and detail
    // (SearchQuery.key, through the tableweb_search_key function the store defines) for
    // searching in SQL. Triggers keep it, so every way of writing a row does.
    """
    ALTER TABLE list ADD COLUMN searchable INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE row ADD COLUMN search TEXT NOT NULL DEFAULT '';
    UPDATE row SET search = tableweb_search_key(text, detail);
    CREATE TRIGGER row_search_insert AFTER INSERT ON row BEGIN
      UPDATE row SET search = tableweb_search_key(NEW.text, NEW.detail) WHERE id = NEW.id;
    END;
    CREATE TRIGGER row_search_update AFTER UPDATE OF text, detail ON row BEGIN
      UPDATE row SET search = tableweb_search_key(NEW.text, NEW.detail) WHERE id = NEW.id;
    END;
    """,
    // 6: a list's row actions (swipe actions and context menu items), in order; a row's flag; custom cells.
    """
    CREATE TABLE list_action (
      list_id INTEGER NOT NULL REFERENCES list(id) ON DELETE CASCADE,
      pos INTEGER NOT NULL,
      key TEXT NOT NULL,
      title TEXT NOT NULL,
      edge TEXT NOT NULL,        -- leading | trailing
      color TEXT NOT NULL,
      effect TEXT NOT NULL,      -- delete | check | flag
      PRIMARY KEY (list_id, pos)
    ) WITHOUT ROWID;
    ALTER TABLE row ADD COLUMN flagged INTEGER NOT NULL DEFAULT 0;
    -- Custom cells: a list's layout (JSON: the wire's screen.cell) and a row's slot values
    -- (JSON: an object of strings; NULL for a standard cell).
    CREATE TABLE list_cell (
      list_id INTEGER PRIMARY KEY REFERENCES list(id) ON DELETE CASCADE,
      slots TEXT NOT NULL
    );
    ALTER TABLE row ADD COLUMN slot_values TEXT;
    """,
    // 7: the row actions a row offers (JSON: an array of the list's action ids, in the
    // order shown); NULL: all of the list's. The same text in PostgreSQL.
    """
    ALTER TABLE row ADD COLUMN actions TEXT;
    """,
    // 8: PostgreSQL announces each change-log entry to other servers (LISTEN/NOTIFY, see
    // Store+PostgresSchema.swift); SQLite's servers watch `data_version` instead.
    """
    SELECT 1;
    """,
    // 9: data format v1.2's `language` of a screen (BCP 47), as the file said it; and the
    // language its screens are in, worked out at import: its own, else the screen's that
    // leads to it, up to the root's (NULL: none known).
    """
    ALTER TABLE list ADD COLUMN language TEXT;
    ALTER TABLE list ADD COLUMN screen_language TEXT;
    """,
    // 10: undo stacks, per session (Store+Undo.swift): each undoable change a session made,
    // newest last, the last 50 per session; `undone` ones are its redo side. `version` is
    // the list's version after the step (or its latest undo or redo); `edits` and `prior`
    // as in list_log, `restore` the deleted rows in full (with their subtrees) as a data
    // file screen.
    """
    CREATE TABLE undo_step (
      id INTEGER PRIMARY KEY,
      session TEXT NOT NULL,
      list TEXT NOT NULL,
      version INTEGER NOT NULL,
      command TEXT NOT NULL,     -- insert, delete, move, update, toggle, tap, action
      author TEXT,               -- the grant's name; NULL on an open server
      undone INTEGER NOT NULL,
      edits TEXT NOT NULL,       -- JSON [RowEdit]
      prior TEXT NOT NULL,       -- JSON [PriorRow]
      restore TEXT               -- JSON screen: the rows it deleted, with their subtrees
    );
    CREATE INDEX undo_step_session ON undo_step(session, id);
    CREATE INDEX undo_step_version ON undo_step(list, version);
    """,
    // 11: a list's history (Store+History.swift): each change-log entry names the command
    // that made it and its author, written in the same INSERT (no statement more per
    // write). The same text in PostgreSQL.
    """
    ALTER TABLE list_log ADD COLUMN command TEXT;
    ALTER TABLE list_log ADD COLUMN author TEXT;
    """,
    // 12: the search index: an FTS5 trigram table mirroring `row.search`, filled from the
    // rows there are and kept by triggers (Store+Search.swift, ``buildSearchIndex()``);
    // PostgreSQL's is a pg_trgm GIN index.
    sqliteSearchIndex,
    // 13: the search index as an external-content FTS5 table (no copy of the text: faster
    // to build and to commit), made again from `row.search`; nothing on PostgreSQL.
    sqliteSearchIndexDrop + sqliteSearchIndex,
    // 14: a session's undone steps (its redo side), which each new step drops: a partial
    // index, empty unless something was undone, so that finding none costs a look rather
    // than a walk through the session's steps (Store+Undo.swift, `recordUndoStep`). The
    // same text in PostgreSQL.
    """
    CREATE INDEX undo_step_undone ON undo_step(session) WHERE undone;
    """,
    // 15: `row.key` unique through an index of its own, `row_key`, rather than the column's
    // inline `UNIQUE` (which SQLite cannot drop): a bulk import drops it and builds it once
    // at its end, as it does the other indexes (`tablebench import`, 1,000,000 rows: the
    // inline constraint made a bare INSERT 1.25–1.56×). SQLite rebuilds `row` for it, keeping
    // every row (`rebuildRowWithKeyIndex()`); PostgreSQL keeps its constraint, which the
    // load drops already, and runs the text as written (a no-op).
    rowKeyIndexMigration,
    // 16: the search index without each row's length in tokens (`columnsize = 0`, which
    // only ranking reads): made again from `row.search`; nothing on PostgreSQL.
    sqliteSearchIndexDrop + sqliteSearchIndex,
    // 17: PostgreSQL's undo steps keyed by (session, id), the order every read of a
    // session's stack walks, in place of the id alone and `undo_step_session` (see
    // Store+PostgresSchema.swift); nothing on SQLite, where the id is the rowid.
    """
    SELECT 1;
    """,
  ]

  /// Migration 15's text: on SQLite, the marker `migrate()` carries out as
  /// `rebuildRowWithKeyIndex()`, which a script cannot do (`row`'s columns are read from
  /// the schema, whatever migrations before added).
  static let rowKeyIndexMigration = "SELECT 'row.key: the unique index row_key';"

  /// Brings the schema up to date, one migration per transaction. A migration takes the
  /// write lock, and a second server starting at the same time finds it already done.
  func migrate() throws(StoreError) {
    let current = try database.schemaVersion()
    guard current <= Store.migrations.count else {
      throw .invalidData(
        path: "",
        message:
          "the database has schema version \(current); this tableweb knows up to \(Store.migrations.count)"
      )
    }
    guard current < Store.migrations.count else { return }
    guard !database.isReadOnly else {
      throw .readOnly(
        "the database needs schema version \(Store.migrations.count) and cannot be upgraded read-only"
      )
    }
    // Rebuilding `row` drops the old table, which SQLite with foreign keys on treats as
    // deleting its rows through the cascades (here it refused: "database table is
    // locked"). The setting changes only outside a transaction, so it is off for the
    // migrations, and the references are checked after the rebuild.
    let rebuildsRow =
      dialect == .sqlite
      && Store.migrations[current...].contains(Store.rowKeyIndexMigration)
    if rebuildsRow { try execute("PRAGMA foreign_keys = OFF") }
    defer { if rebuildsRow { try? execute("PRAGMA foreign_keys = ON") } }
    for version in current..<Store.migrations.count {
      try database.inTransaction(writing: true) { () throws(StoreError) in
        guard try database.schemaVersion() == version else { return }
        if dialect == .sqlite && Store.migrations[version] == Store.rowKeyIndexMigration {
          try rebuildRowWithKeyIndex()
        } else {
          try database.runScript(migration(version))
        }
        try database.setSchemaVersion(version + 1)
      }
    }
  }

  /// Makes SQLite's `row` again without the inline `UNIQUE` of `key`, with the unique
  /// index `row_key` in its place: the table's own definition read from the schema (so
  /// every column any migration added), its rows copied with their ids, its indexes and
  /// triggers made again. Needs `PRAGMA foreign_keys` off (see `migrate()`); the rows
  /// referring to `row` are checked after.
  func rebuildRowWithKeyIndex() throws(StoreError) {
    guard
      let table = try fetchOne(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'row'", [],
        { $0.string(0) })
    else { throw .notFound("table row") }
    let inline = "key TEXT NOT NULL UNIQUE,"
    guard table.contains(inline) else {
      // Rebuilt already (a file whose version was set back): only the index to make sure of.
      return try execute("CREATE UNIQUE INDEX IF NOT EXISTS row_key ON row(key)")
    }
    guard table.hasPrefix("CREATE TABLE row (") else {
      throw .sqlite(
        code: 0, message: "row's definition is not the one migration 15 rebuilds", sql: table)
    }
    let rebuilt =
      "CREATE TABLE row_rebuilt ("
      + table.dropFirst("CREATE TABLE row (".count).replacingOccurrences(
        of: inline, with: "key TEXT NOT NULL,")
    let dependents = try fetchAll(
      """
      SELECT sql FROM sqlite_master
      WHERE tbl_name = 'row' AND type IN ('index', 'trigger') AND sql IS NOT NULL
      ORDER BY type, name
      """, []
    ) { $0.string(0) }
    try execute(rebuilt)
    try execute("INSERT INTO row_rebuilt SELECT * FROM row")
    try execute("DROP TABLE row")
    try execute("ALTER TABLE row_rebuilt RENAME TO row")
    for create in dependents { try execute(create) }
    try execute("CREATE UNIQUE INDEX row_key ON row(key)")
    let dangling = try fetchAll("PRAGMA foreign_key_check", []) { $0.string(0) }
    guard dangling.isEmpty else {
      throw .sqlite(
        code: 0, message: "rows of \(Set(dangling).sorted()) refer to rows that are not there",
        sql: nil)
    }
  }

  /// The text of migration `version` in the store's dialect.
  func migration(_ version: Int) -> String {
    switch database.dialect {
    case .sqlite: return Store.migrations[version]
    case .postgres: return Store.postgresMigrations[version] ?? Store.migrations[version]
    }
  }
}
