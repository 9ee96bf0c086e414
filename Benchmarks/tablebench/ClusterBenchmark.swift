import ArgumentParser
import Foundation
import Glibc
import TableStore

/// `tablebench cluster --servers 3 --postgres URL`: several real `tableweb serve` processes
/// on one PostgreSQL database. Prints how long an edit made through one server takes to
/// reach viewers on the others, and how many edits per second are committed through all
/// of them against one, with a single server on SQLite measured the same way in the same
/// run as the baseline.
struct ClusterBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cluster",
    abstract:
      "Several servers on one PostgreSQL: edit → viewers on other servers, edits per second.",
    discussion: """
      Needs a PostgreSQL database whose data may be replaced. A throwaway one (initdb in a \
      temporary folder on a free loopback port, removed afterwards):

        python3 Benchmarks/postgres.py -- .build/release/tablebench cluster --postgres {url}

      Benchmarks/postgres.py keeps fsync and synchronous_commit on unless given --no-fsync; \
      see docs/benchmarks.md.
      """)

  @Option(help: "Servers on the PostgreSQL database.")
  var servers = 3

  @Option(help: "The PostgreSQL database (postgres://USER@HOST:PORT/DB). Its data is replaced.")
  var postgres: String

  @Option(help: "Viewers of the edited list, spread evenly over the servers.")
  var viewers = 300

  @Option(help: "Edits timed for latency.")
  var rounds = 200

  @Option(
    help: """
      Writer connections for the throughput figures, spread over the servers (each stays \
      under the server's 50 commands/s per connection, so they offer at most 47/s each).
      """)
  var writers = 150

  @Option(help: "Lists the writers edit (a writer keeps to one; none of them is the viewed list).")
  var lists = 15

  @Flag(help: "Writers send a commandId with each edit, as the page does with each command.")
  var commandIds = false

  @Option(help: "Seconds each throughput figure is measured over.")
  var seconds = 5.0

  @Option(help: "The tableweb executable (default: next to this one).")
  var server: String?

  func validate() throws {
    guard servers >= 1, viewers >= 1, rounds >= 1, writers >= 1, lists >= 1, seconds > 0 else {
      throw ValidationError(
        "--servers, --viewers, --rounds, --writers, --lists and --seconds must be positive")
    }
    guard Store.isPostgresURL(postgres) else {
      throw ValidationError("--postgres must be a postgres:// URL, not \(Store.redacted(postgres))")
    }
  }

  func run() throws {
    let limit = raiseFileLimit()
    guard viewers + 2 * writers + servers + 64 <= limit else {
      throw ValidationError(
        "\(viewers) viewers and \(writers) writers need more than \(limit) files")
    }
    let executable = try BenchmarkServer.tableweb(server)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tablebench-cluster-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = folder.appendingPathComponent("app.json")
    try ClusterApp.json(lists: lists).write(to: app, atomically: true, encoding: .utf8)

    print("tablebench cluster — uptime: \(uptime())")
    let database = try PostgresConnection(postgres)
    let settings =
      (try? database.fetchOne(
        "SELECT current_setting('fsync'), current_setting('synchronous_commit')", [],
        { "fsync = \($0.string(0)), synchronous_commit = \($0.string(1))" })) ?? nil
    print(
      "PostgreSQL \(database.serverVersion / 10_000).\(database.serverVersion % 100) "
        + "(\(settings ?? "settings unknown")); \(viewers) viewers, \(writers) writers on "
        + "\(lists) lists\(commandIds ? " (each edit with a commandId)" : ""), "
        + "\(ProcessInfo.processInfo.activeProcessorCount) cores")

    let sqlitePath = folder.appendingPathComponent("cluster.sqlite").path
    try BenchmarkServer.runToEnd(executable, ["import", app.path, "--db", sqlitePath])
    let sqlite = try ClusterRun(executable: executable, db: sqlitePath, servers: 1, postgres: nil)
    defer { sqlite.stop() }  // also when a measurement fails
    let sqliteLatency = try sqlite.latency(viewers: viewers, rounds: rounds)
    let sqliteRate = try sqlite.throughput(
      writers: writers, lists: lists, through: 1, seconds: seconds, commandIDs: commandIds)
    sqlite.stop()

    try BenchmarkServer.runToEnd(executable, ["import", app.path, "--db", postgres])
    let cluster = try ClusterRun(
      executable: executable, db: postgres, servers: servers, postgres: database)
    defer { cluster.stop() }
    let latency = try cluster.latency(viewers: viewers, rounds: rounds)
    let oneRate = try cluster.throughput(
      writers: writers, lists: lists, through: 1, seconds: seconds, commandIDs: commandIds)
    let allRate = try cluster.throughput(
      writers: writers, lists: lists, through: servers, seconds: seconds, commandIDs: commandIds)
    cluster.stop()

    print("\nAn edit → viewers (\(rounds) edits, each through the next server in turn):")
    print("  SQLite, 1 server, \(viewers) viewers on it:        \(sqliteLatency.same.summary)")
    print("  PostgreSQL, viewers on the server that edited:  \(latency.same.summary)")
    print(
      "  PostgreSQL, viewers on the other servers:       \(latency.other.summary)"
        + "  (goal p99 ≤ 25 ms; \(format(latency.other.p99 / max(sqliteLatency.same.p99, 0.001)))× SQLite's p99)"
    )
    print("  PostgreSQL, every viewer has it:                \(latency.all.summary)")
    print(
      "\nCommitted edits per second (\(writers) writers, \(lists) lists, \(format(seconds)) s each):"
    )
    print("  SQLite, 1 server:                    \(sqliteRate.summary)")
    print("  PostgreSQL, through 1 server:        \(oneRate.summary)")
    print(
      "  PostgreSQL, through \(servers) servers:       \(allRate.summary)"
        + "  (goal: ≥ one server, the lock held < 50 %; \(format(allRate.perSecond / max(oneRate.perSecond, 1)))× one server, "
        + "\(format(allRate.perSecond / max(sqliteRate.perSecond, 1)))× SQLite)")
    print("\nuptime at the end: \(uptime())")
  }
}

/// The data the benchmark imports: a home screen leading to `lists` + 1 editable lists of
/// 20 rows; `L0` is the one viewers watch, `L1`… are the writers'.
enum ClusterApp {
  static func json(lists: Int) -> String {
    let screens = (0...lists).map { list in
      let rows = (1...20).map { #"{"id":"L\#(list)R\#($0)","text":"Row \#($0)"}"# }
        .joined(separator: ",")
      return
        #"{"id":"go\#(list)","text":"List \#(list)","children":{"id":"L\#(list)","title":"List \#(list)","editable":true,"sections":[{"id":"L\#(list)S","rows":[\#(rows)]}]}}"#
    }
    return
      #"{"id":"home","title":"Cluster","sections":[{"id":"S","rows":[\#(screens.joined(separator: ","))]}]}"#
  }
}

/// `uptime`'s line, or the load averages when it cannot be run.
func uptime() -> String {
  var ends: [Int32] = [0, 0]
  guard pipe(&ends) == 0 else { return "load average \(loadAverage())" }
  let output = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
  let process = try? ChildProcess(["/usr/bin/uptime"], output: .descriptor(ends[1]))
  close(ends[1])
  guard let process else { return "load average \(loadAverage())" }
  let text = String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  return text.trimmingCharacters(in: .whitespacesAndNewlines)
}
