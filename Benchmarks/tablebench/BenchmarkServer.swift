import ArgumentParser
import Foundation
import Glibc
import TableStore

/// The real `tableweb serve` in a process of its own on a loopback port, for the benchmarks
/// that measure it from outside (its memory alone, its CPU time), and what they share.
enum BenchmarkServer {

  /// The connection limits a benchmark's server runs with.
  enum Limits {
    /// `serve`'s own: for measuring what they do.
    case defaults
    /// High enough for thousands of clients from 127.0.0.1 (a fan-out to 10,000 viewers).
    case raised
  }

  /// `serve`'s connection limits raised for thousands of benchmark clients, all from
  /// 127.0.0.1 and opened a few hundred at a time (a connection accepted before its
  /// upgrade request arrives counts as still sending headers; past 32 of them, HTTP 503).
  /// As variables: older servers ignore them.
  static let raisedLimits = [
    "TABLEWEB_MAX_CONNECTIONS": "65536",
    "TABLEWEB_MAX_CONNECTIONS_PER_ADDRESS": "65536",
    "TABLEWEB_MAX_PENDING_HEADERS_PER_ADDRESS": "65536",
  ]

  static func start(
    executable server: String?, port: Int, database: String, limits: Limits = .raised,
    environment extra: [String: String] = [:]
  ) throws -> ChildProcess {
    let executable = try tableweb(server)
    // `swift run tablebench` builds only this product, so the tableweb it runs may predate
    // the code it is measuring: say so when an object file of that code is newer.
    if let stale = newerObjectFile(than: executable) {
      FileHandle.standardError.write(
        Data("note: \(executable) is older than \(stale); `swift build -c release` first\n".utf8))
    }
    // A new database is made with the demo app (TABLEWEB_DEMO: older servers ignore it);
    // a line per connection would bury the figures, so warnings only unless asked.
    var environment = ["TABLEWEB_DEMO": "1"]
    if limits == .raised { environment.merge(raisedLimits) { _, raised in raised } }
    environment.merge(extra) { _, given in given }
    return try launch(
      executable, ["serve", "--port", String(port), "--db", database], environment: environment)
  }

  static func wait(for sockets: FanoutClients, process: ChildProcess) throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
      guard process.isRunning else {
        throw BenchError("tableweb serve exited with \(process.terminationStatus)")
      }
      if canConnect(port: sockets.port) { return }
      Thread.sleep(forTimeInterval: 0.05)
    }
    throw BenchError("tableweb serve did not listen within 30 s")
  }

}

// MARK: - Measuring

func milliseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
  guard !sorted.isEmpty else { return 0 }
  return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
}

func format(_ value: Double) -> String { String(format: "%.2f", value) }

/// The resident set of process `pid`, in KiB, from /proc.
func residentKiB(of pid: Int32) throws -> Int {
  let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
  guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
    let kib = Int(
      line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
  else { throw BenchError("no VmRSS for process \(pid)") }
  return kib
}

/// User plus system CPU time of process `pid` so far, in milliseconds, from /proc.
func cpuMilliseconds(of pid: Int32) throws -> Double {
  let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
  // Fields after the command name, which is in parentheses and may hold spaces.
  guard let close = stat.lastIndex(of: ")") else {
    throw BenchError("unreadable /proc/\(pid)/stat")
  }
  let fields = stat[stat.index(after: close)...].split(separator: " ")
  guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
    throw BenchError("unreadable /proc/\(pid)/stat")
  }
  return (user + system) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
}

func loadAverage() -> String {
  let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
  return String(text.split(separator: " ").first ?? "?")
}

/// The 1-, 5- and 15-minute load averages, as /proc/loadavg gives them ("?" without it).
func loadAverages() -> String {
  (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
    .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
}

/// Raises the open-file limit to its hard maximum (inherited by the server process).
func raiseFileLimit() -> Int {
  var limit = rlimit()
  getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  limit.rlim_cur = limit.rlim_max
  setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  return Int(limit.rlim_cur)
}

func freeLoopbackPort() throws -> Int {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
    }
  }
  guard bound else { throw BenchError("cannot bind a loopback port: errno \(errno)") }
  return Int(UInt16(bigEndian: address.sin_port))
}

func canConnect(port: UInt16) -> Bool {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = port.bigEndian
  address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
    }
  }
}

extension BenchmarkServer {
  /// The tableweb executable: `given`, or the one next to this benchmark.
  static func tableweb(_ given: String?) throws -> String {
    let executable =
      given
      ?? Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("tableweb")
      .path
    guard FileManager.default.isExecutableFile(atPath: executable) else {
      throw ValidationError("no tableweb at \(executable): build it with `swift build -c release`")
    }
    return executable
  }

  /// An object file of the server's code (in the build folder beside `executable`) that is
  /// newer than `executable`, or nil when the executable is up to date.
  static func newerObjectFile(than executable: String) -> String? {
    let files = FileManager.default
    let modified = { (path: String) in
      (try? files.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
    guard let built = modified(executable) else { return nil }
    let folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
    for target in ["TableModel", "TableStore", "TableServer", "tableweb"] {
      let objects = folder.appendingPathComponent("\(target).build").path
      for name in (try? files.contentsOfDirectory(atPath: objects)) ?? [] where name.hasSuffix(".o")
      {
        let path = objects + "/" + name
        if let date = modified(path), date > built { return path }
      }
    }
    return nil
  }
}
