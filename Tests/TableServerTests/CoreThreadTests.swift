import Foundation
import TableClient
import TableModel
import Testing

@testable import TableServer

/// The session core on a thread of its own (CoreThread, CoreRelay): a slow data source
/// stalls the commands behind it, never the service thread.
@Suite(.serialized) struct CoreThreadTests {
  typealias Peer = ServerIntegrationTests.Peer

  /// A data source whose every commit takes `delay`, as a database across a network may.
  final class SlowShelf: TableDataSource, Sendable {
    let delay: Duration
    let items = LockedValue<[String]>(["apple", "banana", "cherry"])
    let committed = LockedValue<ContinuousClock.Instant?>(nil)  // when the last commit's wait ended
    init(delay: Duration) { self.delay = delay }

    func rootList() throws(ProtocolError) -> String { "home" }

    func snapshot(of list: String) throws(ProtocolError) -> TableSnapshot {
      guard list == "home" else { throw ProtocolError(.notFound, "no list \(list)") }
      var snapshot = LibraryTests.fruit(items.withLock { $0 })
      snapshot.isEditable = true
      for index in snapshot.sections[0].rows.indices {
        snapshot.sections[0].rows[index].editingStyle = .delete
      }
      return snapshot
    }

    func commit(_ edit: TableEdit, in list: String) throws(ProtocolError) -> TableChange {
      guard case .delete(let rows) = edit else { throw ProtocolError(.notAllowed, "only delete") }
      Thread.sleep(
        forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds)
          / 1e18)
      committed.withLock { $0 = ContinuousClock.now }
      items.withLock { $0.removeAll { rows.contains($0) } }
      return TableChange(lists: [TableChange.ListChange(list: "home", version: 0, edits: nil)])
    }
  }

  /// How long a new WebSocket connection takes to open (an upgrade lws answers on the
  /// service thread) while another connection's commit runs, and whether it opened only
  /// once the commit was over.
  func openingTime(runsCoreOnOwnThread: Bool) async throws -> (took: Duration, afterCommit: Bool) {
    let shelf = SlowShelf(delay: .milliseconds(1500))
    var configuration = TablewebServer.Configuration(port: 0)
    configuration.runsCoreOnOwnThread = runsCoreOnOwnThread
    let server = TablewebServer(dataSource: shelf, configuration: configuration)
    try await server.start()
    var took = Duration.zero
    var opened = ContinuousClock.now
    do {
      let editor = try Peer(url: "ws://127.0.0.1:\(server.port)/ws")
      editor.send(#"{"type":"delete","list":"home","rows":["apple"],"ref":1}"#)
      editor.send(#"{"type":"reload","ref":2}"#)
      try await Task.sleep(for: .milliseconds(200))  // the commit is under way
      let clock = ContinuousClock()
      let start = clock.now
      let other = try WebSocketClient(url: "ws://127.0.0.1:\(server.port)/ws")
      other.connect()
      #expect(other.nextEvent(timeout: .seconds(5)) == .opened)
      opened = clock.now
      took = opened - start
      other.shutDown()
      // Answers come in the order of the commands, whichever thread ran them.
      #expect(try editor.next("ack")["ref"] == .int(1))
      #expect(try editor.next("ack")["ref"] == .int(2))
      #expect(editor.screen?["sections"]?[0]?["count"] == .int(2))
    }
    await server.stop()
    let committed = try #require(shelf.committed.withLock { $0 })
    return (took, opened >= committed)
  }

  @Test func aSlowCommitDoesNotHoldTheServiceThread() async throws {
    let own = try await openingTime(runsCoreOnOwnThread: true)
    #expect(
      own.took < .milliseconds(500), "opening took \(own.took) with the core on its own thread")
    // The same on the service thread waits for the commit: what the core thread is for.
    // (Not a duration: under load the 200 ms sleep above may end late in the commit.)
    let shared = try await openingTime(runsCoreOnOwnThread: false)
    #expect(
      shared.afterCommit,
      "opening took \(shared.took) with the core on the service thread, before the commit ended")
  }

  /// Records, for each read, whether it ran on its server's core thread and whether that
  /// is a thread of its own; declares its thread as told.
  final class ThreadNoting: TableDataSource, Sendable {
    let needsOwnThread: Bool
    let server = LockedValue<TablewebServer?>(nil)
    let threads = LockedValue<Set<String>>([])
    init(needsOwnThread: Bool) { self.needsOwnThread = needsOwnThread }

    var capabilities: DataSourceCapabilities {
      DataSourceCapabilities(needsOwnThread: needsOwnThread)
    }
    func rootList() throws(ProtocolError) -> String { "home" }
    func snapshot(of list: String) throws(ProtocolError) -> TableSnapshot {
      let queue = server.withLock { $0 }?.hostQueue
      let seen =
        queue?.isCurrentThread != true ? "elsewhere" : queue is CoreThread ? "own" : "service"
      threads.withLock { $0.insert(seen) }
      return LibraryTests.fruit(["apple"])
    }
  }

  /// The core thread follows what the data source declares, and the configuration
  /// overrides it.
  @Test(arguments: [
    (false, nil, "service"), (true, nil, "own"), (true, false, "service"), (false, true, "own"),
  ])
  func theDataSourceRunsOnTheThreadItDeclares(declared: Bool, configured: Bool?, expected: String)
    async throws
  {
    let shelf = ThreadNoting(needsOwnThread: declared)
    var configuration = TablewebServer.Configuration(port: 0)
    configuration.runsCoreOnOwnThread = configured
    let server = TablewebServer(dataSource: shelf, configuration: configuration)
    shelf.server.withLock { $0 = server }
    try await server.start()
    do {
      let viewer = try Peer(url: "ws://127.0.0.1:\(server.port)/ws")
      #expect(viewer.screen?["list"] == .string("home"))
    }
    await server.stop()
    shelf.server.withLock { $0 = nil }
    #expect(shelf.threads.withLock { $0 } == [expected])
  }

  @Test func workRunsInOrderAndStopLetsWhatCameFirstRun() async {
    let core = CoreThread()
    let seen = LockedValue<[Int]>([])
    for index in 0..<1000 { core.perform { seen.withLock { $0.append(index) } } }
    core.stop()
    core.perform { seen.withLock { $0.append(-1) } }  // after stop: dropped
    await core.waitUntilStopped()
    #expect(seen.withLock { $0 } == Array(0..<1000))
  }

  /// Work that queued up while the thread was busy goes to the runner (which commits it
  /// together: SessionHost.runTogether), in order, at most `mostRunTogether` at a time.
  @Test func workThatQueuedUpGoesToTheRunnerInOrderInBoundedGroups() async {
    let core = CoreThread()
    let groups = LockedValue<[Int]>([])
    core.runTogether { work, _ in
      groups.withLock { $0.append(work.count) }
      for item in work { item() }
    }
    let seen = LockedValue<[Int]>([])
    let busy = LockedValue(true)
    let started = LockedValue(false)
    core.perform {
      started.withLock { $0 = true }
      while busy.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.001) }
    }
    while !started.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
    for index in 0..<100 { core.perform { seen.withLock { $0.append(index) } } }
    busy.withLock { $0 = false }
    core.stop()
    await core.waitUntilStopped()
    #expect(seen.withLock { $0 } == Array(0..<100))
    // The busy item ran alone; the hundred behind it came in groups of the most a runner
    // is handed at once (64: 64 + 36).
    let most = CoreThread.mostRunTogether
    #expect(
      groups.withLock { $0 } == stride(from: 0, to: 100, by: most).map { min(most, 100 - $0) })
  }

  /// A runner takes, while it runs, what has come since it was handed its work.
  @Test func aRunnerTakesWhatCameWhileItRan() async {
    let core = CoreThread()
    let taken = LockedValue<[Int]>([])
    let seen = LockedValue<[Int]>([])
    let queued = LockedValue(false)
    core.runTogether { work, more in
      for item in work { item() }
      while !queued.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.001) }
      let extra = more(5)
      taken.withLock { $0.append(extra.count) }
      for item in extra { item() }
    }
    let started = LockedValue(false)
    core.perform {
      started.withLock { $0 = true }
      while !queued.withLock({ $0 }) && seen.withLock({ $0.isEmpty }) {
        Thread.sleep(forTimeInterval: 0.001)
      }
    }
    while !started.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
    for index in 0..<2 { core.perform { seen.withLock { $0.append(index) } } }  // the runner's work
    seen.withLock { $0.append(-1) }  // lets the busy item end
    try? await Task.sleep(for: .milliseconds(50))
    for index in 2..<10 { core.perform { seen.withLock { $0.append(index) } } }
    queued.withLock { $0 = true }
    core.stop()
    await core.waitUntilStopped()
    #expect(seen.withLock { $0 } == [-1] + Array(0..<10))
    // 5 taken by the runner of 0 and 1; the other 3 came as a group of their own, whose
    // runner found nothing more.
    #expect(taken.withLock { $0 } == [5, 0])
  }
}
