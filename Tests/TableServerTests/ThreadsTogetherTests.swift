import Foundation
import TableModel
import Testing

@testable import TableServer

/// Every kind of thread the server has, busy at once: what `make tsan` (the suites under
/// ThreadSanitizer) needs to see them meet. Under plain `swift test` it checks that the
/// viewers still end on the app's last state and every health check is answered.
@Suite(.serialized) struct ThreadsTogetherTests {
  typealias Peer = ServerIntegrationTests.Peer

  /// Starts `body` on a thread of its own; `group` is left when it ends.
  static func onItsOwnThread(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
    group.enter()
    Thread {
      body()
      group.leave()
    }.start()
  }

  @Test func appThreadsViewersCommandsAndHealthChecksAtOnce() async throws {
    let shelf = LibraryTests.Shelf()
    let healthChecks = LockedValue(0)
    var configuration = TablewebServer.Configuration(port: 0)
    // The health probe's thread reads the app's data too.
    configuration.healthCheck = {
      healthChecks.withLock { $0 += 1 }
      return (try? shelf.snapshot(of: "home")) != nil
    }
    let server = TablewebServer(dataSource: shelf, configuration: configuration)
    try await server.start()
    let url = "ws://127.0.0.1:\(server.port)/ws"
    do {
      let viewers = [try Peer(url: url), try Peer(url: url)]
      let group = DispatchGroup()
      // Three app threads change the data and say so, as an app's watchers would.
      for writer in 0..<3 {
        Self.onItsOwnThread(group) {
          for step in 0..<20 {
            shelf.items.withLock { $0.append("w\(writer)s\(step)") }
            server.reloadList("home")
          }
        }
      }
      // A load balancer polls /healthz.
      let statuses = LockedValue<[Int]>([])
      Self.onItsOwnThread(group) {
        for _ in 0..<20 {
          let status = (try? HTTPResponse.fetch(port: server.port, path: "/healthz"))?.status
          statuses.withLock { $0.append(status ?? 0) }
        }
      }
      // A viewer asks for the list again and again.
      let reloads = LockedValue(0)
      Self.onItsOwnThread(group) {
        guard let reader = try? Peer(url: url) else { return }
        for ref in 0..<20 {
          reader.send(#"{"type":"reload","ref":\#(ref)}"#)
          if (try? reader.next("screen")) != nil { reloads.withLock { $0 += 1 } }
        }
      }
      group.wait()

      #expect(statuses.withLock { $0 } == Array(repeating: 200, count: 20))
      #expect(healthChecks.withLock { $0 } >= 1)
      #expect(reloads.withLock { $0 } == 20)
      let final = shelf.items.withLock { $0 }
      #expect(final.count == 2 + 3 * 20)
      for viewer in viewers {
        var screen = try #require(viewer.screen)
        while Self.rowIDs(screen) != final {
          screen = ScreenModel.apply(diff: try viewer.next("diff"), to: screen)
        }
        #expect(Self.rowIDs(screen) == final)
      }
    }
    await server.stop()
  }

  static func rowIDs(_ screen: JSONValue) -> [String] {
    screen["sections"]?[0]?["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
  }
}
