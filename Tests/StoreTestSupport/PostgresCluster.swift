import Foundation
import TableStore

/// A throwaway PostgreSQL cluster for the tests: `initdb` in a temporary folder, started on
/// a free loopback port, gone when the test process is.
///
/// One cluster serves the whole test process (the store and the server suites alike); each test takes a database of its own
/// (``newDatabase()``). `initdb` refuses to run as root, so as root the cluster runs as
/// the `postgres` user Debian's package creates. Its programs get descriptors 0–2 and none
/// of the test process's others (``ChildProcess``). A watchdog shell stops the cluster and
/// removes its folder as soon as the test process has ended, however it ends.
public final class PostgresCluster: Sendable {
  public static let shared: Result<PostgresCluster, ClusterError> = Result {
    () throws(ClusterError) in
    try PostgresCluster()
  }

  public struct ClusterError: Error, CustomStringConvertible {
    public var description: String
  }

  public let folder: URL
  public let port: Int
  private let bin: String
  private let data: String
  private let log: String
  private let options: String
  private let asRoot: Bool
  /// `postgres://tableweb@127.0.0.1:PORT/postgres`: the maintenance database.
  public var url: String { url(database: "postgres") }

  public func url(database: String) -> String {
    "postgres://tableweb@127.0.0.1:\(port)/\(database)"
  }

  /// The postmaster's process id, from `postmaster.pid`; nil while the server is stopped.
  public var postmasterPID: pid_t? {
    let file = folder.appendingPathComponent("data/postmaster.pid").path
    guard let text = try? String(contentsOfFile: file, encoding: .utf8),
      let line = text.split(separator: "\n").first
    else { return nil }
    return pid_t(line)
  }

  /// A new, empty database; returns its URL.
  public func newDatabase() throws -> String {
    let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    try PostgresConnection(url).executeScript("CREATE DATABASE \(name)")
    return url(database: name)
  }

  /// A cluster of the caller's own (most tests share ``shared``): for a test that stops
  /// and starts it, which would break every other test using the shared one.
  public init() throws(ClusterError) {
    bin = try Self.binaryFolder()
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tableweb-pg-\(UUID().uuidString)")
    port = try Self.freePort()
    asRoot = getuid() == 0
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw ClusterError(description: "cannot create \(folder.path): \(error)")
    }
    data = folder.appendingPathComponent("data").path
    log = folder.appendingPathComponent("server.log").path
    if asRoot { try Self.run("/bin/chown", ["postgres:postgres", folder.path]) }
    try Self.run(
      "\(bin)/initdb",
      ["-D", data, "-U", "tableweb", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
      asPostgres: asRoot)
    options =
      "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off"
      + " -c full_page_writes=off -c max_connections=200"
    try start()
    try startWatchdog(bin: bin, data: data, asRoot: asRoot)
  }

  /// Starts the server and waits until it accepts connections.
  public func start() throws(ClusterError) {
    try Self.run(
      "\(bin)/pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-o", options, "start"],
      asPostgres: asRoot)
  }

  /// Stops the server: `fast` (sessions are told, transactions roll back, a clean
  /// shutdown) or `immediate` (processes killed, crash recovery at the next start).
  public func stop(mode: String = "fast") throws(ClusterError) {
    try Self.run("\(bin)/pg_ctl", ["-D", data, "-m", mode, "-w", "stop"], asPostgres: asRoot)
  }

  /// Stops the cluster once this process is gone, however it ends: a detached shell reads
  /// a pipe whose write end only this process holds (close-on-exec, and never handed to a
  /// child), so the read reaches its end when this process exits — a zombie's descriptors
  /// are closed too, where `kill -0` still succeeds on one.
  private func startWatchdog(bin: String, data: String, asRoot: Bool) throws(ClusterError) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else {
      let reason = String(cString: strerror(errno))
      throw ClusterError(description: "no pipe for the cluster's watchdog: \(reason)")
    }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    defer { close(ends[0]) }  // the write end, ends[1], stays open until this process ends
    let stop = "\(bin)/pg_ctl -D \(data) -m immediate stop"
    let script = """
      while read -r _; do :; done
      \(asRoot ? "runuser -u postgres -- " : "")\(stop) >/dev/null 2>&1
      rm -rf \(folder.path)
      """
    do {
      _ = try Self.spawn(["/usr/bin/setsid", "/bin/sh", "-c", script], input: .descriptor(ends[0]))
    } catch {
      close(ends[1])
      throw error
    }
  }

  /// PostgreSQL's programs: `pg_config --bindir` (libpq-dev), else Debian's folder.
  private static func binaryFolder() throws(ClusterError) -> String {
    let candidates =
      ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
      .sorted(by: >).map { "/usr/lib/postgresql/\($0)/bin" }
    guard
      let folder = candidates.first(where: {
        FileManager.default.fileExists(atPath: "\($0)/initdb")
      })
    else {
      throw ClusterError(
        description: "PostgreSQL's server is not installed (no /usr/lib/postgresql/*/bin/initdb):"
          + " `make deps` installs Debian's postgresql")
    }
    return folder
  }

  /// A loopback port nobody listens on now.
  private static func freePort() throws(ClusterError) -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(fd, address, length) == 0 && getsockname(fd, address, &length) == 0
      }
    }
    guard bound else { throw ClusterError(description: "no free loopback port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Runs a PostgreSQL program to its end, its output in a file (not a pipe: the server
  /// `pg_ctl start` leaves running would hold a pipe open for ever).
  private static func run(_ program: String, _ arguments: [String], asPostgres: Bool = false)
    throws(ClusterError)
  {
    let argv =
      (asPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [program] + arguments
    let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tableweb-pg-output-\(UUID().uuidString)"
    ).path
    defer { unlink(outputPath) }
    let process = try spawn(argv, output: .file(outputPath))
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
      throw ClusterError(
        description: "\(argv.joined(separator: " ")) failed (\(process.terminationStatus)): \(text)"
      )
    }
  }

  /// Starts `argv` (``ChildProcess``: descriptors 0–2 and no others of this process) with
  /// its output and errors going to `output`.
  private static func spawn(
    _ argv: [String], input: ChildProcess.Stream = .null, output: ChildProcess.Stream = .null
  ) throws(ClusterError) -> ChildProcess {
    do {
      return try ChildProcess(argv, input: input, output: output, error: output)
    } catch {
      throw ClusterError(description: error.description)
    }
  }
}
