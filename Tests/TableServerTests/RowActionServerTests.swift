import Foundation
import StoreTestSupport
import TableModel
import TableStore
import Testing

@testable import TableServer

/// Row actions served from an app's own data source: the server hands the chosen action to
/// `commit(.action(row:action:), in:)` and sends what it changed; an action a row does not
/// offer (its own `actions`) is refused before the data source hears of it.
@Suite(.serialized) struct RowActionServerTests {
  typealias Peer = ServerIntegrationTests.Peer

  /// A Mail-like inbox kept by the app: Archive removes a message, Flag toggles its flag.
  /// Message "b" offers Archive alone, "c" nothing.
  final class Inbox: TableDataSource, Sendable {
    struct Message: Sendable {
      var id: String
      var isFlagged = false
      var actions: [String]?
    }
    let messages = LockedValue<[Message]>([
      Message(id: "a"), Message(id: "b", actions: ["archive"]), Message(id: "c", actions: []),
    ])
    let committed = LockedValue<[TableEdit]>([])

    func rootList() throws(ProtocolError) -> String { "inbox" }

    func row(_ message: Message) -> Row {
      var row = Row(id: message.id, text: message.id.uppercased())
      row.isFlagged = message.isFlagged
      row.actions = message.actions
      return row
    }

    func snapshot(of list: String) throws(ProtocolError) -> TableSnapshot {
      guard list == "inbox" else { throw ProtocolError(.notFound, "no list \(list)") }
      var snapshot = TableSnapshot(
        list: list, version: 0, title: "Inbox",
        sections: [Section(id: "s", rows: messages.withLock { $0.map(row) })])
      snapshot.actions = [
        RowAction(id: "flag", title: "Flag", edge: .leading, color: .orange),
        RowAction(id: "archive", title: "Archive", color: .purple),
      ]
      return snapshot
    }

    func commit(_ edit: TableEdit, in list: String) throws(ProtocolError) -> TableChange {
      committed.withLock { $0.append(edit) }
      guard case .action(let id, let action) = edit else {
        throw ProtocolError(.notAllowed, "only row actions here")
      }
      let edits: [RowEdit] = messages.withLock { messages in
        guard let index = messages.firstIndex(where: { $0.id == id }) else { return [] }
        if action == "archive" {
          messages.remove(at: index)
          return [.delete(row: id)]
        }
        messages[index].isFlagged.toggle()
        return [.update(row(messages[index]))]
      }
      return TableChange(lists: [.init(list: list, version: 0, edits: edits)])
    }
  }

