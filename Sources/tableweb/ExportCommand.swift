import ArgumentParser
import Foundation
import TableStore

/// `tableweb export [--db PATH]`: writes the database's data as a JSON data file to stdout.
struct ExportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write all of the database's data as a JSON data file on standard output.")

  @Option(help: DatabaseOption.help)
  var db: String?

  func run() async throws {
    let db = DatabaseOption.resolve(self.db)
    guard DatabaseOption.exists(db) else {
      throw CommandFailure("no database at \(db)")
    }
    let text: String
    do {
      text = try Store(path: db, readOnly: true).exportJSON()
    } catch {
      throw CommandFailure("\(DatabaseOption.shown(db)): \(error)")
    }
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
