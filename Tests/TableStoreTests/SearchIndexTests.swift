import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// The search index (SQLite's FTS5 trigram table, PostgreSQL's pg_trgm GIN index) finds
/// exactly the rows a scan of `row.search` finds: random rows with accents, case, other
/// scripts and FTS and LIKE syntax in them, random queries with short words, through
/// inserts, renames and deletes.
@Suite struct SearchIndexTests {
  /// Pieces of rows' text and of queries: accents precomposed and combining, ligatures,
  /// other scripts, and what FTS5 and LIKE would read as syntax.
  static let pieces = [
    "crème", "CREME", "Brûlée", "brulee", "e\u{301}t\u{E9}", "Æther", "øre", "Straße", "ΣΊΣΥΦΟΣ",
    "σίσυφος", "日本語", "日本", "Ülk", "ab", "a", "x", "café", "CAFE", "row", "item", "12", "123",
    "\"", "\"quoted\"", "%", "_", "\\", "50%", "a_b", "AND", "OR", "NOT", "NEAR", "*", "^",
    "col:", "(x)", "-", "'", "e", "ée", "ff", "ﬃ", "İstanbul", "ǅ",
  ]

  @Test(arguments: StoreKind.allCases)
  func indexedResultsEqualTheScansOnRandomRowsAndQueries(kind: StoreKind) throws {
    var random = SplitMix64(seed: 26)
    let rows = (0..<300).map { number in
      let text = Self.phrase(using: &random)
      let detail = Bool.random(using: &random) ? Self.phrase(using: &random) : nil
      return Row(id: "r\(number)", text: text, detail: detail)
    }
    let temporary = try TemporaryStore(kind: kind, json: Self.file(rows))
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    try expectIndexEqualsScan(store, using: &random)
    // Renames, inserts and deletes go through the triggers (or PostgreSQL's index).
    for step in 0..<60 {
      let row = "r\(Int.random(in: 0..<300, using: &random))"
      switch step % 3 {
      case 0:
        _ = try? store.updateRow(
          row, in: "L", text: Self.phrase(using: &random),
          detail: .some(Bool.random(using: &random) ? Self.phrase(using: &random) : nil))
      case 1:
        _ = try store.insertRow(
          in: "L", section: "s\(step % 2)", after: nil, NewRow(text: Self.phrase(using: &random)))
      default:
        _ = try? store.deleteRows([row], in: "L")
      }
    }
    try expectIndexEqualsScan(store, using: &random)
  }

  /// A bulk load drops the index and builds it once at the end: the rebuilt index finds
  /// what the scan finds, rows written while it was gone included.
  @Test func aRebuiltIndexEqualsTheScan() throws {
    var random = SplitMix64(seed: 9)
    let rows = (0..<100).map { Row(id: "r\($0)", text: Self.phrase(using: &random)) }
    let temporary = try TemporaryStore(json: Self.file(rows))
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    try store.write { () throws(StoreError) in try store.dropSearchIndex() }
    for _ in 0..<20 {
      _ = try store.insertRow(
        in: "L", section: "s0", after: nil, NewRow(text: Self.phrase(using: &random)))
    }
    try store.write { () throws(StoreError) in try store.buildSearchIndex() }
    try expectIndexEqualsScan(store, using: &random)
  }