  @Test func anAppsDataSourcePerformsTheChosenActionAndRowsRefuseWhatTheyDoNotOffer()
    async throws
  {
    let inbox = Inbox()
    let server = TablewebServer(dataSource: inbox, configuration: .init(port: 0))
    try await server.start()
    do {
      let viewer = try Peer(url: "ws://127.0.0.1:\(server.port)/ws")
      let rows = viewer.screen?["sections"]?[0]?["rows"]
      #expect(rows?[0]?["actions"] == nil)
      #expect(rows?[1]?["actions"] == .array([.string("archive")]))
      #expect(rows?[2]?["actions"] == .array([]))
      // Flag on a row that offers every action: the app's commit flags it, the diff shows it.
      viewer.send(#"{"type":"action","list":"inbox","row":"a","action":"flag","ref":1}"#)
      var diff = try viewer.next("diff")
      #expect(diff["ops"]?[0]?["op"] == .string("update"))
      #expect(diff["ops"]?[0]?["row"]?["flagged"] == .bool(true))
      // Flag on b, which offers Archive alone, and anything on c: refused, naming both.
      viewer.send(#"{"type":"action","list":"inbox","row":"b","action":"flag","ref":2}"#)
      var error = try viewer.next("error")
      #expect(error["code"] == .string("not_allowed"))
      #expect(error["message"] == .string("row b does not offer action flag"))
      viewer.send(#"{"type":"action","list":"inbox","row":"c","action":"archive","ref":3}"#)
      error = try viewer.next("error")
      #expect(error["message"] == .string("row c does not offer action archive"))
      // Archive on b: the app removes it.
      viewer.send(#"{"type":"action","list":"inbox","row":"b","action":"archive","ref":4}"#)
      diff = try viewer.next("diff")
      #expect(diff["ops"] == .array([try JSONValue(parsing: #"{"op":"delete","at":[0,1]}"#)]))
      #expect(
        inbox.committed.withLock { $0 }
          == [.action(row: "a", action: "flag"), .action(row: "b", action: "archive")])
    }
    await server.stop()
  }

  /// `update` changes a row's flag and custom cell values, checked as import checks them.
  @Test(arguments: StoreKind.allCases)
  func updateSetsFlagAndValuesAndRefusesValuesTheCellCannotShow(kind: StoreKind) async throws {
    let temporary = try TemporaryStore(kind: kind)
    defer { withExtendedLifetime(temporary) {} }
    // The server's store is the service thread's once serving: the test reads through a
    // connection of its own (sharing it raced the server's transactions on PostgreSQL).
    let store = try Store(path: temporary.path)
    try temporary.store.importJSON(
      #"""
      {"id": "M", "title": "Inbox", "editable": true, "cell": {"slots": [
         {"name": "sender", "kind": "title"}, {"name": "avatar", "kind": "image"}]},
       "sections": [{"id": "s", "rows": [
         {"id": "m1", "text": "Ada", "values": {"sender": "Ada"}},
         {"id": "m2", "text": "Plain", "children": {"id": "P", "title": "P", "editable": true,
           "sections": [{"rows": [{"id": "p1", "text": "x"}]}]}}]}]}
      """#)
    let server = TablewebServer(
      dataSource: StoreDataSource(store: temporary.store), configuration: .init(port: 0))
    try await server.start()
    do {
      let viewer = try Peer(url: "ws://127.0.0.1:\(server.port)/ws")
      viewer.send(
        #"{"type":"update","list":"M","row":"m1","flagged":true,"values":{"sender":"Ada L.","avatar":"https://x/a.png"},"ref":1}"#
      )
      let row = try viewer.next("diff")["ops"]?[0]?["row"]
      #expect(row?["flagged"] == .bool(true))
      #expect(
        row?["values"]
          == .object(["avatar": .string("https://x/a.png"), "sender": .string("Ada L.")]))
      #expect(try store.snapshot(of: "M").sections[0].rows[0].values["sender"] == "Ada L.")
      let refused: [(String, String)] = [
        (
          #""values":{"avatar":"javascript:alert(1)"}"#,
          #"field "values.avatar": not an http, https or relative URL"#
        ),
        (#""values":{"colour":"red"}"#, #"field "values.colour": no such slot in the list's cell"#),
        (#""values":{"sender":3}"#, #"field "values.sender" must be a string"#),
        (#""values":"Ada""#, #"field "values" must be an object"#),
        (#""flagged":"yes""#, #"field "flagged" must be true or false"#),
      ]
      for (ref, (fields, message)) in refused.enumerated() {
        viewer.send(#"{"type":"update","list":"M","row":"m1",\#(fields),"ref":\#(ref + 2)}"#)
        let error = try viewer.next("error")
        #expect(error["code"] == .string("bad_message"))
        #expect(error["message"]?.stringValue?.contains(message) == true, "\(error)")
      }
      // P is a row's child: on the viewer's screen once it has drilled down to it.
      viewer.send(#"{"type":"tap","list":"M","row":"m2"}"#)
      _ = try viewer.next("screen")
      viewer.send(#"{"type":"update","list":"P","row":"p1","values":{"a":"b"},"ref":9}"#)
      #expect(
        try viewer.next("error")["message"]
          == .string(#"field "values": list P has no custom cell"#))
      viewer.send(#"{"type":"update","list":"P","row":"p1","flagged":true,"ref":10}"#)
      #expect(try viewer.next("ack")["ref"] == .int(10))
      #expect(try store.snapshot(of: "P").sections[0].rows[0].isFlagged)
    }
    await server.stop()
  }
}
