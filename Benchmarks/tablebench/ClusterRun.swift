import Foundation
import Glibc
import TableStore

/// Servers of one `tablebench cluster` measurement, each a `tableweb serve` process on one
/// database, and the WebSocket clients connected to them (one epoll for all). Viewers,
/// changers and writers are real clients, each its own session.
///
/// Must stay on the thread that made it.
final class ClusterRun {
  private let ports: [Int]
  private let processes: [ChildProcess]
  private let clients: FanoutClients
  private let postgres: PostgresConnection?
  private let db: String
  /// The server each client is connected to.
  private var serverOf: [Int: Int] = [:]
  private var stopped = false

  init(executable: String, db: String, servers: Int, postgres: PostgresConnection?) throws {
    let ports = try (0..<servers).map { _ in try freeLoopbackPort() }
    self.ports = ports
    processes = try ports.map { port in
      try BenchmarkServer.launch(
        executable, ["serve", "--port", String(port), "--db", db],
        environment: BenchmarkServer.raisedLimits)
    }
    clients = FanoutClients(port: ports[0])
    self.postgres = postgres
    self.db = db
    for port in ports { try BenchmarkServer.waitForPort(UInt16(port)) }
  }

  /// Ends the servers; again does nothing.
  func stop() {
    guard !stopped else { return }
    stopped = true
    for process in processes {
      process.terminate()
      process.waitUntilExit()
    }
  }

  // MARK: - Latency

  struct Latency {
    var same = Percentiles()
    var other = Percentiles()
    var all = Percentiles()
  }

  /// `viewers` viewers of list L0 spread over the servers; each of `rounds` edits is made
  /// through the next server in turn, timed until each viewer has its diff. The changers
  /// show L0 too (a session edits only lists on its screen), but are not timed.
  func latency(viewers: Int, rounds: Int) throws -> Latency {
    let servers = ports.count
    let watching = Set(try join((0..<viewers).map { ($0 % servers, 0) }))
    let changers = try join((0..<servers).map { ($0, 0) })
    var result = Latency()
    var random = Generator(seed: 11)
    for round in 0..<rounds {
      let origin = round % servers
      let started = ContinuousClock.now
      try clients.send(
        #"{"type":"update","list":"L0","row":"L0R1","text":"Edit \#(round)","ref":\#(round)}"#,
        to: changers[origin])
      var waiting = viewers
      while waiting > 0 {
        guard ContinuousClock.now - started < .seconds(10) else {
          throw BenchError("round \(round): \(waiting) viewers still wait after 10 s")
        }
        try clients.pump(timeoutMilliseconds: 1) { index, message in
          if message.starts(with: Self.error) {
            throw BenchError("refused: \(String(decoding: message, as: UTF8.self))")
          }
          guard watching.contains(index), message.starts(with: Self.diff) else { return }
          let elapsed = milliseconds(ContinuousClock.now - started)
          if serverOf[index] == origin {
            result.same.values.append(elapsed)
          } else {
            result.other.values.append(elapsed)
          }
          waiting -= 1
          if waiting == 0 { result.all.values.append(elapsed) }
        }
      }
      // A random pause after the last arrival starts the next edit at a random point of
      // the other servers' 50 ms polling (edits sent on arrival would lock onto its phase);
      // 5 ms at least keeps each changer under its 50 commands/s on average.
      Thread.sleep(forTimeInterval: Double(5 + random.next(below: 50)) / 1000)
    }
    return result
  }

  // MARK: - Throughput

  struct Rate {
    var edits = 0
    var errors = 0
    var firstError: String?
    var seconds = 0.0
    var offered = 0.0
    /// CPU milliseconds per committed edit: the servers, PostgreSQL's processes, the clients.
    var cpu: (servers: Double, postgres: Double?, clients: Double) = (0, nil, 0)
    var transactionsPerEdit: Double?
    var lock: AdvisoryLockSampler.Figures?
    /// Groups committed together by the servers (SessionHost.runTogether) and the
    /// callbacks in them: from their `/metrics`.
    var groups: (committed: Double, items: Double, runAgain: Double)?

    /// Every ack, also those after the measured seconds, and how much the edited lists'
    /// versions went up meanwhile (PostgreSQL): equal when no edit was lost or doubled.
    var acks = 0
    var versionsAdded: Int?

    var perSecond: Double { Double(edits) / seconds }

    /// CPU milliseconds per edit of everything on the machine this run measured.
    var cpuPerEdit: Double { cpu.servers + (cpu.postgres ?? 0) + cpu.clients }

    /// The edits per second the machine's cores could give at this CPU per edit.
    var cpuBound: Double {
      Double(ProcessInfo.processInfo.activeProcessorCount) * 1000 / max(cpuPerEdit, 0.001)
    }

