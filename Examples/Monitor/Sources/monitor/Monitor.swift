import ArgumentParser
import Foundation
import ServiceLifecycle
import Tableweb

/// `monitor --port PORT`: this machine's load, memory and busiest processes, live: the
/// lists change every second with nobody sending a command.
@main
struct Monitor: AsyncParsableCommand {
  @Option(help: "The port to listen on (0 picks a free one).") var port = 8080

  func run() async throws {
    var previous = Machine.read()
    let lists = SnapshotDataSource(root: Self.overview(previous, previous))
    let server = TablewebServer(
      dataSource: lists, configuration: .init(port: port),
      onServerRunning: { port in
        FileHandle.standardOutput.write(Data("monitor: open http://127.0.0.1:\(port)/\n".utf8))
      })
    let sampler = Task {
      var shown: Set<String> = []
      while !Task.isCancelled {
        try await Task.sleep(for: .seconds(1))
        let now = Machine.read()
        let pids = Set(now.processes.keys.map { "pid\($0)" })
        // Each process's list first, so that the overview never leads nowhere.
        for process in now.processes.values {
          lists.apply(Self.detail(of: process))
          lists.setDestination("pid\(process.pid)", ofRow: "pid\(process.pid)", in: "machine")
        }
        lists.apply(Self.overview(now, previous))
        for gone in shown.subtracting(pids) { lists.remove(list: gone) }
        shown = pids
        previous = now
      }
    }
    // Until Ctrl-C or SIGTERM: then every viewer is told goodbye (1001) before the end.
    try await ServiceGroup(services: [server], gracefulShutdownSignals: [.sigint, .sigterm]).run()
    sampler.cancel()
  }

  /// Load, memory, and the ten processes that used the most CPU since the last reading.
  static func overview(_ now: Machine, _ before: Machine) -> TableSnapshot {
    let seconds = max(
      0.001,
      Double((now.time - before.time).components.seconds)
        + Double((now.time - before.time).components.attoseconds) / 1e18)
    func percent(_ process: Machine.Process) -> Double {
      let ticks = process.cpuTicks - (before.processes[process.pid]?.cpuTicks ?? process.cpuTicks)
      return Double(ticks) / 100 / seconds * 100  // USER_HZ is 100 on Linux
    }
    let busiest = now.processes.values.sorted {
      (percent($0), $0.residentBytes) > (percent($1), $1.residentBytes)
    }
    let load = zip(["1 minute", "5 minutes", "15 minutes"], now.load).map { name, value in
      Row(id: name, style: .value1, text: name, detail: value)
    }
    let total = now.memory["MemTotal"] ?? 0
    let available = now.memory["MemAvailable"] ?? 0
    let memory = [("Total", total), ("Available", available), ("Used", total - available)].map {
      Row(id: $0.0, style: .value1, text: $0.0, detail: bytes($0.1))
    }
    let processes = busiest.prefix(10).map { process in
      Row(
        id: "pid\(process.pid)", style: .subtitle, text: process.name,
        detail: "PID \(process.pid) · \(String(format: "%.1f", percent(process)))% CPU · "
          + bytes(process.residentBytes),
        accessory: .disclosureIndicator)
    }
    return TableSnapshot(
      list: "machine", title: ProcessInfo.processInfo.hostName, style: .insetGrouped,
      sections: [
        Section(id: "load", header: "Load", rows: load),
        Section(id: "memory", header: "Memory", rows: memory),
        Section(id: "processes", header: "Busiest processes", rows: processes),
      ])
  }

  static func detail(of process: Machine.Process) -> TableSnapshot {
    let fields = [
      ("PID", "\(process.pid)"), ("State", process.state), ("Threads", "\(process.threads)"),
      ("Memory", bytes(process.residentBytes)), ("CPU time", "\(process.cpuTicks / 100) s"),
      ("Command", process.commandLine.isEmpty ? process.name : process.commandLine),
    ]
    return TableSnapshot(
      list: "pid\(process.pid)", title: process.name, style: .insetGrouped,
      sections: [
        Section(
          id: "info",
          rows: fields.map { Row(id: $0.0, style: .value1, text: $0.0, detail: $0.1) })
      ])
  }

  static func bytes(_ count: Int) -> String {
    ByteCountFormatter.string(fromByteCount: Int64(count), countStyle: .memory)
  }
}
