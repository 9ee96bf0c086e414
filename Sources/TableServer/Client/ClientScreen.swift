import TableModel

/// The screen a client shows: the last `screen` message with every diff since applied.
///
/// Each section holds `count` slots; rows not fetched yet are empty slots (see
/// docs/protocol.md, "Sections not fully loaded"), so diffs apply to the whole list.
public struct ClientScreen: Sendable, Equatable {
  public var list: String
  public var version: Int
  public var title: String
  public var backTitle: String?
  /// The navigation stack's titles, root first.
  public var stack: [String]
  public var style: TableStyle
  public var isEditing: Bool
  public var isEditable: Bool
  public var selection: SelectionMode
  public var header: String?
  public var footer: String?
  /// Every section with all its slots; an empty slot is ``emptySlot``.
  public var sections: [Section]

  /// A row not fetched yet.
  public static let emptySlot = Row(id: "", text: "")

  public init(_ message: ScreenMessage) {
    let screen = message.screen
    list = screen.list
    version = screen.version
    title = screen.title
    backTitle = screen.backTitle
    stack = message.stack
    style = screen.style
    isEditing = screen.isEditing
    isEditable = screen.isEditable
    selection = screen.selection
    header = screen.header
    footer = screen.footer
    sections = screen.sections.map { loaded in
      Section(
        id: loaded.id, header: loaded.header, footer: loaded.footer,
        rows: loaded.rows
          + Array(repeating: ClientScreen.emptySlot, count: loaded.count - loaded.rows.count))
    }
  }

  /// The rows fetched so far, in order, with their section.
  public var loadedRows: [(section: Section, row: Row)] {
    sections.flatMap { section in
      section.rows.filter { !$0.isEmptySlot }.map { (section, $0) }
    }
  }

  /// Applies `diff`, which must take this screen's list from its version.
  ///
  /// Updates fill their slot directly, so that an update to a row not fetched yet fills
  /// it rather than failing the applier's id check.
  public mutating func apply(_ diff: TableDiff) throws(DiffError) {
    precondition(
      diff.list == list && diff.from == version,
      "diff \(diff.list)@\(diff.from) for \(list)@\(version)")
    var placements: [DiffOp] = []
    var updates: [(IndexPath, Row)] = []
    for op in diff.ops {
      if case .update(let at, let row) = op {
        updates.append((at, row))
      } else {
        placements.append(op)
      }
    }
    var updated = try TableDiff.apply(placements, to: sections)
    for (at, row) in updates {
      guard updated.indices.contains(at.section), updated[at.section].rows.indices.contains(at.row)
      else { throw DiffError.invalidOp(.update(at: at, row: row), reason: "no row at \(at)") }
      updated[at.section].rows[at.row] = row
    }
    sections = updated
    version = diff.to
  }

  /// Fills slots from a `rows` answer; false when it is stale (another version or list).
  public mutating func fill(_ rows: RowsMessage) -> Bool {
    guard rows.list == list, rows.version == version, sections.indices.contains(rows.section)
    else { return false }
    for (offset, row) in rows.rows.enumerated() {
      let index = rows.from + offset
      guard sections[rows.section].rows.indices.contains(index) else { break }
      sections[rows.section].rows[index] = row
    }
    return true
  }

  /// The first run of empty slots: what `fetch` asks for next.
  public var firstEmptySlots: (section: Int, from: Int, count: Int)? {
    for (index, section) in sections.enumerated() {
      guard let from = section.rows.firstIndex(where: \.isEmptySlot) else { continue }
      let run = section.rows[from...].prefix(while: \.isEmptySlot).count
      return (index, from, run)
    }
    return nil
  }
}

extension Row {
  /// Whether this is a slot for a row not fetched yet.
  var isEmptySlot: Bool { id.isEmpty }
}
