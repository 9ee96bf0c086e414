import Foundation
import TableStore

/// A throwaway PostgreSQL cluster for the tests: `initdb` in a temporary folder, started on
/// a free loopback port, gone when the test process is.
///
/// One cluster serves the whole test process (the store and the server suites alike); each test takes a database of its own
/// (``newDatabase()``). `initdb` refuses to run as root, so as root the cluster runs as
/// the `postgres` user Debian's package creates. A watchdog shell stops the cluster and
/// removes its folder within a second of the test process ending, however it ends.
public final class PostgresCluster: Sendable {
  public static let shared: Result<PostgresCluster, ClusterError> = Result { () throws(ClusterError) in
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

  public func url(database: String) -> String { "postgres://tableweb@127.0.0.1:\(port)/\(database)" }

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

  /// Stops the cluster once this process is gone: polls our pid from a detached shell.
  private func startWatchdog(bin: String, data: String, asRoot: Bool) throws(ClusterError) {
    let stop = "\(bin)/pg_ctl -D \(data) -m immediate stop"
    let script = """
      while kill -0 \(getpid()) 2>/dev/null; do sleep 0.5; done
      \(asRoot ? "runuser -u postgres -- " : "")\(stop) >/dev/null 2>&1
      rm -rf \(folder.path)
      """
    _ = try Self.spawn(["/bin/sh", "-c", script], output: "/dev/null", detached: true)
  }

  /// PostgreSQL's programs: `pg_config --bindir` (libpq-dev), else Debian's folder.
  private static func binaryFolder() throws(ClusterError) -> String {
    let candidates = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
      .sorted(by: >).map { "/usr/lib/postgresql/\($0)/bin" }
    guard let folder = candidates.first(where: { FileManager.default.fileExists(atPath: "\($0)/initdb") })
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
    let argv = (asPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [program] + arguments
    let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tableweb-pg-output-\(UUID().uuidString)").path
    defer { unlink(outputPath) }
    let pid = try spawn(argv, output: outputPath, detached: false)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    guard status == 0 else {
      let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
      throw ClusterError(description: "\(argv.joined(separator: " ")) failed (\(status)): \(text)")
    }
  }

  /// Starts `argv` with standard input from /dev/null and its output appended to `output`;
  /// `detached` puts it in a session of its own, so it outlives this process's group.
  /// (posix_spawn and waitpid: Foundation's `Process` did not reap children reliably here.)
  private static func spawn(_ argv: [String], output: String, detached: Bool) throws(ClusterError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = detached ? ["/usr/bin/setsid"] + argv : argv
    var pid: pid_t = 0
    let cArguments = argv.map { strdup($0) } + [nil]
    defer { for pointer in cArguments { free(pointer) } }
    let code = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
    guard code == 0 else {
      throw ClusterError(description: "cannot start \(argv[0]): \(String(cString: strerror(code)))")
    }
    return pid
  }
}
