import TableModel
import TableStore

extension DemoApp {
  /// A Mail-like inbox in a custom cell: sender, time, subject, a two-line preview and an
  /// unread badge, with Flag and Delete as row actions.
  static func mail() -> AppScreen {
    let messages: [(String, String, String, String, Int)] = [
      (
        "Ada Lovelace", "9:41", "Notes on the engine",
        "I have added a table of the steps, so that anyone can follow how the numbers are computed, one column at a time.",
        2
      ),
      (
        "Grace Hopper", "Yesterday", "A bug, literally",
        "We found a moth in relay 70 of panel F. It is taped into the log book; the machine runs again.",
        1
      ),
      (
        "Alan Turing", "Tuesday", "Lunch on Friday?",
        "Shall we continue our talk about whether machines can think? I have a new game to propose.",
        0
      ),
      (
        "Edsger Dijkstra", "Monday", "Re: goto",
        "A short letter to the editor, if you would read it before I send it off.", 0
      ),
      (
        "Barbara Liskov", "Sunday", "Substitution",
        "Subtypes should be usable wherever their base type is expected; I wrote it down more formally.",
        0
      ),
    ]
    var screen = AppScreen(
      id: "mail", title: "Inbox", isEditable: true,
      sections: [
        AppSection(
          id: "mail-inbox",
          rows: messages.enumerated().map { index, message in
            var row = AppRow(id: "mail-\(index)", text: message.0)
            row.values = [
              "sender": message.0, "time": message.1, "subject": message.2, "preview": message.3,
            ]
            if message.4 > 0 { row.values["unread"] = String(message.4) }
            return row
          })
      ])
    screen.cell = CellTemplate(slots: [
      .init(name: "avatar", kind: .image), .init(name: "sender", kind: .title),
      .init(name: "time", kind: .trailing), .init(name: "subject", kind: .subtitle),
      .init(name: "preview", kind: .body, lines: 2), .init(name: "unread", kind: .badge),
    ])
    screen.actions = [
      AppAction(
        RowAction(id: "flag", title: "Flag", edge: .leading, color: .orange), effect: .flag),
      AppAction(
        RowAction(id: "delete", title: "Delete", edge: .trailing, color: .red), effect: .delete),
    ]
    return screen
  }
}
