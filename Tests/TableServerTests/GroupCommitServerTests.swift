import StoreTestSupport
import TableModel
import Testing

@testable import TableServer
@testable import TableStore

/// Group commit in the server (`SessionHost.runTogether`): the commands that queued up
/// while the core was busy share one transaction; nobody hears of them before it commits,
/// and when it cannot commit, each runs again on its own.
@Suite struct GroupCommitServerTests {
  /// Two viewers of Tasks, each on a connection of its own, and a host over the store.
  func twoViewers(_ fixture: Fixture) throws -> (SessionHost, QueueingTransport, [ConnectionID]) {
    let transport = QueueingTransport(limit: 1_000)
    let host = SessionHost(server: try fixture.makeDriver().server, transport: transport)
    let connections = [ConnectionID(1), ConnectionID(2)]
    for connection in connections {
      host.connectionDidOpen(connection)
      host.connection(connection, didReceive: #"{"type":"hello","session":null}"#)
      host.connection(connection, didReceive: #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
      _ = transport.drain(connection)
    }
    return (host, transport, connections)
  }

  func storeOf(_ host: SessionHost) throws -> Store {
    try #require((host.server?.dataSource as? StoreDataSource)?.store)
  }

  func update(_ row: String, _ text: String, ref: Int) -> String {
    #"{"type":"update","list":"Ltasks","row":"\#(row)","text":"\#(text)","ref":\#(ref)}"#
  }

  @Test(arguments: StoreKind.allCases)
  func commandsRunTogetherAreAnsweredOnlyOnceCommittedInOrder(kind: StoreKind) throws {
    let fixture = try Fixture(kind)
    let (host, transport, connections) = try twoViewers(fixture)
    let (first, second) = (connections[0], connections[1])
    let v = try fixture.version("Ltasks")
    var sentInside: [Int] = []
    host.runTogether([
      { host.connection(first, didReceive: self.update("Rtea", "Tea 1", ref: 1)) },
      { host.connection(second, didReceive: self.update("Rnope", "Nope", ref: 2)) },
      { host.connection(second, didReceive: self.update("Reggs", "Eggs 1", ref: 3)) },
      {
        // Nothing of the group has gone out yet, and it is not in the database for others.
        sentInside = connections.map { transport.queuedFrameCount(of: $0) }
        #expect((try? fixture.version("Ltasks")) == v)
      },
    ])
    #expect(sentInside == [0, 0])
    #expect(host.groupsCommitted == 1 && host.groupsRunAgain == 0)
    #expect(try fixture.version("Ltasks") == v + 2)
    let diffs = [
      "diff Ltasks \(v)→\(v + 1) update[1,0]\"Tea 1\"",
      "diff Ltasks \(v + 1)→\(v + 2) update[0,1]\"Eggs 1\"",
    ]
    #expect(transport.drain(first) == [diffs[0], "ack 1 v=\(v + 1)", diffs[1]])
    #expect(
      transport.drain(second) == [diffs[0], "error 2 not_found", diffs[1], "ack 3 v=\(v + 2)"])
  }

  /// A group that cannot commit (here a write that fails after it changed something) is
  /// undone in the core too: every command runs again on its own, and each gets one
  /// answer; the viewers get the diffs of what was committed then, once.
  @Test(arguments: StoreKind.allCases)
  func aGroupThatCannotCommitRunsEachCommandAgainOnItsOwn(kind: StoreKind) throws {
    let fixture = try Fixture(kind)
    let (host, transport, connections) = try twoViewers(fixture)
    let (first, second) = (connections[0], connections[1])
    let store = try storeOf(host)
    let v = try fixture.version("Ltasks")
    var breaks = 0
    host.runTogether([
      { host.connection(first, didReceive: self.update("Rtea", "Tea 1", ref: 1)) },
      {
        breaks += 1
        _ = try? store.write { () throws(StoreError) -> Int in
          try store.execute("UPDATE row SET text = 'half' WHERE key = 'Rbread'")
          throw StoreError.notAllowed("halfway")
        }
      },
      { host.connection(second, didReceive: self.update("Reggs", "Eggs 1", ref: 2)) },
    ])
    #expect(breaks == 2)  // in the group, then on its own
    #expect(host.groupsCommitted == 0 && host.groupsRunAgain == 1)
    #expect(try fixture.version("Ltasks") == v + 2)
    let texts = try Store(path: fixture.path).snapshot(of: "Ltasks").sections.flatMap(\.rows).map(
      \.text)
    #expect(texts == ["Milk", "Eggs 1", "Bread", "Tea 1"])
    let diffs = [
      "diff Ltasks \(v)→\(v + 1) update[1,0]\"Tea 1\"",
      "diff Ltasks \(v + 1)→\(v + 2) update[0,1]\"Eggs 1\"",
    ]
    #expect(transport.drain(first) == [diffs[0], "ack 1 v=\(v + 1)", diffs[1]])
    #expect(transport.drain(second) == [diffs[0], diffs[1], "ack 2 v=\(v + 2)"])
  }
}

extension GroupCommitServerTests {
  /// When the connection breaks while a group's COMMIT is on its way, nobody knows whether
  /// it was applied: its commands are answered with an error and not run again (an
  /// insert would be applied twice), and the change log brings what was committed.
  @Test(arguments: StoreKind.allCases)
  func aGroupWhoseCommitHasAnUnknownOutcomeIsNotRunAgain(kind: StoreKind) throws {
    let fixture = try Fixture(kind)
    let (host, transport, connections) = try twoViewers(fixture)
    let (first, second) = (connections[0], connections[1])
    let store = try storeOf(host)
    // Committed, but as if the answer to COMMIT was lost.
    store.afterGroupCommit = { () throws(StoreError) in
      store.afterGroupCommit = nil
      throw .commitOutcomeUnknown(
        after: .postgres(sqlState: "08006", message: "connection lost", sql: "COMMIT"))
    }
    let v = try fixture.version("Ltasks")
    let insert =
      #"{"type":"insert","list":"Ltasks","section":"Stodo","after":null,"row":{"text":"Jam"},"ref":1}"#
    host.runTogether([
      { host.connection(first, didReceive: insert) },
      { host.connection(second, didReceive: self.update("Rtea", "Tea 1", ref: 2)) },
    ])
    #expect(host.groupsCommitted == 0 && host.groupsRunAgain == 1)
    #expect(transport.drain(first) == ["error 1 internal"])
    #expect(transport.drain(second) == ["error 2 internal"])
    // Applied once, not twice.
    #expect(try fixture.version("Ltasks") == v + 2)
    let texts = try Store(path: fixture.path).snapshot(of: "Ltasks").sections.flatMap(\.rows).map(
      \.text)
    #expect(texts.filter { $0 == "Jam" }.count == 1)
    // The log brings both changes to the viewers, in order.
    host.catchUpWithLog()
    for connection in connections {
      let diffs = transport.drain(connection)
      #expect(diffs.count == 2)
      #expect(diffs.first?.hasPrefix("diff Ltasks \(v)→\(v + 1) insert") == true)
      #expect(diffs.last?.hasPrefix("diff Ltasks \(v + 1)→\(v + 2) update") == true)
    }
  }
}

/// What a group remembers only grows (the answers to commands with an id, the diffs kept
/// for resumes), so it waits apart from the rest until the group commits: found inside the
/// group, kept after it, gone with a group that cannot commit.
extension GroupCommitServerTests {
  func update(_ row: String, _ text: String, id: String, ref: Int) -> String {
    #"{"type":"update","list":"Ltasks","row":"\#(row)","text":"\#(text)","commandId":"\#(id)","ref":\#(ref)}"#
  }