    var summary: String {
      var text =
        "\(Int(perSecond.rounded()).formatted())/s (\(edits.formatted()) acks; the writers "
        + "offer at most \(Int(offered).formatted())/s)"
      if errors > 0 { text += "; \(errors) refused, first: \(firstError ?? "?")" }
      text += "\n      CPU per edit: servers \(format(cpu.servers)) ms"
      if let postgres = cpu.postgres { text += ", PostgreSQL \(format(postgres)) ms" }
      text += ", clients \(format(cpu.clients)) ms"
      text +=
        "; CPU bound \(Int(cpuBound.rounded()).formatted())/s "
        + "(\(ProcessInfo.processInfo.activeProcessorCount) cores ÷ \(format(cpuPerEdit)) ms an edit)"
      if let versionsAdded {
        text +=
          "\n      \(acks.formatted()) acks in all, the lists' versions up by "
          + "\(versionsAdded.formatted())"
          + (acks == versionsAdded ? " (none lost)" : " — LOST OR DOUBLED")
      }
      if let transactionsPerEdit {
        text += "; \(format(transactionsPerEdit)) PostgreSQL transactions per edit"
      }
      if let groups, groups.committed > 0 {
        text +=
          "\n      \(Int(groups.committed).formatted()) groups committed together, "
          + "\(format(groups.items / groups.committed)) callbacks each on average"
          + (groups.runAgain > 0 ? ", \(Int(groups.runAgain)) run again" : "")
      }
      if let lock, lock.samples > 0 {
        let underLock =
          Double(lock.held) / Double(lock.samples) * seconds * 1000 / Double(max(edits, 1))
        text += "\n      \(lock.summary): ≈ \(format(underLock)) ms under it per edit"
      }
      return text
    }
  }

  /// `writers` new connections spread over the first `through` servers, each viewing one
  /// of lists L1…L`lists` and updating its random rows (as people edit what they see, and
  /// see each other's edits) as fast as its acks come back and the server's rate limit
  /// allows; counts the acks that arrive within `seconds`.
  func throughput(
    writers: Int, lists: Int, through: Int, seconds: Double, commandIDs: Bool = false
  ) throws -> Rate {
    let connections = try join((0..<writers).map { ($0 % through, 1 + $0 % lists) })
    defer { for index in connections { clients.close(index) } }
    var writerOf: [Int: Int] = [:]
    for (writer, index) in connections.enumerated() { writerOf[index] = writer }
    let spacing = Duration.milliseconds(21)
    var due = [ContinuousClock.Instant](repeating: .now, count: writers)
    var waiting = [Bool](repeating: false, count: writers)
    var random = Generator(seed: UInt64(40 + through))
    var rate = Rate(seconds: seconds, offered: Double(writers) * 1000 / 21)

    let versionsBefore = try listVersions()
    let commitsBefore = try commits()
    let groupsBefore = try groupFigures()
    let sampler = postgres == nil ? nil : AdvisoryLockSampler(url: db)
    let before = try cpuSample()
    let start = ContinuousClock.now
    let end = start + .milliseconds(Int(seconds * 1000))
    // Each text names the run too (`through`): one a row already has (the same writer and
    // ref in an earlier run) would change nothing, and its ack would bump no version.
    var ref = 0
    while ContinuousClock.now < end || waiting.contains(true) {
      let now = ContinuousClock.now
      guard now - end < .seconds(10) else {
        throw BenchError("acks still missing 10 s after the end")
      }
      if now < end {
        for writer in 0..<writers where !waiting[writer] && now >= due[writer] {
          ref += 1
          let list = 1 + writer % lists
          // The page's commandId: unique per session, as each writer is a session.
          let id = commandIDs ? #","commandId":"c\#(through).\#(ref)""# : ""
          try clients.send(
            #"{"type":"update","list":"L\#(list)","row":"L\#(list)R\#(1 + random.next(below: 20))","text":"W\#(writer) \#(through).\#(ref)"\#(id),"ref":\#(ref)}"#,
            to: connections[writer])
          waiting[writer] = true
          due[writer] = now + spacing
        }
      }
      try clients.pump(timeoutMilliseconds: 1) { index, message in
        guard let writer = writerOf[index] else { return }
        if message.starts(with: Self.ack) {
          waiting[writer] = false
          rate.acks += 1
          if ContinuousClock.now <= end { rate.edits += 1 }
        } else if message.starts(with: Self.error) {
          waiting[writer] = false
          rate.errors += 1
          if rate.firstError == nil { rate.firstError = String(decoding: message, as: UTF8.self) }
        }
      }
    }
    let after = try cpuSample()
    rate.lock = sampler?.stop()
    if let versionsBefore, let versionsAfter = try listVersions() {
      rate.versionsAdded = versionsAfter - versionsBefore
    }
    let groupsAfter = try groupFigures()
    rate.groups = (
      groupsAfter.committed - groupsBefore.committed, groupsAfter.items - groupsBefore.items,
      groupsAfter.runAgain - groupsBefore.runAgain
    )
    let edits = Double(max(rate.edits, 1))
    rate.cpu = (
      (after.servers - before.servers) / edits,
      postgres == nil ? nil : (after.postgres - before.postgres) / edits,
      (after.clients - before.clients) / edits
    )
    if let commitsBefore, let commitsAfter = try commits() {
      // Less the sampler's own: each sample is a transaction of its own.
      rate.transactionsPerEdit =
        Double(commitsAfter - commitsBefore - (rate.lock?.samples ?? 0)) / edits
    }
    return rate
  }

