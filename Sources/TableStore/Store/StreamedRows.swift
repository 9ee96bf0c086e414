import Foundation
import TableModel

/// The rows of a data file's root screen, checked on a thread of their own while an import
/// writes the ones already checked: the parse and the write overlapped. The file's text
/// is parsed first (its JSON syntax: a tenth of the time); the format's checks then walk
/// the tree (`AppDecoder`), handing each root row over as it passes, a chunk at a time.
/// The first problem anywhere is the checks' own (`StoreError/invalidData(path:message:)`,
/// the same as `AppFile`'s), thrown to the writer at the next row it asks for or when it
/// waits for the end, so that its transaction rolls back and nothing is written.
///
/// Only a flat screen is streamed (`skeleton(of:)`): ids on the screen, its sections and
/// rows, and no row with `showWhen` or `children`, which need the whole screen first (a
/// row's visibility, the ids a made-up key must avoid). Rows are kept once checked, so a
/// write that runs again reads them again; the whole file is in memory in any case.
final class StreamedRows: @unchecked Sendable {
  /// The rows each section of the root screen has in the file.
  let counts: [Int]
  static let chunkSize = 1_024

  private let condition = NSCondition()
  /// Which rows' search text the checking thread folds beside its checks, and with their
  /// stored JSON (`PreparedRows`): set before `check(_:)`.
  var fold = PreparedRows.Fold.all
  /// A checked row and its prepared fields.
  struct Row {
    var row: AppRow
    var prepared: PreparedRows.Prepared
  }
  /// Per section, its checked rows in chunks of `chunkSize` (guarded by `condition`).
  private var chunks: [[[Row]]]
  private var result: Result<AppScreen, StoreError>?
  /// The checking thread's chunk being filled (that thread only).
  private var filling: [Row] = []
  private var fillingSection = 0

  private init(counts: [Int]) {
    self.counts = counts
    chunks = Array(repeating: [], count: counts.count)
  }

  /// The root screen without its rows, checked as the file would be, and the streamed
  /// rows to come; nil when the file is not a flat screen, or its screen or sections have
  /// a problem (the import then checks it all first, which names the first problem).
  static func skeleton(of tree: JSONValue) -> (screen: AppScreen, rows: StreamedRows)? {
    guard var root = tree.objectValue, root["id"]?.stringValue != nil,
      case .array(let sections)? = root["sections"], !sections.isEmpty
    else { return nil }
    var counts: [Int] = []
    var bare: [JSONValue] = []
    for section in sections {
      guard var object = section.objectValue, object["id"]?.stringValue != nil,
        case .array(let rows)? = object["rows"],
        rows.allSatisfy({ row in
          guard let row = row.objectValue, row["id"]?.stringValue != nil else { return false }
          return row["showWhen"] == nil && row["children"] == nil
        })
      else { return nil }
      counts.append(rows.count)
      object["rows"] = .array([])
      bare.append(.object(object))
    }
    root["sections"] = .array(bare)
    guard let screen = try? AppScreen(json: .object(root)) else { return nil }
    return (screen, StreamedRows(counts: counts))
  }

  /// Checks the whole file (`tree`) on a thread of its own, handing over the root
  /// screen's rows as they pass.
  func check(_ tree: JSONValue) {
    let thread = Thread { [self] in
      var decoder = AppDecoder()
      decoder.onRootRow = { [self] section, row in add(row, section: section) }
      let result = Result { () throws(StoreError) in try decoder.screen(tree, at: "") }
      condition.lock()
      // The last chunk is whole only when every row passed (a problem leaves it part-full).
      if case .success = result, !filling.isEmpty { chunks[fillingSection].append(filling) }
      self.result = result
      condition.broadcast()
      condition.unlock()
    }
    thread.name = "tableweb import checks"
    thread.start()
  }

  private func add(_ row: AppRow, section: Int) {
    if section != fillingSection {
      publish()
      fillingSection = section
    }
    filling.append(Row(row: row, prepared: PreparedRows.prepare(row, search: fold)))
    if filling.count == Self.chunkSize { publish() }
  }

  private func publish() {
    guard !filling.isEmpty else { return }
    condition.lock()
    chunks[fillingSection].append(filling)
    condition.signal()
    condition.unlock()
    filling = []
    filling.reserveCapacity(Self.chunkSize)
  }

  /// Chunk `number` of section `section`'s rows, once checked; the file's first problem
  /// if the checks found one before it.
  func chunk(section: Int, number: Int) throws(StoreError) -> [Row] {
    condition.lock()
    defer { condition.unlock() }
    while chunks[section].count <= number {
      if case .failure(let error) = result { throw error }
      if result != nil {
        // Finished without the chunk: the file's rows did not match the counts.
        throw .invalidData(path: "", message: "the import's rows ran out")
      }
      condition.wait()
    }
    return chunks[section][number]
  }

  /// Waits for the checks to end: the checked screen, or the file's first problem.
  func end() throws(StoreError) -> AppScreen {
    condition.lock()
    defer { condition.unlock() }
    while result == nil { condition.wait() }
    return try result!.get()
  }
}
