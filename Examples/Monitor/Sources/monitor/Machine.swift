import Foundation

/// One reading of this machine from /proc: load, memory and every process's CPU time.
struct Machine {
  struct Process {
    var pid: Int
    var name: String
    var state: String
    var threads: Int
    var residentBytes: Int
    /// User plus system time, in clock ticks.
    var cpuTicks: Int
    var commandLine: String
  }

  var load: [String]
  var memory: [String: Int]  // /proc/meminfo, in bytes
  var processes: [Int: Process]
  var time = ContinuousClock.now

  static func read() -> Machine {
    let load = (text("/proc/loadavg") ?? "").split(separator: " ").prefix(3).map(String.init)
    var memory: [String: Int] = [:]
    for line in (text("/proc/meminfo") ?? "").split(separator: "\n") {
      let parts = line.split(whereSeparator: { $0 == ":" || $0 == " " })
      if parts.count >= 2, let kilobytes = Int(parts[1]) {
        memory[String(parts[0])] = kilobytes * 1024
      }
    }
    var processes: [Int: Process] = [:]
    let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap(Int.init)
    for pid in pids ?? [] {
      if let process = readProcess(pid) { processes[pid] = process }
    }
    return Machine(load: load, memory: memory, processes: processes)
  }

  private static func readProcess(_ pid: Int) -> Process? {
    // Fields after the name, which is in parentheses and may hold spaces.
    guard let stat = text("/proc/\(pid)/stat"), let open = stat.firstIndex(of: "("),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ").map(String.init)
    guard fields.count > 22 else { return nil }
    let command = (text("/proc/\(pid)/cmdline") ?? "").replacingOccurrences(of: "\0", with: " ")
    return Process(
      pid: pid, name: String(stat[stat.index(after: open)..<close]), state: fields[0],
      threads: Int(fields[17]) ?? 0, residentBytes: (Int(fields[21]) ?? 0) * 4096,
      cpuTicks: (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0),
      commandLine: command.trimmingCharacters(in: .whitespaces))
  }

  private static func text(_ path: String) -> String? {
    try? String(contentsOfFile: path, encoding: .utf8)
  }
}
