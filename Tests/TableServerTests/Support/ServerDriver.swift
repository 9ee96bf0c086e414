import Foundation
import TableModel
import Testing

@testable import TableServer

/// Plays the transport for a ``SessionServer``: opens connections, sends them text and
/// returns what the server answered as transcript lines. Time only moves when a test
/// moves it.
struct ServerDriver {
  var server: SessionServer
  var now = ContinuousClock.now
  private var nextConnection: UInt64 = 1
  /// The token each connection's `welcome` carried.
  private(set) var tokens: [ConnectionID: String] = [:]
  /// The last `screen` each connection got: the message, and its `screen` with the diffs
  /// since merged in.
  private(set) var screenMessages: [ConnectionID: JSONValue] = [:]
  private(set) var screens: [ConnectionID: JSONValue] = [:]
  /// The sidebar of a split connection's last `screen`, with the diffs of its list since.
  private(set) var sidebars: [ConnectionID: JSONValue] = [:]

  init(_ server: SessionServer) {
    self.server = server
  }

  mutating func connect(_ request: UpgradeRequest = UpgradeRequest()) -> ConnectionID {
    let connection = ConnectionID(nextConnection)
    nextConnection += 1
    _ = server.connectionOpened(connection, request: request, at: now)
    return connection
  }

  /// Opens a connection and says hello; returns it with the replies.
  mutating func join(token: String? = nil) -> ConnectionID {
    let connection = connect()
    let session = token.map { "\"\($0)\"" } ?? "null"
    _ = send(connection, #"{"type":"hello","session":\#(session)}"#)
    return connection
  }

  /// Opens a connection that already shows `screen` (kept from an earlier connection,
  /// perhaps to another server) and says hello with `have`; returns it with the replies.
  mutating func resume(token: String, showing screen: JSONValue) -> (ConnectionID, [String]) {
    let connection = connect()
    screens[connection] = screen
    let have =
      #"{"list":"\#(screen["list"]!.stringValue!)","version":\#(screen["version"]!.intValue!)}"#
    let replies = send(connection, #"{"type":"hello","session":"\#(token)","have":\#(have)}"#)
    return (connection, replies)
  }

  /// What the server publishes from the change log (another process's commits).
  mutating func catchUp() -> [String] {
    record(server.catchUpWithLog())
  }

  mutating func disconnect(_ connection: ConnectionID) {
    _ = server.connectionClosed(connection)
  }

  /// Sends one text message and returns the transcript of every reply.
  mutating func send(_ connection: ConnectionID, _ text: String) -> [String] {
    record(server.receive(text, from: connection, at: now))
  }

  mutating func sendTooLarge(_ connection: ConnectionID) -> [String] {
    record(server.receiveTooLarge(from: connection, at: now))
  }

  /// Sends `text` and checks that the replies are exactly `expected`.
  mutating func expect(
    _ connection: ConnectionID, sends text: String, replies expected: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    Transcript.expect(send(connection, text), expected, sourceLocation: sourceLocation)
  }

  mutating func record(_ actions: [ServerAction]) -> [String] {
    for case .send(let frame, let connections, _) in actions {
      let message = try! JSONValue(parsing: frame.text)
      for connection in connections {
        switch message["type"]?.stringValue {
        case "welcome": tokens[connection] = message["session"]?.stringValue
        case "screen":
          screenMessages[connection] = message
          screens[connection] = message["screen"]
          sidebars[connection] = message["sidebar"]?["screen"]
        case "diff" where message["list"] == sidebars[connection]?["list"]:
          sidebars[connection] = sidebars[connection].map {
            ScreenModel.apply(diff: message, to: $0)
          }
        case "diff":
          screens[connection] = screens[connection].map { ScreenModel.apply(diff: message, to: $0) }
        default: break
        }
      }
    }
    return Transcript.lines(actions)
  }

  // MARK: - What a connection sees

  func screen(_ connection: ConnectionID) -> JSONValue {
    guard let screen = screens[connection] else {
      preconditionFailure("\(connection) has no screen")
    }
    return screen
  }

  func list(_ connection: ConnectionID) -> String { screen(connection)["list"]!.stringValue! }
  func version(_ connection: ConnectionID) -> Int { screen(connection)["version"]!.intValue! }

  /// The id of the first row on `connection`'s screen whose text is `text`.
  func row(
    _ text: String, on connection: ConnectionID, sourceLocation: SourceLocation = #_sourceLocation
  )
    -> String
  {
    for section in screen(connection)["sections"]!.arrayValue! {
      for row in section["rows"]!.arrayValue! where row["text"]?.stringValue == text {
        return row["id"]!.stringValue!
      }
    }
    Issue.record("no row \"\(text)\" on \(connection)'s screen", sourceLocation: sourceLocation)
    return "?"
  }

  func section(_ index: Int, on connection: ConnectionID) -> String {
    screen(connection)["sections"]!.arrayValue![index]["id"]!.stringValue!
  }

  /// The texts of the rows on `connection`'s screen, section by section.
  func texts(_ connection: ConnectionID) -> [[String]] {
    screen(connection)["sections"]!.arrayValue!.map { section in
      section["rows"]!.arrayValue!.map { $0["text"]!.stringValue! }
    }
  }
}
