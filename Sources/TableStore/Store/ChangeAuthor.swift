import TableModel

/// Who made a change, as the `change_log` table records it: the grant's name (nil on an
/// open server) and role.
public struct ChangeAuthor: Sendable, Hashable {
  public var name: String?
  public var role: AccessRole

  public init(name: String?, role: AccessRole) {
    self.name = name
    self.role = role
  }
}
