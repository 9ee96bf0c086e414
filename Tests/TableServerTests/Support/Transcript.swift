import TableModel
import Testing

@testable import TableServer

/// Server messages as one short line each (`c1 ← ack 3 v=7`), so that a test states the
/// whole reply to a command and a mismatch reads as a diff of lines.
enum Transcript {
  static func lines(_ actions: [ServerAction], includesPresence: Bool = false) -> [String] {
    var lines: [String] = []
    for action in actions {
      switch action {
      case .send(let frame, let connections, let kind):
        // Presence has its own suite (PresenceTests); the others state everything else.
        if kind == .presence && !includesPresence { continue }
        let summary = summarize(try! JSONValue(parsing: frame.text))
        for connection in connections.sorted(by: { $0.rawValue < $1.rawValue }) {
          lines.append("\(connection) ← \(summary)")
        }
      case .close(let connection, let reason, let code):
        lines.append("\(connection) ✕ \(reason)" + (code == 1000 ? "" : " \(code)"))
      case .wake:
        break
      case .readSearch(let query, let list, _):
        lines.append("read search \(query.text.debugDescription) of \(list)")
      }
    }
    return lines
  }

  static func summarize(_ message: JSONValue) -> String {
    func int(_ value: JSONValue?) -> String { value?.intValue.map(String.init) ?? "null" }
    func text(_ value: JSONValue?) -> String { value?.stringValue.map { "\"\($0)\"" } ?? "null" }
    switch message["type"]?.stringValue {
    case "welcome":
      var line = message["resumed"]?.boolValue == true ? "welcome resumed" : "welcome new"
      if message["caughtUp"]?.boolValue == true { line += " caughtUp" }
      if let role = message["role"]?.stringValue {
        line += " \(role) \(text(message["user"]))"
      }
      return line
    case "screen":
      let screen = message["screen"]!
      var line = "screen \(message["transition"]!.stringValue!) \(text(screen["title"]))"
      line +=
        " \(screen["list"]!.stringValue!)@\(int(screen["version"])) depth=\(int(message["depth"]))"
      if let back = screen["back"]?.stringValue { line += " back=\"\(back)\"" }
      if screen["editing"]?.boolValue == true { line += " editing" }
      if let sidebar = message["sidebar"] {
        line += " sidebar=\(sidebar["screen"]!["list"]!.stringValue!)"
        if let selected = sidebar["selected"]?.stringValue { line += ":\(selected)" }
      }
      return line
    case "diff":
      let ops = message["ops"]!.arrayValue!.map(op).joined(separator: " ")
      return
        "diff \(message["list"]!.stringValue!) \(int(message["from"]))→\(int(message["to"])) \(ops)"
    case "rows":
      return
        "rows \(message["list"]!.stringValue!)@\(int(message["version"])) section \(int(message["section"]))"
        + " from \(int(message["from"])) count \(message["rows"]!.arrayValue!.count)"
    case "ack":
      return "ack \(int(message["ref"])) v=\(int(message["version"]))"
    case "error":
      return "error \(int(message["ref"])) \(message["code"]!.stringValue!)"
    case "notice":
      return "notice \(text(message["text"]))"
    default:
      return message.serialized
    }
  }

  private static func op(_ op: JSONValue) -> String {
    func path(_ value: JSONValue?) -> String {
      guard let parts = value?.arrayValue else {
        return value.map { "\($0.intValue ?? -1)" } ?? "?"
      }
      return "[" + parts.map { String($0.intValue ?? -1) }.joined(separator: ",") + "]"
    }
    let name = op["op"]!.stringValue!
    switch name {
    case "move": return "move\(path(op["from"]))→\(path(op["to"]))"
    case "insert", "update":
      let row = op["row"]!
      var line = "\(name)\(path(op["at"]))\"\(row["text"]!.stringValue!)\""
      if let isOn = row["control"]?["on"]?.boolValue { line += isOn ? "(on)" : "(off)" }
      if row["accessory"]?.stringValue == "checkmark" { line += "✓" }
      if let detail = row["detail"]?.stringValue { line += "/\"\(detail)\"" }
      return line
    default: return "\(name)\(path(op["at"]))"
    }
  }

  /// Checks that `actual` is `expected`, line for line; a mismatch prints both, marking
  /// the lines that differ.
  static func expect(
    _ actual: [String], _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard actual != expected else { return }
    var report = "replies differ (− expected, + actual):\n"
    let differences = actual.difference(from: expected)
    var removed = Set<Int>()
    var inserted = Set<Int>()
    for change in differences {
      switch change {
      case .remove(let offset, _, _): removed.insert(offset)
      case .insert(let offset, _, _): inserted.insert(offset)
      }
    }
    for (index, line) in expected.enumerated() where removed.contains(index) {
      report += "  − \(line)\n"
    }
    for (index, line) in actual.enumerated() {
      report += (inserted.contains(index) ? "  + " : "    ") + line + "\n"
    }
    Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
  }
}
