import Logging
import TableModel
import TableStore

/// The credentials of `tableweb access grant`, kept (as digests) in the `Store`: open
/// while the store holds no grant, and from the first grant on, only a `hello` with a
/// granted credential gets in.
///
/// - Important: Not thread-safe (the store is not): use only on the core thread, with
///   the store the server itself uses.
public final class StoreAuthenticator: Authenticator {
  public let store: Store
  private let diagnostics: ServerDiagnostics

  /// - Parameters:
  ///   - store: the store whose grants it reads, the one the server itself uses.
  ///   - logger: where grants that cannot be read are logged: give it the server's
  ///     ``TablewebServer/Configuration/logger``.
  public init(store: Store, logger: Logger = Logger(label: "tableweb")) {
    self.store = store
    diagnostics = ServerDiagnostics(logger: logger)
  }

  public func authenticate(_ request: UpgradeRequest, access: String?) -> AccessDecision {
    do {
      guard let access else {
        return try store.accessGrants().isEmpty ? .open : .refused("no credential")
      }
      guard let grant = try store.grant(forCredential: access) else {
        return try store.accessGrants().isEmpty ? .open : .refused("an unknown credential")
      }
      return .granted(AccessIdentity(name: grant.name, role: grant.role, key: grant.digest))
    } catch {
      diagnostics.report("access grants could not be read (\(error)); refusing")
      // An outage, not a wrong credential: the hello is told to come back (see
      // `SessionServer.refuseUnauthorized`), not that it needs access.
      return .refused(
        error.isConnectionFailure
          ? "the database \(StoreError.unreachable)" : "the grants could not be read")
    }
  }

  /// Open while the store holds no grant. Grants that cannot be read now (the database
  /// is restarting) keep the connection, as ``revoked(among:)`` does: an outage is not a
  /// revocation, and a page told `unauthorized` would stop reconnecting.
  public func staysOpen(_ request: UpgradeRequest) -> Bool {
    do {
      return try store.accessGrants().isEmpty
    } catch {
      diagnostics.report("access grants could not be read (\(error)); keeping connections")
      return true
    }
  }

  /// One read of the (small) grant table per call.
  public func revoked(among identities: Set<AccessIdentity>) -> Set<AccessIdentity> {
    guard !identities.isEmpty else { return [] }
    do {
      let live = Set(try store.accessGrants().map(\.digest))
      return identities.filter { !live.contains($0.key) }
    } catch {
      diagnostics.report("access grants could not be read (\(error)); keeping connections")
      return []
    }
  }
}
