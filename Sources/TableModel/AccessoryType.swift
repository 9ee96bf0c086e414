/// The standard accessory at a row's trailing edge, as `UITableViewCell.AccessoryType`.
/// Raw values are the wire names of the protocol.
public enum AccessoryType: String, Sendable, Hashable, CaseIterable {
  case none
  /// A chevron: tapping the row drills down.
  case disclosureIndicator = "disclosure"
  /// An info button plus chevron: the button (`accessory`) and the row (`tap`) act apart.
  case detailDisclosureButton = "detailDisclosure"
  /// An info button alone.
  case detailButton = "detail"
  /// A check mark: the row is chosen in a selection list.
  case checkmark
}
