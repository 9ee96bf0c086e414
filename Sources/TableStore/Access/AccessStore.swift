import TableModel

/// Access grants (`access_grant`): `tableweb access grant|list|revoke`, and what the server
/// checks a `hello`'s credential against. The credential itself is never stored.
struct AccessStore: StorePart {
  unowned let store: Store
}

extension AccessStore {
  /// Makes a credential for `name` with `role` and returns it: the only time it exists
  /// outside its holder's hands.
  ///
  /// - Throws: ``StoreError/notAllowed(_:)`` for an empty name or one already granted.
  func grant(name: String, role: AccessRole) throws(StoreError) -> String {
    guard !name.allSatisfy(\.isWhitespace) else {
      throw .notAllowed("a grant needs a non-empty --name")
    }
    let credential = AccessCredential.make()
    let digest = AccessCredential.hex(AccessCredential.hash(credential))
    try write { () throws(StoreError) in
      guard try fetchInt("SELECT count(*) FROM access_grant WHERE name = ?", name) == 0 else {
        throw .notAllowed("“\(name)” already has a grant; revoke it first")
      }
      try execute(
        "INSERT INTO access_grant (name, role, digest, created) VALUES (?, ?, ?, unixepoch())",
        name, role.rawValue, digest)
    }
    return credential
  }

  /// Every grant, by name.
  func grants() throws(StoreError) -> [AccessGrant] {
    try read { () throws(StoreError) in
      try fetchAll(
        "SELECT name, role, created, last_used, digest FROM access_grant ORDER BY name", []
      ) { row in
        AccessGrant(
          name: row.string(0), role: AccessRole(rawValue: row.string(1)) ?? .viewer,
          created: row.int(2), lastUsed: row.optionalInt(3), digest: row.string(4))
      }
    }
  }

  /// Removes `name`'s grant. Returns false when there was none.
  func revoke(name: String) throws(StoreError) -> Bool {
    try write { () throws(StoreError) in
      try fetchInt("DELETE FROM access_grant WHERE name = ? RETURNING 1", name) != nil
    }
  }

  /// The grant whose credential is `credential`, or nil. Every stored digest is compared
  /// in constant time (there are few); the match's last use is noted when the store can
  /// be written.
  func grant(forCredential credential: String) throws(StoreError) -> AccessGrant? {
    let digest = AccessCredential.hash(credential)
    var match: AccessGrant?
    for grant in try grants()
    where AccessCredential.digestsMatch(digest, Self.bytes(ofHex: grant.digest)) {
      match = grant
    }
    if let match, !isReadOnly {
      try write { () throws(StoreError) in
        try execute(
          "UPDATE access_grant SET last_used = unixepoch() WHERE name = ?", match.name)
      }
    }
    return match
  }

  static func bytes(ofHex hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var high: UInt8?
    for character in hex.utf8 {
      guard let value = character.hexDigitValue else { return [] }
      if let first = high {
        bytes.append(first << 4 | value)
        high = nil
      } else {
        high = value
      }
    }
    return bytes
  }
}

extension UInt8 {
  fileprivate var hexDigitValue: UInt8? {
    switch self {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return self - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return self - UInt8(ascii: "a") + 10
    default: return nil
    }
  }
}
