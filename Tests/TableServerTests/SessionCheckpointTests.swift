import StoreTestSupport
import TableModel
import Testing

@testable import TableServer
@testable import TableStore

/// The checkpoint a group commit goes back to when its transaction cannot be committed
/// (``SessionServer/checkpoint()``, `SessionHost.runTogether`): a copy of the session core,
/// which restores every stored property only while each is a value. A class among them
/// would be shared by the copy and keep what the failed group did to it.
@Suite struct SessionCheckpointTests {
  /// The core's stored properties that are the services it calls, not its state: the
  /// checkpoint shares them, and going back to it does not undo what they did (the data
  /// source's transaction is rolled back by the data source).
  /// `capabilities` is what the data source declared (it names the data source again), and
  /// `diagnostics` where the core reports what it cannot tell a client (a logger).
  static let services: Set<String> = [
    "dataSource", "sessionStorage", "authenticator", "onCommand", "capabilities", "diagnostics",
  ]

  /// Every stored property of the core that this suite fills and checks. A property added
  /// to `SessionServer` fails `theCheckpointCoversEveryStoredProperty` until it is named
  /// here, filled by `busyCore()` and seen restored by `aRestoredCheckpointIsTheCoreAsItWas`.
  static let state: Set<String> = [
    "configuration", "sessions", "audiences", "sidebarAudiences", "connections", "snapshots",
    "windowCounts", "unsavedStacks", "failedHellos", "changeFeed", "listVersions", "searches",
    "answeredCommands", "historyWatchers", "presence",
  ]

  static let tasksSearch = #"{"type":"search","list":"Ltasks","query":"milk","ref":7}"#

