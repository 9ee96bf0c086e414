import Foundation
import Logging
import TableModel

/// `--log-format json`: one JSON object a line on standard error, with `time`, `level`,
/// `label`, `message` and the line's metadata as strings; for log shippers.
struct JSONLogHandler: LogHandler {
  let label: String
  var logLevel: Logger.Level = .info
  var metadata: Logger.Metadata = [:]

  init(label: String) {
    self.label = label
  }

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    var members: [(String, JSONValue)] = [
      ("time", .string(Date().formatted(.iso8601))),
      ("level", .string(event.level.rawValue)),
      ("label", .string(label)),
      ("message", .string("\(event.message)")),
    ]
    let merged = metadata.merging(event.metadata ?? [:]) { $1 }
    for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
      members.append((key, .string("\(value)")))
    }
    let line = JSONValue.object(JSONObject(members)).serializedUTF8 + [UInt8(ascii: "\n")]
    FileHandle.standardError.write(Data(line))
  }
}
