import TableModel
import Testing

@testable import TableClient
@testable import TableServer

@Suite("Client: the protocol logic, without sockets")
struct ClientHeadlessTests {
  static let wifi = Row(
    id: "R1", style: .value1, text: "Wi-Fi", detail: "Home", accessory: .disclosureIndicator)
  static let airplane = Row(id: "R2", text: "Airplane Mode", control: .switch(isOn: false))
  static let general = Row(id: "R3", text: "General", accessory: .disclosureIndicator)

  static func screen(version: Int = 1, count: Int = 3, rows: [Row] = [wifi, airplane, general])
    -> ServerMessage
  {
    .screen(
      ScreenMessage(
        transition: .none, stack: ["Settings"],
        screen: LoadedScreen(
          list: "L1", version: version, title: "Settings", style: .grouped, isEditable: true,
          sections: [
            LoadedSection(id: "S1", header: "NETWORK", footer: nil, count: count, rows: rows)
          ])))
  }

  static func started() -> HeadlessClient {
    var client = HeadlessClient()
    _ = client.receive(ServerMessage.welcome(session: "T0K3N", resumed: false).serialized)
    _ = client.receive(screen().serialized)
    return client
  }

  @Test func helloCarriesTheSessionToResume() {
    #expect(HeadlessClient(session: "abc").hello().contains(#""session":"abc""#))
    #expect(HeadlessClient().hello().contains(#""session":null"#))
    #expect(!HeadlessClient().hello().contains("have"))
  }

