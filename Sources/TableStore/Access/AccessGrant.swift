import TableModel

/// One credential's record, as `tableweb access list` shows it: never the credential, and
/// its digest only for the server to compare with.
public struct AccessGrant: Sendable, Hashable {
  public var name: String
  public var role: AccessRole
  /// Unix time of the grant.
  public var created: Int
  /// Unix time of the last `hello` that presented it, nil when never used.
  public var lastUsed: Int?
  /// The SHA-256 of the credential, lowercase hex.
  public var digest: String

  public init(name: String, role: AccessRole, created: Int, lastUsed: Int?, digest: String) {
    self.name = name
    self.role = role
    self.created = created
    self.lastUsed = lastUsed
    self.digest = digest
  }
}
