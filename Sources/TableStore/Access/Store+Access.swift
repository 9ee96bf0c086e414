import TableModel

/// Access grants (`AccessStore`): `tableweb access grant|list|revoke`, and what the
/// server checks a `hello`'s credential against. The credential itself is never stored.
extension Store {
  /// Makes a credential for `name` with `role` and returns it: the only time it exists
  /// outside its holder's hands.
  ///
  /// - Throws: ``StoreError/notAllowed(_:)`` for an empty name or one already granted.
  public func grantAccess(name: String, role: AccessRole) throws(StoreError) -> String {
    try accessStore.grant(name: name, role: role)
  }

  /// Every grant, by name.
  public func accessGrants() throws(StoreError) -> [AccessGrant] {
    try accessStore.grants()
  }

  /// Removes `name`'s grant. Returns false when there was none.
  @discardableResult
  public func revokeAccess(name: String) throws(StoreError) -> Bool {
    try accessStore.revoke(name: name)
  }

  /// The grant whose credential is `credential`, or nil. Every stored digest is compared
  /// in constant time (there are few); the match's last use is noted when the store can
  /// be written.
  public func grant(forCredential credential: String) throws(StoreError) -> AccessGrant? {
    try accessStore.grant(forCredential: credential)
  }
}