  /// A core with something in every part of its state: sessions on a split layout, a
  /// search, a long list held as its first rows, a remembered command, a failed hello, a
  /// stack kept in memory, versions it counts and a change-log position.
  func busyCore(_ fixture: Fixture) throws -> ServerDriver {
    var configuration = SessionServerConfiguration()
    configuration.windowedListThreshold = 50
    var driver = try fixture.makeDriver(configuration, authenticator: OneKey())
    let viewer = driver.connect(UpgradeRequest(peerAddress: "192.0.2.1"))
    _ = driver.send(viewer, #"{"type":"hello","session":null,"access":"key"}"#)
    _ = driver.send(viewer, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    _ = driver.send(viewer, Self.tasksSearch)
    // The viewer watches Tasks' history (its new entries come live).
    _ = driver.send(viewer, #"{"type":"history","list":"Ltasks","before":null}"#)
    let reader = driver.connect(UpgradeRequest(peerAddress: "192.0.2.2"))
    _ = driver.send(reader, #"{"type":"hello","session":null,"access":"key"}"#)
    _ = driver.send(reader, #"{"type":"layout","split":true,"ref":1}"#)
    _ = driver.send(reader, #"{"type":"tap","list":"Lhome","row":"Rnumbers"}"#)
    _ = driver.send(
      reader,
      #"{"type":"update","list":"Ltasks","row":"Rtea","text":"Tea 2","commandId":"c1","ref":2}"#)
    let stranger = driver.connect(UpgradeRequest(peerAddress: "192.0.2.3"))
    _ = driver.send(stranger, #"{"type":"hello","session":null,"access":"wrong"}"#)
    driver.server.unsavedStacks[SessionToken(rawValue: "kept")] = NavigationStack(
      root: NavigationLevel(list: "Lhome", title: "Home"))
    _ = driver.server.listVersions.bump("Lhome")
    return driver
  }

  @Test func theCheckpointCoversEveryStoredProperty() throws {
    let driver = try busyCore(Fixture(.sqlite))
    let labels = Set(Mirror(reflecting: driver.server).children.compactMap(\.label))
    #expect(labels.subtracting(Self.services) == Self.state)
    // Each is filled, so that what it holds is looked at below.
    for child in Mirror(reflecting: driver.server).children {
      guard let label = child.label, Self.state.contains(label) else { continue }
      #expect(!Self.isEmpty(child.value), "\(label) is empty in busyCore()")
    }
  }

  /// No class instance anywhere inside the core's state: a copy is a checkpoint.
  @Test func everyStoredPropertyOfTheCoreIsAValue() throws {
    let driver = try busyCore(Fixture(.sqlite))
    var shared: [String] = []
    for child in Mirror(reflecting: driver.server).children {
      guard let label = child.label, !Self.services.contains(label) else { continue }
      Self.references(in: child.value, at: label, into: &shared)
    }
    #expect(shared == [])
  }

  /// What a group does to the core before it fails is gone once the core goes back to
  /// its checkpoint: every stored property is as it was.
  @Test func aRestoredCheckpointIsTheCoreAsItWas() throws {
    var driver = try busyCore(Fixture(.sqlite))
    let before = Self.describe(driver.server)
    let checkpoint = driver.server.checkpoint()
    let viewer = ConnectionID(1)
    // Change every part of the state, through the core where it can.
    _ = driver.send(viewer, #"{"type":"search","list":"Ltasks","query":"tea","ref":8}"#)
    _ = driver.send(
      viewer,
      #"{"type":"update","list":"Ltasks","row":"Rtea","text":"Tea 3","commandId":"c2","ref":9}"#)
    let other = driver.connect(UpgradeRequest(peerAddress: "192.0.2.4"))
    _ = driver.send(other, #"{"type":"hello","session":null,"access":"nope"}"#)
    _ = driver.send(other, #"{"type":"hello","session":null,"access":"key"}"#)
    _ = driver.send(other, #"{"type":"layout","split":true,"ref":1}"#)
    _ = driver.send(other, #"{"type":"tap","list":"Lhome","row":"Rsettings"}"#)
    driver.disconnect(ConnectionID(2))
    driver.server.unsavedStacks[SessionToken(rawValue: "also")] = NavigationStack(
      root: NavigationLevel(list: "Lhome", title: "Home"))
    _ = driver.server.listVersions.bump("Lhome")
    _ = driver.server.listVersions.bump("Ltasks")
    driver.server.changeFeed.logPosition = (driver.server.changeFeed.logPosition ?? 0) + 100
    driver.server.windowCounts["Lnumbers"] = [1]
    let changed = Self.describe(driver.server)
    for label in Self.state.subtracting(["configuration"]) {
      #expect(before[label] != changed[label], "\(label) was not changed by the test")
    }
    driver.server = checkpoint
    #expect(Self.describe(driver.server) == before)
  }

  // MARK: - Reflection

  /// Each stored property of the core (services aside) as `dump` prints it: class
  /// instances are printed with what they hold now.
  static func describe(_ server: SessionServer) -> [String: String] {
    var described: [String: String] = [:]
    for child in Mirror(reflecting: server).children {
      guard let label = child.label, !services.contains(label) else { continue }
      var text = ""
      dump(child.value, to: &text)
      described[label] = text
    }
    return described
  }

  /// The paths inside `value` that hold a class instance, other than an `OutgoingFrame`
  /// (immutable: its bytes are `let`s, so sharing one is sharing a value).
  static func references(in value: Any, at path: String, into found: inout [String]) {
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .class {
      if value is OutgoingFrame { return }
      found.append("\(path): \(type(of: value))")
      return
    }
    for (index, child) in mirror.children.enumerated() {
      references(in: child.value, at: "\(path).\(child.label ?? String(index))", into: &found)
    }
  }

  static func isEmpty(_ value: Any) -> Bool {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional, .collection, .dictionary, .set: return mirror.children.isEmpty
    default: return mirror.children.allSatisfy { isEmpty($0.value) } && !mirror.children.isEmpty
    }
  }
}

/// Lets in whoever says `key`, as an editor.
private final class OneKey: Authenticator {
  func authenticate(_ request: UpgradeRequest, access: String?) -> AccessDecision {
    access == "key" ? .granted(AccessIdentity(name: "key", role: .editor)) : .refused("no")
  }
}
