import ArgumentParser
import Foundation
import TableModel
import TableStore

/// `tablebench indexed`: an indexed list (`"index": true`) in the SQLite store — reading
/// its snapshot (every row sorted into letter sections) and inserting a row (placed where
/// its text sorts) — without a language (the standard A–Z collation, which every indexed
/// list used before languages) and, on a smaller list, in languages with their own
/// alphabet and ICU collation.
struct IndexedBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "indexed", abstract: "SQLite store: indexed lists, standard and by language.")

  @Option(help: "Rows in the list without a language.")
  var rows = 1_000_000

  @Option(help: "Rows in each list with a language.")
  var localizedRows = 10_000

  @Option(help: "Timed runs of each measurement (the median is printed).")
  var runs = 3

  @Option(help: "Languages to measure (comma-separated; empty: none).")
  var languages = "sv,ru,ja,zh-Hans,he"

  /// Letters names are made of, by language; nil: the standard list's.
  static let letters: [String: String] = [
    "": "abcdefghijklmnopqrstuvwxyzéö",
    "sv": "abcdefghijklmnopqrstuvwxyzåäö",
    "ru": "абвгдеёжзийклмнопрстуфхцчшщыэюя",
    "ja": "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわアカサタナ",
    "zh-Hans":
      "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤",
    "he": "אבגדהוזחטיכלמנסעפצקרשת",
  ]

  func run() throws {
    let load = loadAverages()
    print(
      "tablebench indexed — SQLite \(Database.libraryVersion); \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load)"
    )
    try measure(language: nil, rows: rows)
    for language in languages.split(separator: ",").map(String.init) where !language.isEmpty {
      try measure(language: language, rows: localizedRows)
    }
  }

  private func measure(language: String?, rows: Int) throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tablebench-indexed-\(getpid()).sqlite"
    ).path
    defer {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
      }
    }
    let alphabet = Array(Self.letters[language ?? ""] ?? Self.letters[""]!)
    var generator = SplitMix64(seed: 29)
    func name() -> String {
      String(
        (0..<(3 + generator.next(below: 6))).map { _ in
          alphabet[generator.next(below: alphabet.count)]
        })
    }
    let rowsJSON = (0..<rows).map { #"{"id":"r\#($0)","text":"\#(name())"}"# }
    let tag = language.map { #""language":"\#($0)","# } ?? ""
    let store = try Store(path: path)
    let started = ContinuousClock.now
    try store.importJSON(
      #"{"id":"L",\#(tag)"title":"Indexed","index":true,"editable":true,"sections":[{"id":"S","rows":[\#(rowsJSON.joined(separator: ","))]}]}"#
    )
    let imported = started.duration(to: .now)
    let snapshot = try median { _ = try store.snapshot(of: "L") }
    let insert = try median {
      _ = try store.insertRow(in: "L", section: "S", after: nil, NewRow(text: name()))
    }
    print(
      "  \(language ?? "no language (standard A–Z)"): \(rows) rows imported in \(imported); snapshot \(format(snapshot, places: 1)) ms (\(format(snapshot * 1000 / Double(rows), places: 2)) µs a row); insert \(format(insert, places: 1)) ms"
    )
  }

  private func median(_ body: () throws -> Void) throws -> Double {
    var samples: [Duration] = []
    for _ in 0..<runs {
      let start = ContinuousClock.now
      try body()
      samples.append(start.duration(to: .now))
    }
    return BenchmarkTimings.milliseconds(BenchmarkTimings.median(samples))
  }
}
