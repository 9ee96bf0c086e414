import ArgumentParser
import Foundation
import TableModel
import TableStore

/// `tableweb access list`: never a credential.
struct AccessListCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "Show the grants: name, role, created, last used.")

  @Option(help: DatabaseOption.help)
  var db: String?

  func run() async throws {
    let store = try AccessCommand.openStore(db, create: false)
    let grants = try AccessCommand.failing { () throws(StoreError) in try store.accessGrants() }
    guard !grants.isEmpty else {
      print("No grants: the server is open to whoever can reach it (loopback only unless --open).")
      return
    }
    let width = max(4, grants.map(\.name.count).max() ?? 0)
    print(pad("NAME", width) + "  ROLE    CREATED               LAST USED")
    for grant in grants {
      print(
        pad(grant.name, width) + "  " + pad(grant.role.rawValue, 6) + "  "
          + Self.time(grant.created) + "  " + (grant.lastUsed.map(Self.time) ?? "never"))
    }
  }

  private func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }

  static func time(_ unix: Int) -> String {
    let formatter = ISO8601DateFormatter()
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(unix)))
  }
}
