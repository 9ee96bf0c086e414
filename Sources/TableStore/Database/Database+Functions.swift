import CSQLite
import TableModel

extension Database {
  /// Defines `tableweb_search_key(text, detail)` on this connection: a row's
  /// `SearchQuery/key(text:detail:)`, which the store keeps in `row.search` (see the
  /// schema's triggers). Every connection that writes rows needs it, so the store defines
  /// it before anything else runs.
  public func defineSearchKeyFunction() throws(SQLiteError) {
    let code = sqlite3_create_function_v2(
      handle, "tableweb_search_key", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
      { context, count, values in
        guard count == 2, let values, let textPointer = sqlite3_value_text(values[0]) else {
          sqlite3_result_null(context)
          return
        }
        let detail = sqlite3_value_text(values[1]).map { String(cString: $0) }
        let key = SearchQuery.key(text: String(cString: textPointer), detail: detail)
        sqlite3_result_text(context, key, -1, tableweb_sqlite_transient())
      }, nil, nil, nil)
    guard code == SQLITE_OK else { throw lastError(sql: "sqlite3_create_function_v2") }
  }
}
