import CPostgres
import TableModel

extension PostgresConnection {
  /// Runs `COPY … FROM STDIN` (`sql`) with `data`, in COPY's text format (one line a
  /// row, columns separated by tabs, `\N` for NULL; see `appendCopyText(_:to:)`), sent in chunks
  /// through `PQputCopyData`; returns how many rows it wrote. A row the table refuses
  /// fails the whole COPY, and the transaction it is in.
  @discardableResult
  package func copyIn(_ sql: String, data: [UInt8]) throws(PostgresError) -> Int {
    try beginCopy(sql)
    do {
      try sendCopyData(data, sql)
    } catch {
      _ = try? endCopy(sql)
      throw error
    }
    return try endCopy(sql)
  }

  /// Starts `COPY … FROM STDIN` (`sql`): until `endCopy(_:)`, the connection takes only
  /// the COPY's data (`sendCopyData(_:_:)`), which PostgreSQL writes as it comes, while
  /// the caller makes the next piece.
  package func beginCopy(_ sql: String) throws(PostgresError) {
    guard !isPipelined else {
      throw PostgresError(sqlState: nil, message: "COPY inside a pipeline", statement: sql)
    }
    guard let start = PQexec(handle, sql) else { throw connectionError(sql) }
    defer { PQclear(start) }
    guard PQresultStatus(start) == PGRES_COPY_IN else {
      try check(start, sql)
      throw PostgresError(sqlState: nil, message: "not a COPY FROM STDIN", statement: sql)
    }
  }

  /// Sends a piece of the COPY `beginCopy(_:)` started, in chunks of 1 MiB.
  package func sendCopyData(_ data: [UInt8], _ sql: String) throws(PostgresError) {
    let chunk = 1 << 20
    var sent = true
    data.withUnsafeBufferPointer { buffer in
      var offset = 0
      while offset < buffer.count, sent {
        let count = min(chunk, buffer.count - offset)
        let pointer = UnsafeRawPointer(buffer.baseAddress! + offset).assumingMemoryBound(
          to: CChar.self)
        sent = PQputCopyData(handle, pointer, Int32(count)) == 1
        offset += count
      }
    }
    guard sent else { throw connectionError(sql) }
  }

  /// Ends the COPY `beginCopy(_:)` started and returns how many rows it wrote; a row the
  /// table refused throws here.
  @discardableResult
  package func endCopy(_ sql: String) throws(PostgresError) -> Int {
    guard PQputCopyEnd(handle, nil) == 1 else { throw connectionError(sql) }
    var failure: PostgresError?
    var rows = 0
    // Every result up to the null one, so the connection is ready for the next statement.
    while let result = PQgetResult(handle) {
      defer { PQclear(result) }
      if failure == nil {
        do {
          try check(result, sql)
          rows += Int(String(cString: PQcmdTuples(result))) ?? 0
        } catch {
          failure = error
        }
      }
    }
    if let failure { throw failure }
    return rows
  }

  /// Ends a COPY `beginCopy(_:)` started as failed (the server refuses it, and the
  /// transaction it is in), so that the connection takes statements again.
  package func abortCopy() {
    guard PQputCopyEnd(handle, "the import failed") == 1 else { return }
    while let result = PQgetResult(handle) { PQclear(result) }
  }

  /// Appends `value` as one column of a COPY text-format line: `\N` for NULL, booleans as
  /// `t`/`f`, and backslash, tab, newline and carriage return escaped.
  package static func appendCopyText(_ value: DatabaseValue, to data: inout [UInt8]) {
    switch value {
    case .null: data.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
    case .integer(let integer): data.append(contentsOf: String(integer).utf8)
    case .real(let real): data.append(contentsOf: "\(real)".utf8)
    case .text(let text):
      for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "\\"): data.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case UInt8(ascii: "\t"): data.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case UInt8(ascii: "\n"): data.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case UInt8(ascii: "\r"): data.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        default: data.append(byte)
        }
      }
    }
  }
}
