import TableModel

/// Who a connection acts as, once its `hello` was accepted.
public struct AccessIdentity: Sendable, Hashable {
  /// What `welcome` calls the user, and what the change log records.
  public var name: String
  public var role: AccessRole
  /// What the authenticator tells this credential apart by (the grant's digest for
  /// ``StoreAuthenticator``), so that a revoked and granted-again name is a new identity.
  public var key: String

  public init(name: String, role: AccessRole, key: String = "") {
    self.name = name
    self.role = role
    self.key = key
  }
}
