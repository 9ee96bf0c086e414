import TableModel

/// Decides who may use the server: the hook through which an embedding app brings its
/// own login (a signed cookie, a JWT in `Authorization`, …). ``StoreAuthenticator`` is the
/// default behind `tableweb serve`: the credentials of `tableweb access grant`.
///
/// - Important: Called only on the core thread (docs/threading.md), once per `hello` and
///   about once a second for ``revoked(among:)``: keep both cheap.
public protocol Authenticator: AnyObject {
  /// Who the connection is, given its upgrade request and the `hello`'s `access` (nil
  /// when it sent none).
  func authenticate(_ request: UpgradeRequest, access: String?) -> AccessDecision
  /// Which of `identities` (those of open connections) are no longer valid; their
  /// connections are closed with 4401.
  func revoked(among identities: Set<AccessIdentity>) -> Set<AccessIdentity>
  /// Whether a connection let in without a credential (``AccessDecision/open``) may stay:
  /// asked about once a second. By default, whether `authenticate` still says `.open`.
  func staysOpen(_ request: UpgradeRequest) -> Bool
}

extension Authenticator {
  public func revoked(among identities: Set<AccessIdentity>) -> Set<AccessIdentity> { [] }

  public func staysOpen(_ request: UpgradeRequest) -> Bool {
    authenticate(request, access: nil) == .open
  }
}

/// An ``Authenticator``'s answer.
public enum AccessDecision: Sendable, Hashable {
  /// No access is required: the connection may do everything the data permits, as nobody.
  case open
  case granted(AccessIdentity)
  /// The reason is for the server's log, not the client (which is told `unauthorized`).
  case refused(String)
}