  /// SQLite's import builds its index on a thread of its own while it writes the rows and
  /// copies it in (`SearchIndexBuilder`): byte for byte what `'rebuild'` and `'optimize'`
  /// make of the same rows, empty texts and child screens' rows among them, over more
  /// rows than a batch; FTS5's own check finds it true to `row.search`, before and after
  /// edits on the same connection (which must read the copied index, not the empty one it
  /// was made with); nothing is left attached.
  @Test func anImportsIndexBuiltAsideEqualsTheRebuiltOne() throws {
    var random = SplitMix64(seed: 37)
    let count = SearchIndexBuilder.batchSize * 2 + 1_000
    func row(_ number: Int) -> String {
      let text = number % 97 == 0 ? "" : Self.phrase(using: &random)
      var object = #"{"id":"r\#(number)","text":\#(Self.quoted(text))"#
      if number % 1_000 == 1 {
        object += #","children":{"id":"C\#(number)","title":"C","#
        object += #""sections":[{"rows":[{"text":"child \#(number)"}]}]}"#
      }
      return object + "}"
    }
    let json =
      #"{"id":"L","title":"L","searchable":true,"editable":true,"sections":[{"id":"s0","rows":["#
      + (0..<count).map(row).joined(separator: ",") + "]}]}"
    let temporary = try TemporaryStore(json: json)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    try store.importJSON(json)
    #expect(store.importPhases.contains { $0.name.contains("its own thread: search index built") })
    let attached = try store.fetchAll("PRAGMA database_list", []) { $0.string(1) }
    #expect(attached.allSatisfy { $0 == "main" || $0 == "temp" }, "\(attached)")
    func index() throws -> [String] {
      try store.fetchAll("SELECT id, hex(block) FROM row_search_data ORDER BY id", []) {
        "\($0.int(0)) \($0.string(1))"
      }
        + store.fetchAll(
          "SELECT segid, hex(term), pgno FROM row_search_idx ORDER BY segid, term", []
        ) { "\($0.int(0)) \($0.string(1)) \($0.int(2))" }
    }
    func check() throws {
      try store.write { () throws(StoreError) in
        try store.execute("INSERT INTO row_search (row_search) VALUES ('integrity-check')")
      }
    }
    let builtAside = try index()
    #expect(builtAside.count > 3)
    try check()
    try store.write { () throws(StoreError) in
      try store.dropSearchIndex()
      try store.buildSearchIndex()
    }
    #expect(try index() == builtAside)

    try store.importJSON(json)
    for number in stride(from: 3, to: count, by: 701) {
      _ = try store.updateRow(
        "r\(number)", in: "L", text: Self.phrase(using: &random), detail: .some(nil))
    }
    try check()
    try expectIndexEqualsScan(store, using: &random)
  }

  /// SQLite's index keeps no copy of the text (`content = 'row'`): its triggers tell it
  /// what to remove, so they must add and remove exactly each row's text. Every trigram
  /// finds, in the index alone, exactly the rows whose search text holds it, through
  /// renames (to the same text too), inserts, deletes and an import over them.
  @Test func theIndexHoldsExactlyEachRowsText() throws {
    var random = SplitMix64(seed: 13)
    func text() -> String {
      String(
        (0..<Int.random(in: 0...7, using: &random)).map { _ in "ab c".randomElement(using: &random)!
        })
    }
    let rows = (0..<120).map {
      Row(id: "r\($0)", text: text(), detail: Bool.random(using: &random) ? text() : nil)
    }
    let temporary = try TemporaryStore(json: Self.file(rows))
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    func expectExact(_ when: String) throws {
      let letters = Array("ab c")
      for first in letters {
        for second in letters {
          for third in letters {
            let trigram = String([first, second, third])
            let indexed = try store.fetchAll(
              "SELECT rowid FROM row_search WHERE row_search MATCH ? ORDER BY rowid",
              [Store.ftsString(trigram)]
            ) { $0.int(0) }
            let scanned = try store.fetchAll(
              "SELECT id FROM row WHERE instr(search, ?) > 0 ORDER BY id", [trigram]
            ) { $0.int(0) }
            #expect(indexed == scanned, "\(when): \(trigram.debugDescription)")
          }
        }
      }
    }
    try expectExact("imported")
    for step in 0..<90 {
      let row = "r\(Int.random(in: 0..<120, using: &random))"
      switch step % 4 {
      case 0:
        _ = try? store.updateRow(row, in: "L", text: text(), detail: .some(text()))
      case 1:
        // The same text again: the column is set, its value does not change.
        if let old = try store.snapshot(of: "L").sections.flatMap(\.rows).first(where: {
          $0.id == row
        }) {
          _ = try store.updateRow(row, in: "L", text: old.text, detail: .some(old.detail))
        }
      case 2:
        _ = try store.insertRow(in: "L", section: "s\(step % 2)", after: nil, NewRow(text: text()))
      default:
        _ = try? store.deleteRows([row], in: "L")
      }
    }
    try expectExact("edited")
    try store.importJSON(Self.file(Array(rows.shuffled(using: &random).prefix(60))))
    try expectExact("imported again")
  }

