import ArgumentParser
import Foundation
import TableModel
import TableStore

/// `tableweb history LIST [--db PATH] [--json] [--count N]`: a list's history, newest
/// first, as the `history` message gives it.
struct HistoryCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history",
    abstract: "Print a list's history, newest first: who changed what, and when.")

  @Argument(help: "The list's id (the root list's id is in `tableweb export`).")
  var list: String

  @Option(help: DatabaseOption.help)
  var db: String?

  @Flag(help: "Print the entries as a JSON array, exactly as the history message has them.")
  var json = false

  @Option(help: "How many entries, newest first (1–\(HistoryMessage.maximumCount)).")
  var count = HistoryMessage.defaultCount

  func validate() throws {
    guard (1...HistoryMessage.maximumCount).contains(count) else {
      throw ValidationError(
        "--count must be between 1 and \(HistoryMessage.maximumCount) (it was \(count))")
    }
  }

  func run() async throws {
    let db = DatabaseOption.resolve(self.db)
    guard DatabaseOption.exists(db) else {
      throw CommandFailure("no database at \(db)")
    }
    let page: HistoryMessage
    do {
      page = try Store(path: db, readOnly: true).history(of: list, count: count)
    } catch StoreError.notFound {
      throw CommandFailure("\(DatabaseOption.shown(db)) has no list \(list)")
    } catch {
      throw CommandFailure("\(DatabaseOption.shown(db)): \(error)")
    }
    var text: String
    if json {
      text = JSONValue.array(page.entries.map(\.jsonValue)).serialized + "\n"
    } else {
      let now = Int(Date().timeIntervalSince1970)
      text = page.entries.map { $0.line(relativeTo: now) + "\n" }.joined()
      if page.entries.isEmpty { text = "No changes to \(list) are kept.\n" }
      if page.more { text += "(older entries are kept: --count \(HistoryMessage.maximumCount))\n" }
    }
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
