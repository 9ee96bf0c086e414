import TableStore

#if canImport(Glibc)
  import Glibc
#endif

extension ServeCommand {
  /// A server anyone on the network can reach must require access, unless `--open`
  /// says that is meant: with no grant in the database, only loopback is served.
  func checkAccessIsRequired(_ store: Store, settings: Settings) throws {
    let host = settings.host
    let db = DatabaseOption.shown(settings.db)
    guard !settings.open, !Self.isLoopback(host) else { return }
    let grants: Int
    do {
      grants = try store.accessGrants().count
    } catch {
      throw CommandFailure("cannot read the access grants of \(db): \(error)")
    }
    guard grants == 0 else { return }
    throw CommandFailure(
      """
      --host \(host) is reachable from other machines, and \(db) has no access grants, so \
      anyone could read and change everything. Grant access first \
      (tableweb access grant --role editor --name NAME --db \(db)), or pass --open to serve \
      it to everyone on purpose.
      """)
  }

  /// Whether `host` is a loopback address (127.0.0.0/8, ::1) or `localhost`.
  static func isLoopback(_ host: String) -> Bool {
    if host == "localhost" || host == "::1" { return true }
    var address = in_addr()
    guard inet_pton(AF_INET, host, &address) == 1 else { return false }
    return UInt32(bigEndian: address.s_addr) >> 24 == 127
  }
}