  /// A database whose index is the FTS5 table with its own copy of the text (migration
  /// 12 before it became external-content) gets the new index when opened, built from
  /// its rows.
  @Test func anOlderIndexIsMadeAgainWhenOpened() throws {
    var random = SplitMix64(seed: 5)
    let rows = (0..<60).map { Row(id: "r\($0)", text: Self.phrase(using: &random)) }
    let temporary = try TemporaryStore(json: Self.file(rows))
    defer { withExtendedLifetime(temporary) {} }
    let older = Store.migrations.firstIndex(of: Store.sqliteSearchIndex)!
    try temporary.store.database.runScript(
      Store.sqliteSearchIndexDrop + """
        CREATE VIRTUAL TABLE row_search USING fts5(search, tokenize = 'trigram');
        INSERT INTO row_search (rowid, search) SELECT id, search FROM row;
        CREATE TRIGGER row_search_index_insert AFTER INSERT ON row BEGIN
          INSERT OR REPLACE INTO row_search (rowid, search) SELECT id, search FROM row WHERE id = NEW.id;
        END;
        DROP INDEX undo_step_undone;  -- migration 14's, which such a database has not run
        PRAGMA user_version = \(older + 1);
        """)
    let store = try Store(path: temporary.path)
    let table = try store.fetchAll(
      "SELECT sql FROM sqlite_master WHERE name = 'row_search'", []
    ) { $0.string(0) }
    #expect(table.count == 1 && table[0].contains("content = 'row'"))
    #expect(try store.database.schemaVersion() == Store.migrations.count)
    try expectIndexEqualsScan(store, using: &random)
  }

  /// A person's text is never FTS5 syntax: quotes, operators and column filters are
  /// searched for as text.
  @Test(arguments: StoreKind.allCases)
  func queriesAreTextNotSyntax(kind: StoreKind) throws {
    let rows = [
      Row(id: "a", text: #"say "hello" there"#), Row(id: "b", text: "fish AND chips"),
      Row(id: "c", text: "col:umn NEAR(x y)"), Row(id: "d", text: "100% of a_b"),
    ]
    let temporary = try TemporaryStore(kind: kind, json: Self.file(rows))
    defer { withExtendedLifetime(temporary) {} }
    func ids(_ text: String) throws -> [String] {
      try temporary.store.search(SearchQuery(text), in: "L").sections.flatMap(\.rows).map(\.id)
    }
    #expect(try ids(#""hello""#) == ["a"])
    #expect(try ids(#"o" th"#) == ["a"])
    #expect(try ids("AND chips") == ["b"])
    #expect(try ids("fish OR") == [])
    #expect(try ids("col:umn") == ["c"])
    #expect(try ids("NEAR(x") == ["c"])
    #expect(try ids("0%") == ["d"])
    #expect(try ids("a_b") == ["d"])
    #expect(try ids("a%b") == [])
    #expect(try ids("*") == [])
  }

  private func expectIndexEqualsScan(_ store: Store, using random: inout SplitMix64) throws {
    func ids(_ results: TableSnapshot) -> [String] { results.sections.flatMap(\.rows).map(\.id) }
    let keys = try store.snapshot(of: "L").sections.flatMap(\.rows).map {
      SearchQuery.key(text: $0.text, detail: $0.detail)
    }.filter { !$0.isEmpty }
    var queries = (0..<80).map { _ in Self.phrase(using: &random, words: 1...3) }
    // Pieces of rows' own folded text, cut anywhere: these find rows.
    for _ in 0..<80 {
      let key = Array(keys.randomElement(using: &random)!)
      let start = Int.random(in: 0..<key.count, using: &random)
      let end = Int.random(in: start...min(key.count, start + 8), using: &random)
      queries.append(String(key[start..<end]))
    }
    var found = 0
    for text in queries {
      let query = SearchQuery(text)
      guard !query.isEmpty else { continue }
      let indexed = try store.search(query, in: "L")
      let scanned = try store.search(query, in: "L", usingIndex: false)
      #expect(indexed.version == scanned.version)
      #expect(ids(indexed) == ids(scanned), "query \(text.debugDescription)")
      found += indexed.numberOfRows
    }
    #expect(found > 0)
  }

  private static func phrase(
    using random: inout SplitMix64, words: ClosedRange<Int> = 1...5
  ) -> String {
    (0..<Int.random(in: words, using: &random)).map { _ in
      // Sometimes two pieces run together, so that words span them.
      Bool.random(using: &random)
        ? pieces.randomElement(using: &random)!
        : pieces.randomElement(using: &random)! + pieces.randomElement(using: &random)!
    }.joined(separator: " ")
  }

  private static func file(_ rows: [Row]) -> String {
    let half = rows.count / 2
    func json(_ rows: ArraySlice<Row>) -> String {
      rows.map { row in
        var object = #"{"id":\#(quoted(row.id)),"text":\#(quoted(row.text))"#
        if let detail = row.detail { object += #","detail":\#(quoted(detail))"# }
        return object + "}"
      }.joined(separator: ",")
    }
    return #"{"id":"L","title":"L","searchable":true,"editable":true,"sections":["#
      + #"{"id":"s0","rows":[\#(json(rows[..<half]))]},"#
      + #"{"id":"s1","rows":[\#(json(rows[half...]))]}]}"#
  }

  private static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