  @Test(arguments: StoreKind.allCases)
  func aCommandIDAnsweredInAGroupIsKnownInsideItAndAfter(kind: StoreKind) throws {
    let fixture = try Fixture(kind)
    let (host, transport, connections) = try twoViewers(fixture)
    let first = connections[0]
    let v = try fixture.version("Ltasks")
    host.runTogether([
      { host.connection(first, didReceive: self.update("Rtea", "Tea 1", id: "u1", ref: 1)) },
      // Sent again in the same group: answered from the first, not applied again (its
      // text differs only to show it: a page sends the same command).
      { host.connection(first, didReceive: self.update("Rtea", "Tea 2", id: "u1", ref: 2)) },
      { host.connection(first, didReceive: self.update("Reggs", "Eggs 1", id: "u2", ref: 3)) },
    ])
    #expect(host.groupsCommitted == 1)
    #expect(try fixture.version("Ltasks") == v + 2)
    #expect(
      transport.drain(first) == [
        "diff Ltasks \(v)→\(v + 1) update[1,0]\"Tea 1\"", "ack 1 v=\(v + 1)", "ack 2 v=\(v + 1)",
        "diff Ltasks \(v + 1)→\(v + 2) update[0,1]\"Eggs 1\"", "ack 3 v=\(v + 2)",
      ])
    // After the group, alone and in another group, both ids are still known.
    host.connection(first, didReceive: update("Rtea", "Tea 4", id: "u1", ref: 4))
    host.runTogether([
      { host.connection(first, didReceive: self.update("Reggs", "Eggs 5", id: "u2", ref: 5)) },
      { host.connection(first, didReceive: self.update("Rtea", "Tea 6", id: "u1", ref: 6)) },
    ])
    #expect(transport.drain(first) == ["ack 4 v=\(v + 1)", "ack 5 v=\(v + 2)", "ack 6 v=\(v + 1)"])
    #expect(try fixture.version("Ltasks") == v + 2)
    let texts = try Store(path: fixture.path).snapshot(of: "Ltasks").sections.flatMap(\.rows)
      .map(\.text)
    #expect(texts == ["Milk", "Eggs 1", "Bread", "Tea 1"])
  }

