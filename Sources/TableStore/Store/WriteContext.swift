import TableModel

/// The context of one store write, passed to it as a parameter (`inout`) from its start to
/// its commit: who makes it (the `change_log` row it adds) and how the rows it touches
/// were before it (the prior rows its change-log entry carries). Made afresh for every
/// attempt of the write, so nothing of a rolled-back attempt is left over.
struct WriteContext {
  /// Who makes the write and with which command; nil records nobody.
  let record: Store.ChangeRecord?
  /// How the rows the write changes were before it, per list: the first note of a row
  /// wins; a later one may only add its place.
  private(set) var prior: [String: [PriorRow]] = [:]
  /// Whether the write keeps the rows it deletes in full (`deletedRows`): when it goes
  /// on a session's undo stack (Store+Undo.swift).
  var keepsDeletedRows = false
  /// The rows the write deleted, as the data format has them (with their child screens),
  /// in the order deleted; only with `keepsDeletedRows`.
  var deletedRows: [AppRow] = []

  init(record: Store.ChangeRecord?) {
    self.record = record
  }

  /// Takes the prior rows and deleted rows another write noted (one an undo joined).
  mutating func absorb(_ other: WriteContext) {
    for (list, rows) in other.prior {
      for row in rows { notePrior(row.row, list: list, place: row.place) }
    }
    deletedRows += other.deletedRows
  }

  mutating func notePrior(_ content: Row, list: String, place: PriorRow.Place?) {
    var rows = prior[list, default: []]
    if let index = rows.firstIndex(where: { $0.row.id == content.id }) {
      if rows[index].place == nil, let place { rows[index].place = place }
    } else {
      rows.append(PriorRow(row: content, place: place))
    }
    prior[list] = rows
  }
}

extension Store.ChangeRecord {
  /// The record of a write by `author`; nil when there is no author to record.
  init?(_ author: ChangeAuthor?, command: String, list: String) {
    guard let author else { return nil }
    self.init(list: list, command: command, author: author)
  }
}

extension Store {
  /// Notes in `context` how `row` was before the write under way changes it: its content, and with
  /// `placed` its section and the visible row before it. The first record of a row wins;
  /// a later one may only add the place.
  func notePrior(
    _ row: RowRecord, in list: ListRecord, placed: Bool, into context: inout WriteContext
  ) throws(StoreError) {
    try notePrior(row.row(in: list), list: list.key, placed: placed ? row : nil, into: &context)
  }

  func notePrior(
    _ content: Row, list: String, placed record: RowRecord? = nil,
    into context: inout WriteContext
  ) throws(StoreError) {
    var place: PriorRow.Place?
    if let record {
      place = PriorRow.Place(
        section: try sectionKey(id: record.sectionID), after: try previousVisibleRow(record))
    }
    context.notePrior(content, list: list, place: place)
  }
}
