import Foundation
import StoreTestSupport
import TableModel
import TableStore
import Testing

@testable import TableClient
@testable import TableServer

/// Presence (a protocol extension): `hello`'s `name`, `activity` and `presence`, with
/// raw clients on a real server, and its coalescing on the core with a clock the test
/// moves.
@Suite(.serialized) struct PresenceTests {
  typealias RunningServer = ServerIntegrationTests.RunningServer

  /// One raw connection; `hello` is what the test says.
  final class Peer {
    let client: WebSocketClient
    var token: String?

    init(_ server: RunningServer, hello: String) throws {
      client = try WebSocketClient(url: server.url)
      client.connect()
      guard client.nextEvent(timeout: .seconds(5)) == .opened else {
        throw PresenceFailure("no connection")
      }
      client.send(hello)
    }

    /// Opens a connection and says hello with `name` (none when nil); waits for the screen.
    convenience init(
      _ server: RunningServer, name: String? = nil, session: String? = nil, access: String? = nil
    ) throws {
      var hello = #"{"type":"hello","session":\#(JSONValue.string(session).serialized)"#
      if let name { hello += #","name":\#(JSONValue.string(name).serialized)"# }
      if let access { hello += #","access":\#(JSONValue.string(access).serialized)"# }
      try self.init(server, hello: hello + "}")
      token = try next("welcome")["session"]?.stringValue
      _ = try next("screen")
    }

    deinit { client.shutDown() }

    /// Reads until a message of type `type` that `matches`.
    func next(
      _ type: String, timeout: Duration = .seconds(5),
      where matches: (JSONValue) -> Bool = { _ in true }
    ) throws -> JSONValue {
      let deadline = ContinuousClock.now + timeout
      while true {
        let left = deadline - ContinuousClock.now
        guard left > .zero, case .message(let text) = client.nextEvent(timeout: left) else {
          throw PresenceFailure("no \(type) within \(timeout)")
        }
        let message = try JSONValue(parsing: text)
        if message["type"]?.stringValue == type && matches(message) { return message }
      }
    }

    /// The next `presence` whose viewers read `summary` (see ``summary(_:)``).
    func presence(_ summary: [String]) throws -> JSONValue {
      try next("presence") { PresenceTests.summary($0) == summary }
    }

    func send(_ text: String) { client.send(text) }
  }

  struct PresenceFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  /// Each viewer as `name role [you] [activity row]`.
  static func summary(_ presence: JSONValue) -> [String] {
    (presence["viewers"]?.arrayValue ?? []).map { viewer in
      var line = "\(viewer["name"]!.stringValue!) \(viewer["role"]!.stringValue!)"
      if viewer["you"] == .bool(true) { line += " you" }
      if let activity = viewer["activity"]?.stringValue {
        line += " \(activity) \(viewer["row"]?.stringValue ?? "-")"
      }
      return line
    }
  }

  @Test func presenceAppearsChangesAndVanishesOnDisconnect() async throws {
    let fixture = try Fixture(.sqlite)
    let server = try RunningServer(fixture: fixture)
    do {
      let ann = try Peer(server, name: "Ann")
      _ = try ann.presence(["Ann editor you"])
      let bo = try Peer(server, name: "Bo")
      let carol = try Peer(server)
      _ = try carol.presence(["Ann editor", "Bo editor", "Guest 1 editor you"])
      _ = try ann.presence(["Ann editor you", "Bo editor", "Guest 1 editor"])
      bo.send(#"{"type":"activity","list":"Lhome","row":"Rtasks","kind":"swiping","ref":1}"#)
      #expect(try bo.next("ack")["ref"] == .int(1))
      let swiping = try ann.presence([
        "Ann editor you", "Bo editor swiping Rtasks", "Guest 1 editor",
      ])
      #expect(swiping["list"] == .string("Lhome"))
      _ = try carol.presence(["Ann editor", "Bo editor swiping Rtasks", "Guest 1 editor you"])
      bo.send(#"{"type":"activity","list":"Lhome","row":null,"kind":null}"#)
      _ = try ann.presence(["Ann editor you", "Bo editor", "Guest 1 editor"])
      // Leaving the list ends the activity there and leaves its presence.
      bo.send(#"{"type":"activity","list":"Lhome","row":"Rtasks","kind":"editing"}"#)
      _ = try ann.presence(["Ann editor you", "Bo editor editing Rtasks", "Guest 1 editor"])
      bo.send(#"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
      _ = try bo.presence(["Bo editor you"])
      _ = try ann.presence(["Ann editor you", "Guest 1 editor"])
      // A disconnect (the socket closed) makes its viewer vanish.
      carol.client.shutDown()
      _ = try ann.presence(["Ann editor you"])
    }
    await server.stop()
  }

  @Test func badNamesAndActivitiesAreRefused() async throws {
    let fixture = try Fixture(.sqlite)
    let server = try RunningServer(fixture: fixture)
    do {
      let long = String(repeating: "é", count: 65)
      let refused = try Peer(
        server, hello: #"{"type":"hello","session":null,"name":"\#(long)","ref":1}"#)
      let error = try refused.next("error")
      #expect(error["code"] == .string("bad_message"))
      #expect(error["message"]?.stringValue?.contains("64") == true)
      let mistyped = try Peer(server, hello: #"{"type":"hello","session":null,"name":7,"ref":1}"#)
      #expect(try mistyped.next("error")["code"] == .string("bad_message"))
      let longest = String(repeating: "é", count: 64)
      let ann = try Peer(server, name: longest)
      _ = try ann.presence(["\(longest) editor you"])
      ann.send(#"{"type":"activity","list":"Lhome","row":"Rtasks","kind":"dancing","ref":2}"#)
      #expect(try ann.next("error")["code"] == .string("bad_message"))
      ann.send(#"{"type":"activity","list":"Ltasks","row":"Rtea","kind":"editing","ref":3}"#)
      let offScreen = try ann.next("error")
      #expect(offScreen["code"] == .string("not_allowed"))
      #expect(offScreen["ref"] == .int(3))
      ann.send(#"{"type":"activity","list":"Lnowhere","row":null,"kind":null,"ref":4}"#)
      #expect(try ann.next("error")["ref"] == .int(4))
    }
    await server.stop()
  }

  @Test func guestsAreNumberedPerServerAndKeepTheirNumber() async throws {
    let fixture = try Fixture(.sqlite)
    let server = try RunningServer(fixture: fixture)
    do {
      let first = try Peer(server)
      _ = try first.presence(["Guest 1 editor you"])
      var second: Peer? = try Peer(server)
      let token = second!.token!
      _ = try first.presence(["Guest 1 editor you", "Guest 2 editor"])
      second = nil
      _ = try first.presence(["Guest 1 editor you"])
      let third = try Peer(server)
      _ = try third.presence(["Guest 1 editor", "Guest 3 editor you"])
      // The same session again keeps its number, and its place.
      let again = try Peer(server, session: token)
      _ = try again.presence(["Guest 1 editor", "Guest 2 editor you", "Guest 3 editor"])
      _ = second
    }
    await server.stop()
  }

  @Test func anAccessGrantsNameWinsOverHellos() async throws {
    let fixture = try Fixture(.sqlite)
    let store = try Store(path: fixture.path)
    let editor = try store.grantAccess(name: "Ann", role: .editor)
    let viewer = try store.grantAccess(name: "Vic", role: .viewer)
    let server = try RunningServer(fixture: fixture)
    do {
      let ann = try Peer(server, name: "Zed", access: editor)
      _ = try ann.presence(["Ann editor you"])
      let vic = try Peer(server, name: "Someone", access: viewer)
      _ = try vic.presence(["Ann editor", "Vic viewer you"])
      _ = try ann.presence(["Ann editor you", "Vic viewer"])
    }
    await server.stop()
  }

  /// Many people coming at once: each gets the list's presence with its screen, and those
  /// already there at most one `presence` per 100 ms; the last one still comes.
  @Test func manyJoinsAtOnceAreCoalescedOverTheWire() async throws {
    let fixture = try Fixture(.sqlite)
    let server = try RunningServer(fixture: fixture)
    do {
      let observer = try Peer(server, name: "Obs")
      _ = try observer.presence(["Obs editor you"])
      var others: [WebSocketClient] = []
      for _ in 0..<30 {
        let client = try WebSocketClient(url: server.url)
        client.connect()
        others.append(client)
      }
      for client in others {
        _ = client.nextEvent(timeout: .seconds(5))
        client.send(#"{"type":"hello","session":null}"#)
      }
      var arrivals: [ContinuousClock.Instant] = []
      var last: JSONValue?
      while last?["count"] != .int(31) {
        last = try observer.next("presence", timeout: .seconds(3))
        arrivals.append(.now)
      }
      // Nothing more comes once all are in.
      #expect(throws: PresenceFailure.self) {
        try observer.next("presence", timeout: .milliseconds(400))
      }
      let span = arrivals.last! - arrivals.first!
      #expect(arrivals.count <= Int(span / .milliseconds(100)) + 2, "\(arrivals.count) in \(span)")
      for client in others { client.shutDown() }
    }
    await server.stop()
  }

  /// `tableweb client --name Ann`: its `hello` names it, it prints the presence it gets,
  /// and its `activity` lines reach the others.
  @Test func theClientNamesItselfPrintsPresenceAndReportsActivity() async throws {
    let fixture = try Fixture(.sqlite)
    let server = try RunningServer(fixture: fixture)
    do {
      let bo = try Peer(server, name: "Bo")
      _ = try bo.presence(["Bo editor you"])
      var options = HeadlessClientRunner.Options(url: server.url)
      options.name = "Ann"
      options.timeout = .seconds(3)
      var output: [String] = []
      var errors: [String] = []
      var runner = HeadlessClientRunner(
        options: options, write: { output.append($0) }, writeError: { errors.append($0) })
      var script = ["activity swiping Tasks", "wait 300", "activity none", "wait 300", "quit"][...]
      #expect(runner.runScript { script.popFirst() } == .finished, "\(errors)")
      #expect(output.contains("presence Lhome: Bo (editor), Ann (editor, you)"), "\(output)")
      _ = try bo.presence(["Bo editor you", "Ann editor"])
      _ = try bo.presence(["Bo editor you", "Ann editor swiping Rtasks"])
      _ = try bo.presence(["Bo editor you", "Ann editor"])
      _ = try bo.presence(["Bo editor you"])
    }
    await server.stop()
  }

  /// The Swift API: `TablewebServer.presence(of:)` says who shows a list, and a trailing
  /// `presence` still reaches the viewers through the server's own wake-up.
  @Test func anAppReadsWhoShowsAList() async throws {
    let lists = SnapshotDataSource(root: LibraryTests.fruit(["apple", "banana"]))
    let server = TablewebServer(dataSource: lists, configuration: .init(port: 0))
    #expect(await server.presence(of: "home").viewers == [])  // not running: nobody
    try await server.start()
    do {
      let url = "ws://127.0.0.1:\(server.port)/ws"
      let ann = try ServerIntegrationTests.Peer(url: url)
      let bo = try ServerIntegrationTests.Peer(url: url)
      let here = await server.presence(of: "home")
      #expect(here.viewers.map(\.name) == ["Guest 1", "Guest 2"])
      #expect(here.viewers.allSatisfy { $0.role == .editor && !$0.isYou })
      #expect(here.count == 2)
      #expect(await server.presence(of: "elsewhere").viewers == [])
      ann.send(#"{"type":"activity","list":"home","row":"apple","kind":"moving"}"#)
      let moving = try bo.next("presence")
      _ = moving
      var seen = moving
      while seen["viewers"]?[0]?["activity"] != .string("moving") { seen = try bo.next("presence") }
      #expect(await server.presence(of: "home").viewers.first?.activity == .moving)
    }
    await server.stop()
  }

  /// The core alone, its clock moved by the test: 50 `hello`s at one instant give those
  /// already there one `presence` at once and one more when the 100 ms are up.
  @Test func theCoreSendsAtMostOnePresencePerListPer100ms() throws {
    var driver = try Fixture(.sqlite).makeDriver()
    let observer = driver.join()
    var toObserver = 0
    var wakes: [Duration] = []
    func count(_ actions: [ServerAction]) {
      for action in actions {
        switch action {
        case .send(let frame, let targets, .presence) where targets.contains(observer):
          #expect(frame.text.contains(#""type":"presence""#))
          toObserver += 1
        case .wake(let after): wakes.append(after)
        default: break
        }
      }
    }
    driver.now += .seconds(1)
    for _ in 0..<50 {
      let joining = driver.connect()
      count(
        driver.server.receive(#"{"type":"hello","session":null}"#, from: joining, at: driver.now))
    }
    #expect(toObserver == 1)
    #expect(wakes == [.milliseconds(100)])
    driver.now += .milliseconds(50)
    count(driver.server.presenceWake(at: driver.now))
    #expect(toObserver == 1)
    driver.now += .milliseconds(50)
    count(driver.server.presenceWake(at: driver.now))
    #expect(toObserver == 2)
    let (viewers, total) = driver.server.presence(of: "Lhome")
    // The first 20 are named, and everyone is counted.
    #expect(total == 51 && viewers.count == Presence.viewerLimit)
    #expect(viewers.map(\.name).prefix(3) == ["Guest 1", "Guest 2", "Guest 3"])
    driver.now += .seconds(1)
    count(driver.server.presenceWake(at: driver.now))
    #expect(toObserver == 2)
    // Someone past the first 20 with an activity is named too.
    let late = ConnectionID(40)
    count(
      driver.server.receive(
        #"{"type":"activity","list":"Lhome","row":"Rtasks","kind":"moving"}"#, from: late,
        at: driver.now))
    #expect(toObserver == 3)
    #expect(driver.server.presence(of: "Lhome").viewers.last?.activity == .moving)
    // A list with many viewers gets its presence less often: one a second at 1,000.
    #expect(PresenceBook.interval(for: 150) == .milliseconds(100))
    #expect(PresenceBook.interval(for: 1_000) == .seconds(1))
    #expect(PresenceBook.interval(for: 50_000) == .seconds(1))
  }
}
