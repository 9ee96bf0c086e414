import Foundation
import Testing

@testable import TableModel

/// The messages docs/protocol.md shows are messages: each decodes, and so does its ROW.
@Suite struct ProtocolDocumentTests {
  private static func document() throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return try String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
  }

  /// The ```json blocks, and the `{"type":…}` examples in the tables of commands.
  private static func examples() throws -> [String] {
    let text = try document()
    var examples: [String] = []
    for block in text.components(separatedBy: "```json\n").dropFirst() {
      examples.append(String(block.prefix { $0 != "`" }))
    }
    for line in text.split(separator: "\n") where line.hasPrefix("|") {
      for span in line.components(separatedBy: "`{\"type\":").dropFirst() {
        examples.append("{\"type\":" + span.prefix { $0 != "`" })
      }
    }
    return examples
  }

  @Test func everyExampleIsAMessageThatDecodes() throws {
    let examples = try Self.examples()
    #expect(examples.count >= 18)
    for example in examples {
      let json = try JSONValue(parsing: example)
      guard let type = json["type"]?.stringValue else {
        #expect(throws: Never.self, "\(example)") { try Row(json: json) }  // the ROW
        continue
      }
      if ClientMessage.Kind(rawValue: type) != nil {
        #expect(throws: Never.self, "\(example)") { try ClientMessage.decode(json).result.get() }
      } else {
        let message = ServerMessage.decode(json)
        #expect(throws: Never.self, "\(example)") { try message.get() }
        if case .success(.unknown) = message { Issue.record("unknown type in \(example)") }
      }
    }
  }
}