  /// CPU milliseconds so far of the servers, of this PostgreSQL cluster's processes (as
  /// `pg_stat_activity` lists them: backends and background workers), and of this process.
  private func cpuSample() throws -> (servers: Double, postgres: Double, clients: Double) {
    let servers = processes.reduce(0.0) {
      $0 + ((try? cpuMilliseconds(of: $1.processIdentifier)) ?? 0)
    }
    var postgresCPU = 0.0
    if let postgres {
      let pids = try postgres.fetchAll("SELECT pid FROM pg_stat_activity", []) { $0.int(0) }
      postgresCPU = pids.reduce(0.0) { $0 + ((try? cpuMilliseconds(of: Int32($1))) ?? 0) }
    }
    return (servers, postgresCPU, try cpuMilliseconds(of: getpid()))
  }

  /// The servers' group commits so far (``Rate/groups``).
  private func groupFigures() throws -> (committed: Double, items: Double, runAgain: Double) {
    (
      try metricSum(#"tableweb_group_commits_total{result="committed"}"#, ports: ports),
      try metricSum("tableweb_group_commit_items_total", ports: ports),
      try metricSum(#"tableweb_group_commits_total{result="run_again"}"#, ports: ports)
    )
  }

  /// Transactions committed in this database so far (PostgreSQL's statistics).
  /// The sum of the writers' lists' versions (every list but the home screen and L0).
  private func listVersions() throws -> Int? {
    guard let postgres else { return nil }
    return try postgres.fetchInt(
      "SELECT coalesce(sum(version), 0)::bigint FROM list WHERE key LIKE 'L%' AND key <> 'L0'")
  }

  private func commits() throws -> Int? {
    guard let postgres else { return nil }
    // Each backend flushes its statistics at most once a second, when idle: wait for them,
    // then read them afresh.
    Thread.sleep(forTimeInterval: 1.2)
    _ = try? postgres.execute("SELECT pg_stat_clear_snapshot()")
    return try postgres.fetchInt(
      "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")
  }

  // MARK: - Joining

  /// Opens a connection for each of `wanted` to its server (by number), a few hundred at
  /// a time; each says hello and, when its list is given, taps its way to list `L<list>`.
  /// Returns the clients' indices, in order, once every one shows its screen.
  private func join(_ wanted: [(server: Int, list: Int?)]) throws -> [Int] {
    var opened: [Int] = []
    var greeted = Set<Int>()
    var ready = Set<Int>()
    var listOf: [Int: Int] = [:]
    let deadline = ContinuousClock.now + .seconds(120)
    while ready.count < wanted.count {
      guard ContinuousClock.now < deadline else {
        throw BenchError("only \(ready.count) of \(wanted.count) clients ready in 120 s")
      }
      while opened.count < wanted.count && opened.count - ready.count < 200 {
        let (server, list) = wanted[opened.count]
        let index = try clients.open(port: UInt16(ports[server]))
        serverOf[index] = server
        listOf[index] = list
        opened.append(index)
      }
      let mine = Set(opened)
      try clients.pump(timeoutMilliseconds: 20) { index, message in
        guard mine.contains(index), message.starts(with: Self.screen) else { return }
        if let list = listOf[index],
          message.firstRange(of: Array(#""list":"L\#(list)""#.utf8)) == nil
        {
          try clients.send(#"{"type":"tap","list":"home","row":"go\#(list)"}"#, to: index)
        } else {
          ready.insert(index)
        }
      }
      for index in opened where clients.clients[index].isOpen && !greeted.contains(index) {
        greeted.insert(index)
        try clients.send(#"{"type":"hello","session":null}"#, to: index)
      }
    }
    return opened
  }

  private static let screen = Array(#"{"type":"screen""#.utf8)
  private static let diff = Array(#"{"type":"diff""#.utf8)
  private static let ack = Array(#"{"type":"ack""#.utf8)
  private static let error = Array(#"{"type":"error""#.utf8)
}

/// Sorted milliseconds and their summary.
struct Percentiles {
  var values: [Double] = []

  var p99: Double { percentile(values.sorted(), 0.99) }

  var summary: String {
    guard !values.isEmpty else { return "— (no such viewers)" }
    let sorted = values.sorted()
    return
      "p50 \(format(percentile(sorted, 0.5))) ms, p99 \(format(percentile(sorted, 0.99))) ms, "
      + "max \(format(sorted.last!)) ms"
  }
}