  /// Had the failed group's answer been kept, the command would be answered from it when
  /// it runs again on its own, and never applied.
  @Test(arguments: StoreKind.allCases)
  func aGroupThatCannotCommitKeepsNoAnswerOfIt(kind: StoreKind) throws {
    let fixture = try Fixture(kind)
    let (host, transport, connections) = try twoViewers(fixture)
    let first = connections[0]
    let store = try storeOf(host)
    let v = try fixture.version("Ltasks")
    var breaks = 0
    host.runTogether([
      { host.connection(first, didReceive: self.update("Rtea", "Tea 1", id: "u1", ref: 1)) },
      {
        breaks += 1
        _ = try? store.write { () throws(StoreError) -> Int in
          try store.execute("UPDATE row SET text = 'half' WHERE key = 'Rbread'")
          throw StoreError.notAllowed("halfway")
        }
      },
    ])
    #expect(breaks == 2)
    #expect(host.groupsRunAgain == 1)
    #expect(try fixture.version("Ltasks") == v + 1)
    #expect(
      transport.drain(first) == [
        "diff Ltasks \(v)→\(v + 1) update[1,0]\"Tea 1\"", "ack 1 v=\(v + 1)",
      ])
    host.connection(first, didReceive: update("Rtea", "Tea 1", id: "u1", ref: 2))
    #expect(transport.drain(first) == ["ack 2 v=\(v + 1)"])
  }

  /// The diffs kept for resumes, the same way (`ChangeFeed`, a value).
  @Test func diffsRememberedInAGroupAreFoundInsideItKeptAfterAndGoneWithIt() {
    let frames = (0..<4).map { OutgoingFrame("diff \($0)") }
    var feed = ChangeFeed()
    feed.remember(frames[0], list: "L", from: 10)
    let checkpoint = feed
    feed.holdNew()
    feed.remember(frames[1], list: "L", from: 11)
    feed.remember(frames[2], list: "M", from: 3)
    #expect(feed.diffs(of: "L", from: 10, to: 12)?.map(\.text) == ["diff 0", "diff 1"])
    #expect(feed.diffs(of: "M", from: 3, to: 4)?.map(\.text) == ["diff 2"])
    #expect(feed.history["L"]?.count == 1, "waits apart")
    var failed = checkpoint
    #expect(failed.diffs(of: "L", from: 10, to: 12) == nil)
    feed.settle()
    #expect(feed.history["L"]?.count == 2 && feed.history["M"]?.count == 1)
    feed.remember(frames[3], list: "L", from: 12)
    #expect(feed.diffs(of: "L", from: 11, to: 13)?.map(\.text) == ["diff 1", "diff 3"])
    failed.remember(frames[1], list: "L", from: 11)
    #expect(failed.diffs(of: "L", from: 10, to: 12)?.map(\.text) == ["diff 0", "diff 1"])
  }
}
