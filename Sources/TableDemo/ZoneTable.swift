import Foundation

/// Countries and their time zones, from the tz database's tables when the machine has
/// them (`/usr/share/zoneinfo`, package tzdata), else from Foundation's own list of time
/// zones and ICU's region names, so that the demo builds on a bare machine too.
struct ZoneTable {
  struct Zone {
    var identifier: String
    var countryCode: String?
    /// ISO 6709 coordinates as the table writes them (`+4852+00220`).
    var coordinates: String?
    var comment: String?

    /// The region: the identifier's first component (`Europe`).
    var region: String { identifier.split(separator: "/").first.map(String.init) ?? identifier }

    /// The place, as people write it (`Buenos Aires`, `Indiana, Knox`).
    var city: String {
      identifier.split(separator: "/").dropFirst().reversed()
        .map { $0.replacingOccurrences(of: "_", with: " ") }.joined(separator: ", ")
    }
  }

  var zones: [Zone]
  /// Country names by ISO 3166 code.
  var countries: [String: String]

  static func load(folder: String = "/usr/share/zoneinfo") -> ZoneTable {
    let english = Locale(identifier: "en_US")
    var countries: [String: String] = [:]
    for fields in table(at: folder + "/iso3166.tab") where fields.count >= 2 {
      countries[fields[0]] = fields[1]
    }
    var zones: [Zone] = []
    for fields in table(at: folder + "/zone.tab") where fields.count >= 3 {
      zones.append(
        Zone(
          identifier: fields[2], countryCode: fields[0], coordinates: fields[1],
          comment: fields.count > 3 ? fields[3] : nil))
    }
    let known = Set(TimeZone.knownTimeZoneIdentifiers)
    zones.removeAll { !known.contains($0.identifier) && TimeZone(identifier: $0.identifier) == nil }
    if zones.isEmpty {
      zones = TimeZone.knownTimeZoneIdentifiers.filter { $0.contains("/") }.map {
        Zone(identifier: $0)
      }
    }
    for zone in zones {
      if let code = zone.countryCode, countries[code] == nil {
        countries[code] = english.localizedString(forRegionCode: code) ?? code
      }
    }
    return ZoneTable(zones: zones, countries: countries)
  }

  private static func table(at path: String) -> [[String]] {
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      // No tzdata on this machine: the caller falls back to Foundation's time zones.
      return []
    }
    return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
      $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
  }

  /// The zone's offset from GMT now (`GMT+5:30`).
  static func offset(of identifier: String) -> String {
    guard let zone = TimeZone(identifier: identifier) else { return "" }
    let seconds = zone.secondsFromGMT()
    let sign = seconds < 0 ? "-" : "+"
    let minutes = abs(seconds) / 60
    if minutes == 0 { return "GMT" }
    return minutes % 60 == 0
      ? "GMT\(sign)\(minutes / 60)"
      : "GMT\(sign)\(minutes / 60):\(String(format: "%02d", minutes % 60))"
  }
}
