import ArgumentParser
import Foundation
import TableModel
import TableStore

/// `tableweb access revoke NAME`.
struct AccessRevokeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "revoke",
    abstract: "Remove a grant; a running server closes its connections within 2 seconds.")

  @Argument(help: "The name the grant was made for.")
  var name: String

  @Option(help: DatabaseOption.help)
  var db: String?

  func run() async throws {
    let store = try AccessCommand.openStore(db, create: false)
    let removed = try AccessCommand.failing { () throws(StoreError) in
      try store.revokeAccess(name: name)
    }
    guard removed else {
      throw CommandFailure(
        "no grant named “\(name)” in \(DatabaseOption.shown(DatabaseOption.resolve(db)))")
    }
    print("Revoked “\(name)”.")
  }
}
