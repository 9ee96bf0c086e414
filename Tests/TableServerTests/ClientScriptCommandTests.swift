import TableModel
import Testing

@testable import TableClient
@testable import TableServer

@Suite("Client: script lines")
struct ClientScriptCommandTests {
  @Test(arguments: [
    ("tap Wi-Fi", ScriptCommand.tap("Wi-Fi")),
    ("tap \"Airplane Mode\"", .tap("Airplane Mode")),
    ("tap Airplane Mode", .tap("Airplane Mode")),
    ("accessory R4", .accessory("R4")),
    ("back", .back),
    ("edit on", .editing(true)),
    ("edit off", .editing(false)),
    ("delete R1 \"Milk and eggs\" R3", .delete(["R1", "Milk and eggs", "R3"])),
    ("insert Buy bread", .insert(text: "Buy bread", after: nil)),
    ("insert after R2 Buy bread", .insert(text: "Buy bread", after: "R2")),
    ("move R3 after R1", .move("R3", after: "R1")),
    ("move \"Milk\" to top", .move("Milk", after: nil)),
    ("toggle Bluetooth", .toggle("Bluetooth", isOn: nil)),
    ("toggle Airplane Mode on", .toggle("Airplane Mode", isOn: true)),
    ("toggle R5 off", .toggle("R5", isOn: false)),
    ("update R5 New name", .update("R5", RowUpdate(text: "New name"))),
    ("update R5 --flagged on", .update("R5", RowUpdate(flagged: true))),
    (
      "rename \"Buy milk\" Buy oat milk --detail \"2 litres\"",
      .update("Buy milk", RowUpdate(text: "Buy oat milk", detail: "2 litres"))
    ),
    (
      "update R5 --no-detail --flagged off",
      .update("R5", RowUpdate(detail: .some(nil), flagged: false))
    ),
    (
      "update R5 --value from=Ann --value \"subject=Lunch at 1\" --value empty=",
      .update("R5", RowUpdate(values: ["from": "Ann", "subject": "Lunch at 1", "empty": ""]))
    ),
    ("update R5 --text --dashes", .update("R5", RowUpdate(text: "--dashes"))),
    ("action Flag \"Buy milk\"", .action("Flag", "Buy milk")),
    ("action flag R4", .action("flag", "R4")),
    ("fetch", .fetch),
    ("reload", .reload),
    ("history", .history(count: nil)),
    ("history 20", .history(count: 20)),
    ("wait", .wait(milliseconds: ScriptCommand.defaultWaitMilliseconds)),
    ("wait 250", .wait(milliseconds: 250)),
    ("quit", .quit),
    ("  TAP   Wi-Fi  # a comment", .tap("Wi-Fi")),
  ])
  func parses(line: String, command: ScriptCommand) throws {
    #expect(try ScriptCommand.parse(line) == command)
  }

  @Test(arguments: ["", "   ", "# only a comment"])
  func skipsBlankLines(line: String) throws {
    #expect(try ScriptCommand.parse(line) == nil)
  }

  @Test(arguments: [
    "fly away", "tap", "edit maybe", "move R1 R2", "wait soon", "tap \"open", "update R1",
    "action Flag",
    "update R1 --flagged", "update R1 --flagged maybe", "update R1 --value noequals",
    "update R1 --value =x",
    "update R1 --colour red", "history soon", "history 0",
  ])
  func refusesBadLines(line: String) {
    #expect(throws: ScriptError.self) { try ScriptCommand.parse(line) }
  }
}