  @Test func helloAfterAScreenSaysWhatItHas() {
    let hello = ClientMessage.decode(Self.started().hello()).result
    #expect(
      hello
        == .success(
          .hello(
            session: "T0K3N", client: "tableweb client",
            have: ListVersion(list: "L1", version: 1))))
  }

  @Test func welcomeAndScreenAreKept() {
    var client = HeadlessClient()
    #expect(
      client.receive(ServerMessage.welcome(session: "T0K3N", resumed: true).serialized)
        == .welcomed(session: "T0K3N", resumed: true))
    #expect(client.session == "T0K3N")
    #expect(client.receive(Self.screen().serialized) == .screenChanged)
    #expect(client.screen?.loadedRows.map(\.row.id) == ["R1", "R2", "R3"])
  }

  @Test func commandsNameRowsByIdOrText() throws {
    var client = Self.started()
    guard case .send(let byText, 1) = client.run(.tap("wi-fi")),
      case .send(let byID, 2) = client.run(.tap("R1"))
    else {
      Issue.record("expected two sends")
      return
    }
    #expect(ClientMessage.decode(byText).result == .success(.tap(list: "L1", row: "R1")))
    #expect(ClientMessage.decode(byID).result == .success(.tap(list: "L1", row: "R1")))
    #expect(client.unanswered == [1, 2])
    #expect(client.run(.tap("Bluetooth")) == .refuse(#"no row "Bluetooth" on this screen"#))
  }

  @Test func toggleFlipsTheSwitchUnlessTold() {
    var client = Self.started()
    guard case .send(let flip, _) = client.run(.toggle("Airplane Mode", isOn: nil)),
      case .send(let set, _) = client.run(.toggle("R2", isOn: false))
    else {
      Issue.record("expected two sends")
      return
    }
    #expect(
      ClientMessage.decode(flip).result == .success(.toggle(list: "L1", row: "R2", isOn: true)))
    #expect(
      ClientMessage.decode(set).result == .success(.toggle(list: "L1", row: "R2", isOn: false)))
    #expect(client.run(.toggle("Wi-Fi", isOn: nil)) == .refuse("Wi-Fi has no switch"))
  }

  @Test func insertAndMovePlaceByNeighbour() {
    var client = Self.started()
    guard case .send(let append, _) = client.run(.insert(text: "VPN", after: nil)),
      case .send(let after, _) = client.run(.insert(text: "VPN", after: "Wi-Fi")),
      case .send(let top, _) = client.run(.move("General", after: nil))
    else {
      Issue.record("expected three sends")
      return
    }
    #expect(
      ClientMessage.decode(append).result
        == .success(.insert(list: "L1", section: "S1", after: "R3", row: NewRow(text: "VPN"))))
    #expect(
      ClientMessage.decode(after).result
        == .success(.insert(list: "L1", section: "S1", after: "R1", row: NewRow(text: "VPN"))))
    #expect(
      ClientMessage.decode(top).result
        == .success(.move(list: "L1", row: "R3", section: "S1", after: nil)))
  }

  @Test func diffsChangeTheScreen() {
    var client = Self.started()
    let diff = TableDiff(
      list: "L1", from: 1,
      ops: [
        .delete(at: TableIndexPath(row: 1, section: 0)),
        .move(from: TableIndexPath(row: 2, section: 0), to: TableIndexPath(row: 0, section: 0)),
      ])
    #expect(client.receive(ServerMessage.diff(diff).serialized) == .screenChanged)
    #expect(client.screen?.version == 2)
    #expect(client.screen?.loadedRows.map(\.row.id) == ["R3", "R1"])
  }

  @Test func aGapAsksForTheScreenAgain() {
    var client = Self.started()
    let diff = TableDiff(
      list: "L1", from: 5, ops: [.delete(at: TableIndexPath(row: 0, section: 0))])
    guard case .resync(let text, _) = client.receive(ServerMessage.diff(diff).serialized) else {
      Issue.record("expected a resync")
      return
    }
    #expect(ClientMessage.decode(text).result == .success(.reload))
    #expect(client.screen?.version == 1)
  }

  @Test func otherListsAndOldDiffsAreIgnored() {
    var client = Self.started()
    let other = TableDiff(list: "L9", from: 1, ops: [])
    let old = TableDiff(list: "L1", from: 0, ops: [])
    #expect(client.receive(ServerMessage.diff(other).serialized) == .ignored)
    #expect(client.receive(ServerMessage.diff(old).serialized) == .ignored)
  }

  @Test func fetchLoadsTheRestOfALongSection() {
    var client = HeadlessClient()
    _ = client.receive(Self.screen(count: 5, rows: [Self.wifi, Self.airplane]).serialized)
    #expect(client.screen?.text.contains("… 3 rows not loaded (fetch)") == true)
    guard case .send(let fetch, _) = client.run(.fetch) else {
      Issue.record("expected a fetch")
      return
    }
    #expect(
      ClientMessage.decode(fetch).result
        == .success(.fetch(list: "L1", section: "S1", from: 2, count: 3)))
    // A change past what is loaded only changes the count.
    let diff = TableDiff(
      list: "L1", from: 1, ops: [.delete(at: TableIndexPath(row: 4, section: 0))])
    #expect(client.receive(ServerMessage.diff(diff).serialized) == .screenChanged)
    #expect(client.screen?.sections[0].count == 4)
    let stale = RowsMessage(
      list: "L1", version: 1, section: 0, from: 2, rows: [Row(id: "R9", text: "Old")])
    #expect(client.receive(ServerMessage.rows(stale).serialized) == .ignored)
    let rows = RowsMessage(
      list: "L1", version: 2, section: 0, from: 2,
      rows: [Self.general, Row(id: "R5", text: "VPN")])
    #expect(client.receive(ServerMessage.rows(rows).serialized) == .screenChanged)
    #expect(client.screen?.loadedRows.map(\.row.id) == ["R1", "R2", "R3", "R5"])
    #expect(client.run(.fetch) == .refuse("every row is loaded"))
  }

  @Test func answersClearUnansweredCommands() {
    var client = Self.started()
    _ = client.run(.back)
    _ = client.run(.reload)
    #expect(
      client.receive(ServerMessage.ack(ref: 1, version: nil).serialized)
        == .answered(ref: 1, version: nil))
    let error = ProtocolError(.notAllowed, "read-only")
    #expect(client.receive(ServerMessage.error(ref: 2, error).serialized) == .failed(ref: 2, error))
    #expect(client.unanswered.isEmpty)
  }

  @Test func theScreenReadsAsText() {
    let client = Self.started()
    #expect(
      client.screen?.text == """
        Settings  (root; L1 v1; grouped)
          [S1] NETWORK
            R1 | value1 | Wi-Fi | Home | disclosure
            R2 | default | Airplane Mode | - | none | switch off
            R3 | default | General | - | disclosure
        """)
  }
}
